import { Badge, Divider, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { Link, useRouterState } from '@tanstack/react-router';
import type { User } from '../../../src/auth/auth.schema';
import { currentPlanLabel, upgradeOffer } from '../../../src/plans';
import { adminNav, isActive, mainNav, upgradeNav, type NavItem } from './nav-items';

function Entry({
  item,
  pathname,
  admin,
  onNavigate,
}: {
  item: NavItem;
  pathname: string;
  admin: boolean;
  onNavigate?: () => void;
}) {
  const active = isActive(item, pathname, admin);
  return (
    <NavLink
      component={Link}
      to={item.to}
      label={item.label}
      leftSection={<item.icon size={18} stroke={1.6} aria-hidden />}
      active={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
      variant="light"
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    />
  );
}

/** Sidebar entries: the same list in the fixed sidebar and in the mobile drawer. */
export function NavContent({ user, onNavigate }: { user: User; onNavigate?: () => void }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const now = new Date();
  const offer = upgradeOffer(user, now);
  const plan = currentPlanLabel(user, now);
  return (
    <ScrollArea type="auto" style={{ flex: 1 }}>
      <Stack gap={4} p="sm" component="nav" aria-label="Main">
        {mainNav.map((item) => (
          <Entry key={item.to} item={item} pathname={pathname} admin={false} onNavigate={onNavigate} />
        ))}
        {offer && (
          <Entry
            item={{ ...upgradeNav, label: offer.label }}
            pathname={pathname}
            admin={false}
            onNavigate={onNavigate}
          />
        )}
        {user.isAdmin && (
          <>
            <Divider my="xs" />
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" id="admin-nav-heading">
              Admin
            </Text>
            {adminNav.map((item) => (
              <Entry key={item.to} item={item} pathname={pathname} admin onNavigate={onNavigate} />
            ))}
          </>
        )}
        {plan && plan !== 'Free plan' && (
          <Badge mt="sm" variant="light" color="grape" mx="sm">
            {plan}
          </Badge>
        )}
      </Stack>
    </ScrollArea>
  );
}
