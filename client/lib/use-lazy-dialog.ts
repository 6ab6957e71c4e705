import { useEffect, useState, type ComponentType } from 'react';
import { useFirstOpen } from './use-first-open';

/**
 * A dialog or drawer rarely shown (a design that won't scan, the plan's limit, the phone's navigation),
 * with its code loaded when first wanted, or earlier when `preload` says it soon may be: its modal (the
 * scroll lock, the focus trap) is not part of the page's first load. Once the code has arrived it mounts
 * closed and opens a render later, as a dialog always in the tree does (its transition, the focus it
 * returns on close). `Dialog` is null until then. A download that fails (offline) calls `onFailed` if the
 * dialog is still wanted, which should close it: it is asked for again when next wanted.
 */
export function useLazyDialog<P>(
  load: () => Promise<ComponentType<P>>,
  wanted: boolean,
  { preload = false, onFailed }: { preload?: boolean; onFailed?: () => void } = {},
): { Dialog: ComponentType<P> | null; mounted: boolean; opened: boolean } {
  const [Dialog, setDialog] = useState<ComponentType<P> | null>(null);
  useEffect(() => {
    if (!(wanted || preload) || Dialog) return;
    let live = true;
    load().then(
      (component) => live && setDialog(() => component),
      () => live && wanted && onFailed?.(),
    );
    return () => {
      live = false;
    };
    // `load` is a module-level import and `onFailed` a close of state: each the same in effect every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted, preload, Dialog]);
  const { mounted, opened } = useFirstOpen(wanted && Dialog !== null);
  return { Dialog, mounted: mounted && Dialog !== null, opened };
}
