import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Divider, NavLink, ScrollArea, Stack, Text, VisuallyHidden } from '@mantine/core';
import { Link, useRouterState } from '@tanstack/react-router';
import type { User } from '../../../src/auth/auth.schema';
import { translateShared } from '../../i18n/shared-messages';
import { trpc } from '../../lib/trpc';
import { useCanEdit } from '../workspaces/use-current-workspace';
import { activeNavPath, adminNav, editorOnlyNav, mainNav, upgradeNav, type NavItem } from './nav-items';
import { useWorkspacePlan } from '../workspaces/use-workspace-plan';

function Entry({
  item,
  label,
  active,
  count,
  onNavigate,
}: {
  item: NavItem;
  /** The entry's name, translated. */
  label: string;
  active: boolean;
  /** Something waiting there (pending upgrade requests): a badge with the number. */
  count?: { value: number; label: string };
  onNavigate?: () => void;
}) {
  return (
    <NavLink
      component={Link}
      to={item.to}
      // The router marks a link it thinks active with aria-current itself: only on an exact match, so it
      // never lights a second entry (Admin Dashboard on /admin/users).
      activeOptions={{ exact: true }}
      label={label}
      leftSection={<item.icon size={18} stroke={1.6} aria-hidden />}
      rightSection={
        count && count.value > 0 ? (
          <Badge size="sm" circle={count.value < 10} color="red" variant="filled">
            {count.value}
            <VisuallyHidden>{` ${count.label}`}</VisuallyHidden>
          </Badge>
        ) : undefined
      }
      active={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
      variant="light"
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    />
  );
}

/** How many upgrade requests wait for an admin; looked at again every minute while the app is open. */
function usePendingRequests(admin: boolean): number {
  const notices = trpc.admin.notices.useQuery(undefined, { enabled: admin, refetchInterval: 60_000 });
  return notices.data?.pendingUpgradeRequests ?? 0;
}

/** Sidebar entries: the same list in the fixed sidebar and in the mobile drawer. */
export function NavContent({ user, onNavigate }: { user: User; onNavigate?: () => void }) {
  const { t } = useLingui();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // The current workspace's plan; the upgrade entry for its owners only.
  const { badge: plan, offer, owner } = useWorkspacePlan(user);
  const upgrade = offer ? upgradeNav : null;
  const pending = usePendingRequests(user.isAdmin);
  // A viewer of the current workspace is offered nothing that creates codes.
  const canEdit = useCanEdit();
  const main = canEdit ? mainNav : mainNav.filter((item) => !editorOnlyNav.includes(item.to));
  const shown = [...main, ...(upgrade ? [upgrade] : []), ...(user.isAdmin ? adminNav : [])];
  // Exactly one entry lit: the most specific one for this page.
  const active = activeNavPath(pathname, shown);
  const entry = (item: NavItem, count?: { value: number; label: string }) => (
    <Entry
      key={item.to}
      item={item}
      label={item === upgradeNav && offer ? translateShared(offer.label) : t(item.label)}
      active={item.to === active}
      count={count}
      onNavigate={onNavigate}
    />
  );
  // The plan's words are src/plans.ts's English, translated as shown.
  const badge = plan && translateShared(plan);
  return (
    <ScrollArea type="auto" style={{ flex: 1 }}>
      <Stack
        gap={4}
        p="sm"
        component="nav"
        aria-label={t({ message: 'Main', context: 'the main navigation' })}
      >
        {main.map((item) => entry(item))}
        {upgrade && entry(upgrade)}
        {user.isAdmin && (
          <>
            <Divider my="xs" />
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" id="admin-nav-heading">
              <Trans context="the administration pages">Admin</Trans>
            </Text>
            {adminNav.map((item) =>
              entry(
                item,
                item.to === '/admin/subscriptions'
                  ? {
                      value: pending,
                      label: plural(pending, {
                        one: 'pending upgrade request',
                        other: 'pending upgrade requests',
                      }),
                    }
                  : undefined,
              ),
            )}
          </>
        )}
        {/* The plan, linking to its page (the one way there for Premium) for an owner, except on that page. */}
        {plan &&
          (pathname === '/upgrade' || !owner ? (
            <Badge mt="sm" variant="light" color="grape" mx="sm">
              {badge}
            </Badge>
          ) : (
            <Badge
              mt="sm"
              variant="light"
              color="grape"
              mx="sm"
              component={Link}
              to="/upgrade"
              onClick={onNavigate}
              style={{ cursor: 'pointer' }}
            >
              {badge}
            </Badge>
          ))}
      </Stack>
    </ScrollArea>
  );
}
