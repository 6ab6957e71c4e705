// Whether this browser was signed in when the app last asked the server: a hint the page-preload script
// (scripts/build/page-preload.ts) reads before the app has loaded, to fetch the code of the page a visitor
// will actually see (/ opens the sign-in form when signed out). The session cookie itself is HttpOnly.
// Only a hint: the route guards (routes.ts) still ask the server.

/** localStorage key; '1' signed in, '0' signed out, absent: never asked in this browser. */
export const SIGNED_IN_KEY = 'qr-creator:signed-in';

/** The route guards' answer from the server, kept for the next page load. */
export function noteSignedIn(signedIn: boolean): void {
  try {
    localStorage.setItem(SIGNED_IN_KEY, signedIn ? '1' : '0');
  } catch {
    // Storage refused (private mode, quota): the next load preloads as if nothing were known.
  }
}
