import {
  IconBuildingCommunity,
  IconChartBar,
  IconCrown,
  IconLayoutDashboard,
  IconPlugConnected,
  IconQrcode,
  IconReceipt,
  IconSettings,
  IconShieldCog,
  IconSquarePlus,
  IconUser,
  IconUsers,
  IconUsersGroup,
  IconWorldWww,
  type Icon,
} from '@tabler/icons-react';

export interface NavItem {
  to: string;
  label: string;
  icon: Icon;
}

export const mainNav: NavItem[] = [
  { to: '/', label: 'Dashboard', icon: IconLayoutDashboard },
  { to: '/create', label: 'Create QR Code', icon: IconSquarePlus },
  { to: '/my-qr-codes', label: 'My QR Codes', icon: IconQrcode },
  { to: '/analytics', label: 'Analytics', icon: IconChartBar },
  { to: '/workspace', label: 'Team settings', icon: IconUsersGroup },
  { to: '/integrations', label: 'Integrations', icon: IconPlugConnected },
  { to: '/profile', label: 'Profile', icon: IconUser },
  { to: '/settings', label: 'Settings', icon: IconSettings },
];

export const upgradeNav: NavItem = { to: '/upgrade', label: 'Upgrade to Pro', icon: IconCrown };

export const adminNav: NavItem[] = [
  { to: '/admin', label: 'Admin Dashboard', icon: IconShieldCog },
  { to: '/admin/users', label: 'User Management', icon: IconUsers },
  { to: '/admin/workspaces', label: 'Workspaces', icon: IconBuildingCommunity },
  { to: '/admin/domains', label: 'Short domains', icon: IconWorldWww },
  { to: '/admin/subscriptions', label: 'Subscriptions', icon: IconReceipt },
];

/** Entries that create or change codes: not shown to a viewer of the current workspace. */
export const editorOnlyNav: readonly string[] = ['/create'];

/** Pages without an entry of their own, and the entry they belong to (the list they are reached from). */
const sectionOf: readonly (readonly [prefix: string, entry: string])[] = [
  ['/qr-details/', '/my-qr-codes'],
  ['/edit-qr/', '/my-qr-codes'],
  ['/scan-demo', '/my-qr-codes'],
  ['/import', '/my-qr-codes'],
];

/**
 * The one entry to light for a path: the most specific of the entries shown (an exact match, else the
 * longest entry the path lies under, so /admin/users lights User Management and not Admin Dashboard too).
 * Dashboard (/) lights on / only. Null when no entry shown stands for the page.
 */
export function activeNavPath(pathname: string, shown: readonly NavItem[]): string | null {
  const path = sectionOf.find(([prefix]) => pathname.startsWith(prefix))?.[1] ?? pathname;
  let best: string | null = null;
  for (const { to } of shown) {
    const under = to !== '/' && path.startsWith(`${to}/`);
    if ((path === to || under) && (best === null || to.length > best.length)) best = to;
  }
  return best;
}
