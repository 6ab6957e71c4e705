import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';

/** `token` of an address's fragment as the browser has it (`#token=abc`, percent-encoded); undefined when none. */
export function tokenOfFragment(hash: string): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token ? token : undefined;
}

/**
 * The token of a mailed link, taken out of the address bar as soon as the page loads, so it is not left
 * in the history, bookmarks, screenshots or a Referer. Links carry it in the fragment (`#token=…`), which
 * browsers never send to a server, so no access log keeps it; links mailed before carry `?token=…`, still
 * read. It is kept in this tab's session storage, so a reload of the page still works; `forget` drops it
 * once it is used.
 */
export function useLinkToken(page: '/reset-password' | '/verify-email' | '/undo-email-change') {
  // Read loosely: the route's own search validation already made `token` a string or undefined.
  const search: { token?: unknown } = useSearch({ strict: false });
  const key = `qr-link-token:${page}`;
  // The browser's own fragment, not the router's (which decodes it: a `%2B` would become a space).
  const fromFragment = tokenOfFragment(window.location.hash);
  const fromQuery = typeof search.token === 'string' && search.token !== '' ? search.token : undefined;
  const [token] = useState<string | undefined>(() => {
    const fromLink = fromFragment ?? fromQuery;
    if (fromLink) sessionStorage.setItem(key, fromLink);
    return fromLink ?? sessionStorage.getItem(key) ?? undefined;
  });
  const navigate = useNavigate();
  const inAddressBar = search.token !== undefined || fromFragment !== undefined;
  useEffect(() => {
    // A replace (history.replaceState): the address with the token leaves no history entry behind.
    // Without a hash given, the router drops the fragment too.
    if (inAddressBar) void navigate({ to: page, search: { token: undefined }, replace: true });
  }, [inAddressBar, navigate, page]);
  useEffect(() => {
    // A new link opened in this tab while the page shows (only its fragment differs): the browser does
    // not load the page again, so this does, to start over with the new token (kept first, as the
    // address may lose it before the reload).
    const onHashChange = () => {
      const next = tokenOfFragment(window.location.hash);
      if (!next) return;
      sessionStorage.setItem(key, next);
      window.location.reload();
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, [key]);
  return { token, forget: () => sessionStorage.removeItem(key) };
}
