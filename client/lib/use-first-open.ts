import { useEffect, useState } from 'react';

/**
 * For a dialog that most of a list's rows never open: `mounted` once it has first been asked to open, and
 * `opened` a render later, so that it opens closed-then-open as a dialog always in the tree does (its
 * opening transition, the focus it returns on close). A closed Mantine Modal still mounts a portal, a
 * scroll lock and its hooks: two per row made half the time of drawing My QR Codes' 50 codes.
 */
export function useFirstOpen(opened: boolean): { mounted: boolean; opened: boolean } {
  const [mounted, setMounted] = useState(opened);
  const [ready, setReady] = useState(false);
  if (opened && !mounted) setMounted(true);
  useEffect(() => {
    let live = true;
    // Right after the closed dialog's commit, before the next key or click.
    if (mounted) queueMicrotask(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, [mounted]);
  return { mounted, opened: opened && ready };
}
