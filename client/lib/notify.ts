import { notifications } from '@mantine/notifications';

/**
 * Toasts: one at a time, 5 s by default (see Notifications in main.tsx). A new toast replaces the one
 * on screen instead of waiting behind it, so "Logged out" never waits for "Welcome back" to expire.
 */
export const notify = {
  success(title: string, message?: string) {
    notifications.clean();
    notifications.show({ title, message: message ?? '', color: 'teal', withBorder: true });
  },
  error(title: string, message?: string) {
    notifications.clean();
    notifications.show({ title, message: message ?? '', color: 'red', withBorder: true });
  },
};
