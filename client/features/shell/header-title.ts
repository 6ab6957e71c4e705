/** The header title of a route, as the app shell shows it. */
export function headerTitle(pathname: string): string {
  const exact: Record<string, string> = {
    '/': 'Dashboard',
    '/create': 'Create QR Code',
    '/my-qr-codes': 'My QR Codes',
    '/analytics': 'Analytics',
    '/settings': 'Settings',
    '/admin/users': 'User Management',
  };
  const title = exact[pathname];
  if (title) return title;
  if (pathname.startsWith('/edit-qr/')) return 'Edit QR Code';
  if (pathname.startsWith('/scan-demo')) return 'QR Code Scanner';
  if (pathname === '/admin' || pathname.startsWith('/admin/')) return 'Admin';
  return 'QR Creator';
}
