// Toasts. @mantine/notifications (its store, its container and transitions) is loaded the first time one
// is shown, not with every first page: most page loads show none, and the login form needs none to draw.
// It is only ever imported dynamically, so it stays one chunk of its own (a static import anywhere would
// pull it into that page's code).
const loadNotifications = () => import('@mantine/notifications');

let asked = false;
const listeners = new Set<() => void>();

/** Whether a toast has been shown in this page load (the container is drawn from then on). */
export function toastsAsked(): boolean {
  return asked;
}

/** Calls `listener` when the first toast is shown (useSyncExternalStore's subscribe). */
export function onToastsAsked(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The toasts package, for the container (components/Toasts.tsx). */
export const notificationsPackage = loadNotifications;

function show(title: string, message: string | undefined, color: 'teal' | 'red') {
  if (!asked) {
    asked = true;
    for (const listener of listeners) listener();
  }
  // One module promise: toasts asked one after the other are shown in that order.
  void loadNotifications().then(({ notifications }) => {
    notifications.clean();
    notifications.show({ title, message: message ?? '', color, withBorder: true });
  });
}

/**
 * Toasts: one at a time, 5 s by default (see components/Toasts.tsx). A new toast replaces the one on
 * screen instead of waiting behind it, so "Logged out" never waits for "Welcome back" to expire.
 */
export const notify = {
  success(title: string, message?: string) {
    show(title, message, 'teal');
  },
  error(title: string, message?: string) {
    show(title, message, 'red');
  },
};
