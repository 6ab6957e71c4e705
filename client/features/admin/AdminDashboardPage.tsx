import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconArrowRight,
  IconChartHistogram,
  IconCreditCard,
  IconHistory,
  IconInbox,
  IconLayoutDashboard,
  IconMail,
  IconMailOff,
  IconSettings,
  IconUsers,
} from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { trpc } from '../../lib/trpc';
import { AuditLog } from './dashboard/AuditLog';
import { EmailManagement } from './dashboard/EmailManagement';
import { SystemAnalytics } from './dashboard/SystemAnalytics';
import { SystemSettings } from './dashboard/SystemSettings';

type Section = 'analytics' | 'email' | 'settings' | 'audit';

function Tile({
  icon,
  title,
  text,
  color,
  badge,
}: {
  icon: React.ReactNode;
  title: string;
  text: string;
  color: string;
  badge?: React.ReactNode;
}) {
  return (
    <Group wrap="nowrap" align="flex-start" gap="md">
      <ThemeIcon size={44} radius="md" variant="light" color={color}>
        {icon}
      </ThemeIcon>
      <div>
        <Group gap="xs" wrap="wrap">
          <Text fw={600}>{title}</Text>
          {badge}
        </Group>
        <Text size="sm" c="dimmed">
          {text}
        </Text>
      </div>
    </Group>
  );
}

/** /admin: the tiles, and the instance's figures, mail, settings and audit log below them. */
export function AdminDashboardPage() {
  const [section, setSection] = useState<Section>('analytics');
  const notices = trpc.admin.notices.useQuery(undefined, { refetchOnMount: 'always' }).data;
  const pending = notices?.pendingUpgradeRequests ?? 0;
  // Mail that could not be sent: said on the Email Management tile.
  const mailQueue = trpc.admin.mailQueue.useQuery(undefined, { refetchOnMount: 'always' }).data;
  const sections = useRef<HTMLDivElement>(null);
  const tabList = useRef<HTMLDivElement>(null);
  // On a phone the tab row scrolls sideways: bring the open tab into it.
  useEffect(() => {
    const list = tabList.current;
    const tab = list?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!list || !tab || list.scrollWidth <= list.clientWidth) return;
    const l = list.getBoundingClientRect();
    const t = tab.getBoundingClientRect();
    list.scrollLeft += t.left - l.left - (l.width - t.width) / 2;
  }, [section]);
  const open = (s: Section) => {
    setSection(s);
    sections.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };
  const sectionTile = (s: Section, tile: React.ReactNode) => (
    <Card
      withBorder
      radius="md"
      padding="lg"
      component="button"
      type="button"
      onClick={() => open(s)}
      ta="left"
    >
      {tile}
    </Card>
  );

  return (
    <Stack gap="lg">
      <div>
        <Title order={2}>Admin Dashboard</Title>
        <Text c="dimmed" size="sm">
          Users, plans and the instance at a glance.
        </Text>
      </div>
      {notices?.adminsWithEmail === 0 && (
        <Alert
          color="yellow"
          icon={<IconMailOff aria-hidden size={20} />}
          title="Nobody hears about requests"
        >
          No admin has an email address, so nobody is mailed about upgrade requests. Add one in{' '}
          <Anchor component={Link} to="/profile" inherit c="inherit" fw={700} underline="always">
            Profile
          </Anchor>
          .
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        <Card
          withBorder
          radius="md"
          padding="lg"
          component={Link}
          to="/admin/subscriptions"
          // The route declares no search params; the page reads ?show= itself (the mail links there too).
          search={{ show: 'requests' } as never}
          style={pending > 0 ? { borderColor: 'var(--mantine-color-yellow-6)' } : undefined}
        >
          <Tile
            icon={<IconInbox aria-hidden size={24} />}
            color={pending > 0 ? 'yellow' : 'gray'}
            title="Upgrade requests"
            badge={
              notices ? (
                <Badge color={pending > 0 ? 'yellow' : 'gray'} variant="light">
                  {pending} pending
                </Badge>
              ) : undefined
            }
            text={
              pending > 0
                ? 'Users wait for your answer: approve or decline.'
                : 'Nothing waits: requests from users show here.'
            }
          />
        </Card>
        <Card withBorder radius="md" padding="lg" component={Link} to="/admin/users">
          <Tile
            icon={<IconUsers aria-hidden size={24} />}
            color="blue"
            title="User Management"
            text="Create, edit and remove users; reset passwords."
          />
        </Card>
        <Card withBorder radius="md" padding="lg" component={Link} to="/admin/subscriptions">
          <Tile
            icon={<IconCreditCard aria-hidden size={24} />}
            color="violet"
            title="Subscription Management"
            text="Upgrade, extend and cancel plans; approve requests."
          />
        </Card>
        {sectionTile(
          'analytics',
          <Tile
            icon={<IconChartHistogram aria-hidden size={24} />}
            color="teal"
            title="System Analytics"
            text="Users, codes, scans and growth."
          />,
        )}
        {sectionTile(
          'email',
          <Tile
            icon={<IconMail aria-hidden size={24} />}
            color="orange"
            title="Email Management"
            text="Check the mail server, send a test, see recent and queued mail."
            badge={
              mailQueue && mailQueue.givenUp > 0 ? (
                <Badge color="red" variant="light">
                  {mailQueue.givenUp} given up
                </Badge>
              ) : mailQueue && mailQueue.waiting > 0 ? (
                <Badge color="yellow" variant="light">
                  {mailQueue.waiting} waiting
                </Badge>
              ) : undefined
            }
          />,
        )}
        {sectionTile(
          'settings',
          <Tile
            icon={<IconSettings aria-hidden size={24} />}
            color="gray"
            title="System Settings"
            text="Registration, e-mail verification, the free plan limit."
          />,
        )}
      </SimpleGrid>
      <Group gap="sm">
        <Button
          component={Link}
          to="/admin/users"
          variant="light"
          rightSection={<IconArrowRight aria-hidden size={16} />}
        >
          Manage users
        </Button>
        <Button
          component={Link}
          to="/"
          variant="default"
          leftSection={<IconLayoutDashboard aria-hidden size={16} />}
        >
          Main dashboard
        </Button>
      </Group>
      <div ref={sections} style={{ scrollMarginTop: 72 }}>
        <Tabs
          value={section}
          onChange={(v) => setSection((v as Section | null) ?? 'analytics')}
          keepMounted={false}
        >
          {/* One row that scrolls sideways on a phone rather than three wrapped rows. */}
          <Tabs.List
            ref={tabList}
            mb="md"
            style={{ flexWrap: 'nowrap', overflowX: 'auto', scrollbarWidth: 'none' }}
          >
            <Tabs.Tab value="analytics" leftSection={<IconChartHistogram aria-hidden size={16} />}>
              System Analytics
            </Tabs.Tab>
            <Tabs.Tab value="email" leftSection={<IconMail aria-hidden size={16} />}>
              Email Management
            </Tabs.Tab>
            <Tabs.Tab value="settings" leftSection={<IconSettings aria-hidden size={16} />}>
              System Settings
            </Tabs.Tab>
            <Tabs.Tab value="audit" leftSection={<IconHistory aria-hidden size={16} />}>
              Audit log
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="analytics">
            <SystemAnalytics />
          </Tabs.Panel>
          <Tabs.Panel value="email">
            <EmailManagement />
          </Tabs.Panel>
          <Tabs.Panel value="settings">
            <SystemSettings />
          </Tabs.Panel>
          <Tabs.Panel value="audit">
            <AuditLog />
          </Tabs.Panel>
        </Tabs>
      </div>
    </Stack>
  );
}
