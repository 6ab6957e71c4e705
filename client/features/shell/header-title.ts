import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';

const BRAND = 'QR Creator';

const DASHBOARD = msg`Dashboard`;
const CREATE = msg`Create QR Code`;
const MY_CODES = msg`My QR Codes`;
const IMPORT = msg`Import links`;
const ANALYTICS = msg`Analytics`;
const SETTINGS = msg`Settings`;
const INVITATIONS = msg`Invitations`;
const USERS = msg`User Management`;
const EDIT = msg`Edit QR Code`;
const SCANNER = msg`QR Code Scanner`;
const ADMIN = msg({ message: 'Admin', context: 'the administration pages' });

/** The header's title of each address that has one of its own. */
const HEADER_TITLES: Record<string, MessageDescriptor> = {
  '/': DASHBOARD,
  '/create': CREATE,
  '/my-qr-codes': MY_CODES,
  '/import': IMPORT,
  '/analytics': ANALYTICS,
  '/settings': SETTINGS,
  '/invitations': INVITATIONS,
  '/admin/users': USERS,
};

/** The tab's name of each address: the header's titles, and the pages that name themselves. */
const PAGE_TITLES: Record<string, MessageDescriptor> = {
  ...HEADER_TITLES,
  '/profile': msg`Profile`,
  '/upgrade': msg`Upgrade`,
  '/workspace': msg`Team Settings`,
  '/integrations': msg`Integrations`,
  '/admin': msg`Admin Dashboard`,
  '/admin/subscriptions': msg`Subscriptions`,
  '/admin/workspaces': msg`Workspaces`,
  '/admin/domains': msg`Short domains`,
};

/**
 * The header title of a route, exactly as the spec's app shell names it. It is the page's one h1: a page
 * whose name it is shows no heading of its own (so 'Dashboard' is said once), and a page it calls
 * 'QR Creator' or 'Admin' names itself in its own heading.
 */
export function headerTitle(pathname: string): string {
  const title = HEADER_TITLES[pathname];
  if (title) return t(title);
  if (pathname.startsWith('/edit-qr/')) return t(EDIT);
  if (pathname.startsWith('/scan-demo')) return t(SCANNER);
  if (pathname === '/admin' || pathname.startsWith('/admin/')) return t(ADMIN);
  return BRAND;
}

/** The name of the page at a path, for the browser tab's title ('Profile · QR Creator'). */
export function pageTitle(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const title = PAGE_TITLES[path];
  if (title) return t(title);
  if (path.startsWith('/edit-qr/')) return t(EDIT);
  if (path.startsWith('/qr-details/')) return t`QR Code Details`;
  if (path.startsWith('/scan-demo')) return t(SCANNER);
  if (path.startsWith('/admin/')) return t(ADMIN);
  return BRAND;
}

/** The tab title: the page's name, then the product's. */
export function documentTitle(pathname: string): string {
  const title = pageTitle(pathname);
  return title === BRAND ? title : `${title} · ${BRAND}`;
}
