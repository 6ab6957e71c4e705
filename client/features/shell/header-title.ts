/**
 * The name of the page at a path: the browser tab's title ('Dashboard · QR Creator'). The header shows the
 * product name on every page and each page names itself once, in its own heading, so no page says its
 * name twice.
 */
export function pageTitle(pathname: string): string {
  const exact: Record<string, string> = {
    '/': 'Dashboard',
    '/create': 'Create QR Code',
    '/my-qr-codes': 'My QR Codes',
    '/analytics': 'Analytics',
    '/settings': 'Settings',
    '/profile': 'Profile',
    '/upgrade': 'Upgrade',
    '/admin': 'Admin Dashboard',
    '/admin/users': 'User Management',
    '/admin/subscriptions': 'Subscriptions',
  };
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const title = exact[path];
  if (title) return title;
  if (path.startsWith('/edit-qr/')) return 'Edit QR Code';
  if (path.startsWith('/qr-details/')) return 'QR Code Details';
  if (path.startsWith('/scan-demo')) return 'QR Code Scanner';
  if (path.startsWith('/admin/')) return 'Admin';
  return 'QR Creator';
}

/** The tab title: the page's name, then the product's. */
export function documentTitle(pathname: string): string {
  const title = pageTitle(pathname);
  return title === 'QR Creator' ? title : `${title} · QR Creator`;
}
