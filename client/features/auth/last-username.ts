// The username of the last account this browser signed in to (or registered), kept in localStorage so
// the login form offers it instead of the demo account: a returning user pressing Enter must never land
// in the shared demo. Only the username, never a password.

export const LAST_USERNAME_KEY = 'qr-creator:last-username';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage can be disabled (privacy mode, sandboxed frames).
    return null;
  }
}

/** The last username signed in with here (the demo account aside), or null in a fresh browser. */
export function lastUsername(): string | null {
  try {
    const value = storage()?.getItem(LAST_USERNAME_KEY);
    return value && value.trim() !== '' ? value : null;
  } catch {
    return null;
  }
}

/** Remembers `username` after a sign-in or registration; the demo account is never remembered. */
export function rememberUsername(username: string, demoUsername: string | undefined): void {
  if (demoUsername !== undefined && username.toLowerCase() === demoUsername.toLowerCase()) return;
  try {
    storage()?.setItem(LAST_USERNAME_KEY, username);
  } catch {
    // Full or refused: the form falls back to what a fresh browser sees.
  }
}
