import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';

/**
 * The token of a mailed link (`?token=…`), taken out of the address bar as soon as the page loads, so it
 * is not left in the history, bookmarks, screenshots or a Referer. It is kept in this tab's session
 * storage, so a reload of the page still works; `forget` drops it once it is used.
 */
export function useLinkToken(page: '/reset-password' | '/verify-email') {
  // Read loosely: the route's own search validation already made `token` a string or undefined.
  const search: { token?: unknown } = useSearch({ strict: false });
  const key = `qr-link-token:${page}`;
  const [token] = useState<string | undefined>(() => {
    const fromLink = typeof search.token === 'string' && search.token !== '' ? search.token : undefined;
    if (fromLink) sessionStorage.setItem(key, fromLink);
    return fromLink ?? sessionStorage.getItem(key) ?? undefined;
  });
  const navigate = useNavigate();
  const inAddressBar = search.token !== undefined;
  useEffect(() => {
    if (inAddressBar) void navigate({ to: page, search: { token: undefined }, replace: true });
  }, [inAddressBar, navigate, page]);
  return { token, forget: () => sessionStorage.removeItem(key) };
}
