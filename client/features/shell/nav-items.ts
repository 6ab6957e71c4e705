import {
  IconChartBar,
  IconCrown,
  IconLayoutDashboard,
  IconQrcode,
  IconReceipt,
  IconSettings,
  IconShieldCog,
  IconSquarePlus,
  IconUser,
  IconUsers,
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
  { to: '/profile', label: 'Profile', icon: IconUser },
  { to: '/settings', label: 'Settings', icon: IconSettings },
];

export const upgradeNav: NavItem = { to: '/upgrade', label: 'Upgrade to Pro', icon: IconCrown };

export const adminNav: NavItem[] = [
  { to: '/admin', label: 'Admin Dashboard', icon: IconShieldCog },
  { to: '/admin/users', label: 'User Management', icon: IconUsers },
  { to: '/admin/subscriptions', label: 'Subscriptions', icon: IconReceipt },
];

/** Exact match highlights an entry; admin entries are also highlighted on any sub-path. */
export function isActive(item: NavItem, pathname: string, admin: boolean): boolean {
  return pathname === item.to || (admin && pathname.startsWith(`${item.to}/`));
}
