import { tokenOfFragment } from '../auth/use-link-token';

/** The mailed link's token, kept in this tab (as the reset and verification links keep theirs). */
const TOKEN_KEY = 'qr-link-token:/invitations';
/** Set while a signed-out visitor of /invitations signs in: the app then goes back there. */
const RETURN_KEY = 'qr-return-to:/invitations';

export const INVITATIONS_PATH = '/invitations';

/**
 * Runs before any app page loads (routes.ts). A mailed invitation (/invitations#token=…) is opened by a
 * full page load: its token is kept in this tab's session storage before a redirect can drop the
 * fragment (the app adds `?workspace=`; a signed-out visitor goes to /auth first, and is brought back
 * once signed in).
 */
export function keepInvitationLink(pathname: string, signedIn: boolean): void {
  if (pathname !== INVITATIONS_PATH) return;
  // The browser's own fragment, not the router's (which decodes it: a `%2B` would become a space); only
  // on the page load that opened the link, not on a later move inside the app.
  if (window.location.pathname === INVITATIONS_PATH) {
    const token = tokenOfFragment(window.location.hash);
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
  }
  if (!signedIn) sessionStorage.setItem(RETURN_KEY, '1');
}

/** A visitor of /invitations went to sign in first: the app goes back there once they have. */
export function invitationsAfterSignIn(): boolean {
  return sessionStorage.getItem(RETURN_KEY) !== null;
}

/** The invitations page is shown: the way back there is used up. */
export function arrivedAtInvitations(): void {
  sessionStorage.removeItem(RETURN_KEY);
}

/** The fragment of the address as the browser has it holds a link's token (a new link opened in this tab). */
export function tokenInAddress(): boolean {
  return tokenOfFragment(window.location.hash) !== undefined;
}

/** The mailed link's token kept in this tab, if any. */
export function keptInvitationToken(): string | undefined {
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

/** The link's invitation is answered, or no longer valid: a later visit shows the list alone. */
export function forgetInvitationToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}
