import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
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
  /** Translated where it is drawn (NavContent). */
  label: MessageDescriptor;
  icon: Icon;
}

export const mainNav: NavItem[] = [
  { to: '/', label: msg`Dashboard`, icon: IconLayoutDashboard },
  { to: '/create', label: msg`Create QR Code`, icon: IconSquarePlus },
  { to: '/my-qr-codes', label: msg`My QR Codes`, icon: IconQrcode },
  { to: '/analytics', label: msg`Analytics`, icon: IconChartBar },
  { to: '/workspace', label: msg`Team settings`, icon: IconUsersGroup },
  { to: '/integrations', label: msg`Integrations`, icon: IconPlugConnected },
  { to: '/profile', label: msg`Profile`, icon: IconUser },
  { to: '/settings', label: msg`Settings`, icon: IconSettings },
];

export const upgradeNav: NavItem = { to: '/upgrade', label: msg`Upgrade to Pro`, icon: IconCrown };

export const adminNav: NavItem[] = [
  { to: '/admin', label: msg`Admin Dashboard`, icon: IconShieldCog },
  { to: '/admin/users', label: msg`User Management`, icon: IconUsers },
  { to: '/admin/workspaces', label: msg`Workspaces`, icon: IconBuildingCommunity },
  { to: '/admin/domains', label: msg`Short domains`, icon: IconWorldWww },
  { to: '/admin/subscriptions', label: msg`Subscriptions`, icon: IconReceipt },
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
