import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  const [section, setSection] = useState<Section>('analytics');
  const notices = trpc.admin.notices.useQuery(undefined, { refetchOnMount: 'always' }).data;
  const pending = notices?.pendingUpgradeRequests ?? 0;
  // Mail that could not be sent: said on the Email Management tile.
  const mailQueue = trpc.admin.mailQueue.useQuery(undefined, { refetchOnMount: 'always' }).data;
  const givenUp = mailQueue?.givenUp ?? 0;
  const waiting = mailQueue?.waiting ?? 0;
  const sections = useRef<HTMLDivElement>(null);
  const tabList = useRef<HTMLDivElement>(null);
  // On a phone the tab row scrolls sideways: bring the open tab into it.
  useEffect(() => {
    const list = tabList.current;
    const tab = list?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!list || !tab || list.scrollWidth <= list.clientWidth) return;
    const l = list.getBoundingClientRect();
    const box = tab.getBoundingClientRect();
    list.scrollLeft += box.left - l.left - (l.width - box.width) / 2;
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
        <Title order={2}>
          <Trans>Admin Dashboard</Trans>
        </Title>
        <Text c="dimmed" size="sm">
          <Trans>Users, plans and the instance at a glance.</Trans>
        </Text>
      </div>
      {notices?.adminsWithEmail === 0 && (
        <Alert
          color="yellow"
          icon={<IconMailOff aria-hidden size={20} />}
          title={t`Nobody hears about requests`}
        >
          <Trans>
            No admin has an email address, so nobody is mailed about upgrade requests. Add one in{' '}
            <Anchor component={Link} to="/profile" inherit c="inherit" fw={700} underline="always">
              Profile
            </Anchor>
            .
          </Trans>
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
            title={t`Upgrade requests`}
            badge={
              notices ? (
                <Badge color={pending > 0 ? 'yellow' : 'gray'} variant="light">
                  {plural(pending, { one: '# pending', other: '# pending' })}
                </Badge>
              ) : undefined
            }
            text={
              pending > 0
                ? t`Users wait for your answer: approve or decline.`
                : t`Nothing waits: requests from users show here.`
            }
          />
        </Card>
        <Card withBorder radius="md" padding="lg" component={Link} to="/admin/users">
          <Tile
            icon={<IconUsers aria-hidden size={24} />}
            color="blue"
            title={t`User Management`}
            text={t`Create, edit and remove users; reset passwords.`}
          />
        </Card>
        <Card withBorder radius="md" padding="lg" component={Link} to="/admin/subscriptions">
          <Tile
            icon={<IconCreditCard aria-hidden size={24} />}
            color="violet"
            title={t`Subscription Management`}
            text={t`Upgrade, extend and cancel plans; approve requests.`}
          />
        </Card>
        {sectionTile(
          'analytics',
          <Tile
            icon={<IconChartHistogram aria-hidden size={24} />}
            color="teal"
            title={t`System Analytics`}
            text={t`Users, codes, scans and growth.`}
          />,
        )}
        {sectionTile(
          'email',
          <Tile
            icon={<IconMail aria-hidden size={24} />}
            color="orange"
            title={t`Email Management`}
            text={t`Check the mail server, send a test, see recent and queued mail.`}
            badge={
              mailQueue && mailQueue.givenUp > 0 ? (
                <Badge color="red" variant="light">
                  {plural(givenUp, { one: '# given up', other: '# given up' })}
                </Badge>
              ) : mailQueue && mailQueue.waiting > 0 ? (
                <Badge color="yellow" variant="light">
                  {plural(waiting, { one: '# waiting', other: '# waiting' })}
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
            title={t`System Settings`}
            text={t`Registration, e-mail verification, the free plan limit.`}
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
          <Trans>Manage users</Trans>
        </Button>
        <Button
          component={Link}
          to="/"
          variant="default"
          leftSection={<IconLayoutDashboard aria-hidden size={16} />}
        >
          <Trans>Main dashboard</Trans>
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
              <Trans>System Analytics</Trans>
            </Tabs.Tab>
            <Tabs.Tab value="email" leftSection={<IconMail aria-hidden size={16} />}>
              <Trans>Email Management</Trans>
            </Tabs.Tab>
            <Tabs.Tab value="settings" leftSection={<IconSettings aria-hidden size={16} />}>
              <Trans>System Settings</Trans>
            </Tabs.Tab>
            <Tabs.Tab value="audit" leftSection={<IconHistory aria-hidden size={16} />}>
              <Trans>Audit log</Trans>
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
