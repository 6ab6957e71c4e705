import { useCallback, useMemo, useState } from 'react';
import { smartPartOf, type SmartPart } from './smart-values';

/** The input (or the first input inside the group) a form path names, once it is shown. */
function visibleInput(path: string): HTMLElement | null {
  const node = document.querySelector<HTMLElement>(`[data-path="${CSS.escape(path)}"]`);
  if (!node || node.getClientRects().length === 0) return null;
  return node.matches('input, textarea, select, button')
    ? node
    : (node.querySelector<HTMLElement>('input, textarea, select, button') ?? node);
}

/**
 * Which parts of the smart-redirect section are open, and `reveal(path)`: opens the part an error path
 * belongs to, then scrolls to its input and focuses it. Answers false for a path outside the section.
 */
export function useSmartSections() {
  const [opened, setOpened] = useState<SmartPart[]>([]);
  const reveal = useCallback((path: string) => {
    const part = smartPartOf(path);
    if (!part) return false;
    // Shown already: its part is open.
    const wasOpen = visibleInput(path) !== null;
    setOpened((open) => (open.includes(part) ? open : [...open, part]));
    // A closed panel is drawn on the next renders and slides open, moving the page (the browser keeps
    // what is in view in place): scroll once the page has stopped growing for a few frames, or it would
    // scroll to where the input was mid-slide. Gives up after about two seconds.
    const start = performance.now();
    let lastHeight = -1;
    let steady = 0;
    const focus = () => {
      const input = visibleInput(path);
      const height = document.documentElement.scrollHeight;
      steady = height === lastHeight ? steady + 1 : 0;
      lastHeight = height;
      if (input && (wasOpen || (steady >= 3 && performance.now() - start > 150))) {
        input.scrollIntoView({ block: 'center' });
        input.focus({ preventScroll: true });
      } else if (performance.now() - start < 2000) {
        requestAnimationFrame(focus);
      }
    };
    requestAnimationFrame(focus);
    return true;
  }, []);
  return useMemo(() => ({ opened, setOpened, reveal }), [opened, reveal]);
}

export type SmartSections = ReturnType<typeof useSmartSections>;
