import {
  cloneElement,
  useEffect,
  useLayoutEffect,
  useState,
  type MouseEvent,
  type PointerEvent,
  type ReactElement,
  type Ref,
} from 'react';
import { flushSync } from 'react-dom';

/** How the control was first reached: a mouse or pen over it, a finger on it, a click (or Enter, Space). */
export type FirstUse = 'hover' | 'touch' | 'click';

interface TriggerProps {
  ref?: Ref<HTMLElement>;
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onClick?: (event: MouseEvent<HTMLElement>) => void;
}

/**
 * A control drawn plain (`plain`, a button) until it is first reached, then as `full(use, ref)`: the same
 * button inside its Menu or Tooltip, with `ref` on it. A Mantine Menu or Tooltip mounts floating-ui's
 * hooks, a transition and a portal even while closed: on My QR Codes' 50 rows, most never opened, that
 * was much of the time the list took to appear.
 *
 * The pointer coming over the button mounts the full version before it is pressed. The keyboard's focus
 * leaves the plain button in place (a tooltip does not open on focus); Enter or Space clicks it, and the
 * full version opens its menu (`OpenedAfterMount`). The full version's button is a new element: one that
 * had the focus keeps it.
 */
export function MountOnFirstUse({
  plain,
  full,
}: {
  plain: ReactElement<TriggerProps>;
  full: (use: FirstUse, ref: Ref<HTMLElement>) => ReactElement;
}) {
  // How it was reached, and whether the plain button had the focus then.
  const [reached, setReached] = useState<{ use: FirstUse; focused: boolean } | null>(null);
  // The full version's button (a callback ref).
  const [button, setButton] = useState<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (reached?.focused && button && document.activeElement !== button) button.focus();
  }, [reached, button]);
  if (reached !== null) return full(reached.use, setButton);
  const own = plain.props;
  const reach = (use: FirstUse, button: HTMLElement) =>
    setReached({ use, focused: document.activeElement === button });
  return cloneElement(plain, {
    onPointerEnter: (event: PointerEvent<HTMLElement>) => {
      own.onPointerEnter?.(event);
      const button = event.currentTarget;
      // At once, not at the next frame: the press that follows lands on the full version's button.
      flushSync(() => reach(event.pointerType === 'touch' ? 'touch' : 'hover', button));
    },
    onClick: (event: MouseEvent<HTMLElement>) => {
      own.onClick?.(event);
      reach('click', event.currentTarget);
    },
  });
}

/**
 * A menu's opened state, open right after it mounts when `open`: mounted closed first, so that it
 * opens as a menu always in the tree does (the focus it moves in, and gives back to its button on close).
 */
export function OpenedAfterMount({
  open,
  children,
}: {
  open: boolean;
  children: (state: { opened: boolean; onChange: (opened: boolean) => void }) => ReactElement;
}) {
  const [opened, setOpened] = useState(false);
  const [openOnMount] = useState(open);
  useEffect(() => {
    let live = true;
    // Right after this commit, before the next key or click: a frame later, an Escape pressed as the
    // menu opened reached its button, and the menu opened after it and stayed open.
    if (openOnMount) queueMicrotask(() => live && setOpened(true));
    return () => {
      live = false;
    };
  }, [openOnMount]);
  return children({ opened, onChange: setOpened });
}
