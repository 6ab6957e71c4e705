import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { SsoLink } from '../../../src/auth/auth.schema';
import { apiError } from '../../lib/api-error';
import type { TrpcUtils } from '../../lib/trpc';

// A company account whose address is an existing account's waits for that account's password at
// /auth/link; the browser holds the request in an HTTP-only cookie, so only the server can say whether one
// is pending. Read by routes.ts before /auth and /auth/link load: nothing here may import a page.

/** Why there is no link: the server's words, or ours (translated where it is shown, in the page's language). */
export type PendingLink = { link: SsoLink; error: null } | { link: null; error: string | MessageDescriptor };

/** This browser's pending link request, or why there is none. */
export async function pendingLink(utils: TrpcUtils): Promise<PendingLink> {
  try {
    const link = await utils.auth.ssoLink.fetch(undefined, { staleTime: 0 });
    return link
      ? { link, error: null }
      : { link: null, error: msg`This link request has expired. Sign in with your company account again.` };
  } catch (error) {
    return { link: null, error: apiError(error, '').message || msg`This link request could not be loaded.` };
  }
}

// Once the link page has been shown in this page load, /auth no longer sends the person back to it: its
// Cancel leads to /auth, which would otherwise send them straight back while the request lasts.
let linkPageSeen = false;

/** The link page is on screen: from now on /auth stays /auth. */
export function linkPageShown(): void {
  linkPageSeen = true;
}

/**
 * Whether /auth should look for a pending link: behind a trusted sign-in proxy the app lands there (the
 * proxy's person is not signed in until the link is proved), never after the link page was shown.
 */
export function linkCheckDue(): boolean {
  return !linkPageSeen;
}
