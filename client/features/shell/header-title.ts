/**
 * The header title of a route, exactly as the spec's app shell names it. It is the page's one h1: a page
 * whose name it is shows no heading of its own (so 'Dashboard' is said once), and a page it calls
 * 'QR Creator' or 'Admin' names itself in its own heading.
 */
export function headerTitle(pathname: string): string {
  const exact: Record<string, string> = {
    '/': 'Dashboard',
    '/create': 'Create QR Code',
    '/my-qr-codes': 'My QR Codes',
    '/import': 'Import links',
    '/analytics': 'Analytics',
    '/settings': 'Settings',
    '/invitations': 'Invitations',
    '/admin/users': 'User Management',
  };
  const title = exact[pathname];
  if (title) return title;
  if (pathname.startsWith('/edit-qr/')) return 'Edit QR Code';
  if (pathname.startsWith('/scan-demo')) return 'QR Code Scanner';
  if (pathname === '/admin' || pathname.startsWith('/admin/')) return 'Admin';
  return 'QR Creator';
}

/** The name of the page at a path, for the browser tab's title ('Profile · QR Creator'). */
export function pageTitle(pathname: string): string {
  const exact: Record<string, string> = {
    '/': 'Dashboard',
    '/create': 'Create QR Code',
    '/my-qr-codes': 'My QR Codes',
    '/import': 'Import links',
    '/analytics': 'Analytics',
    '/settings': 'Settings',
    '/profile': 'Profile',
    '/upgrade': 'Upgrade',
    '/invitations': 'Invitations',
    '/workspace': 'Team Settings',
    '/integrations': 'Integrations',
    '/admin': 'Admin Dashboard',
    '/admin/users': 'User Management',
    '/admin/subscriptions': 'Subscriptions',
    '/admin/workspaces': 'Workspaces',
    '/admin/domains': 'Short domains',
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
