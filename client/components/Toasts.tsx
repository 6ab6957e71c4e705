// Where toasts (lib/notify.ts) appear: drawn once the first one is shown, with the package it loads then.
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { notificationsPackage, onToastsAsked, toastsAsked } from '../lib/notify';

const Notifications = lazy(() => notificationsPackage().then((m) => ({ default: m.Notifications })));

export function Toasts() {
  const asked = useSyncExternalStore(onToastsAsked, toastsAsked);
  if (!asked) return null;
  return (
    <Suspense fallback={null}>
      {/* One at a time, 5 s by default (lib/notify.ts). */}
      <Notifications limit={1} autoClose={5000} position="bottom-right" />
    </Suspense>
  );
}
