import { useEffect, useState, type ComponentType } from 'react';
import { useFirstOpen } from '../../lib/use-first-open';

/**
 * A dialog the designer rarely shows (a design that won't scan, the plan's limit), with its code loaded
 * when first wanted, or earlier when `preload` says it soon may be: its modal (the scroll lock, the focus
 * trap) is not part of /create's first load. Once the code has arrived the dialog mounts closed and opens
 * a render later, as a dialog always in the tree does (its transition, the focus it returns on close).
 * `Dialog` is null until then.
 */
export function useLazyDialog<P>(
  load: () => Promise<ComponentType<P>>,
  wanted: boolean,
  preload = false,
): { Dialog: ComponentType<P> | null; mounted: boolean; opened: boolean } {
  const [Dialog, setDialog] = useState<ComponentType<P> | null>(null);
  const ask = wanted || preload;
  useEffect(() => {
    if (!ask || Dialog) return;
    let live = true;
    // Not there (offline): asked again when next wanted.
    load().then(
      (component) => live && setDialog(() => component),
      () => undefined,
    );
    return () => {
      live = false;
    };
    // `load` is a module-level import: the same each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ask, Dialog]);
  const { mounted, opened } = useFirstOpen(wanted && Dialog !== null);
  return { Dialog, mounted: mounted && Dialog !== null, opened };
}

/** The question before creating, saving or downloading a design that won't scan (UnscannableDialog.tsx). */
export const loadUnscannableDialog = () => import('./UnscannableDialog').then((m) => m.UnscannableDialog);

/** 'QR Code Limit Reached' (LimitDialog.tsx). */
export const loadLimitDialog = () => import('./LimitDialog').then((m) => m.LimitDialog);
