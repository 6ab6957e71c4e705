import { msg, plural } from '@lingui/core/macro';
import { useLingui as useLocale } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import {
  ActionIcon,
  Badge,
  Card,
  Center,
  Group,
  Menu,
  Pagination,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconArrowUp,
  IconCalendarPlus,
  IconChevronDown,
  IconChevronUp,
  IconDots,
  IconInfinity,
  IconPlayerStop,
  IconSearch,
  IconSelector,
  IconX,
} from '@tabler/icons-react';
import { useState } from 'react';
import { plans } from '../../../../src/plans';
import type { AdminWorkspace } from '../../../../src/workspaces/workspace.schema';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatCount, formatDate } from '../../../lib/format';
import { translateShared } from '../../../i18n/shared-messages';
import { notify } from '../../../lib/notify';
import { apiError } from '../../../lib/trpc';
import { useNow } from '../../../lib/use-now';
import {
  adminWorkspaceApi,
  useInvalidateAdminWorkspaces,
  type WorkspaceSortKey,
} from './admin-workspaces-api';
import { PAGE_SIZE, useWorkspaceList, type WorkspaceList } from './use-workspace-list';
import { WorkspacePlanModal, type WorkspacePlanChange } from './WorkspacePlanModal';

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

const columns: { label: MessageDescriptor; sortBy?: WorkspaceSortKey }[] = [
  { label: msg`Name`, sortBy: 'name' },
  { label: msg`Owners` },
  { label: msg`Members`, sortBy: 'memberCount' },
  { label: msg`QR Codes`, sortBy: 'qrCodeCount' },
  { label: msg`Plan` },
  { label: msg`Status` },
  {
    label: msg({ message: 'Created', context: 'column: date the workspace was created' }),
    sortBy: 'createdAt',
  },
];

/** A plan's status in words: the server's 'active' and 'canceled', and 'ended' once its end date passed. */
const planStatusLabels: Record<string, MessageDescriptor> = {
  active: msg({ message: 'active', context: 'subscription status' }),
  canceled: msg({ message: 'canceled', context: 'subscription status' }),
  ended: msg({ message: 'ended', context: 'subscription status' }),
};

function SortableTh({
  list,
  column,
  children,
}: {
  list: WorkspaceList;
  column: WorkspaceSortKey;
  children: string;
}) {
  const { t } = useLingui();
  const label = children;
  const active = list.sort === column;
  const Icon = active ? (list.order === 'asc' ? IconChevronUp : IconChevronDown) : IconSelector;
  return (
    <Table.Th aria-sort={active ? (list.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => list.sortBy(column)} aria-label={t`Sort by ${label}`}>
        <Group gap={4} wrap="nowrap">
          <Text fw={600} size="sm">
            {children}
          </Text>
          <Icon aria-hidden size={14} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/** 'active' until the end date, then 'ended'; 'canceled' as the server says; '—' on Free. */
function PlanStatus({ workspace, now }: { workspace: AdminWorkspace; now: number }) {
  const { t } = useLingui();
  const { plan } = workspace;
  if (plan.tier === 'free' || !plan.status) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  const ended = plan.endDate !== null && new Date(plan.endDate).getTime() < now;
  const status = ended ? 'ended' : plan.status;
  const statusLabel = planStatusLabels[status];
  const date = plan.endDate ? formatDate(plan.endDate) : '';
  return (
    <div>
      <Text size="sm">{statusLabel ? t(statusLabel) : status}</Text>
      {plan.endDate && (
        <Text size="xs" c="dimmed" style={NO_WRAP}>
          {ended ? t`Ended ${date}` : t`Until ${date}`}
        </Text>
      )}
    </div>
  );
}

function RowActions({
  workspace,
  open,
}: {
  workspace: AdminWorkspace;
  open: (change: WorkspacePlanChange) => void;
}) {
  const { t } = useLingui();
  const name = workspace.name;
  const invalidate = useInvalidateAdminWorkspaces();
  const toggle = adminWorkspaceApi.workspaceToggleUnlimited.useMutation({
    onSuccess: async ({ message }) => {
      notify.success(t`Success`, translateShared(message));
      await invalidate();
    },
    onError: (e) => notify.error(t`Error`, apiError(e, t`Failed to toggle unlimited access`).message),
  });
  const paid = workspace.plan.tier !== 'free';
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={t`Plan actions for ${name}`}
          loading={toggle.isPending}
        >
          <IconDots aria-hidden size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconArrowUp aria-hidden size={16} />} onClick={() => open('upgrade')}>
          <Trans context="menu: upgrade the plan">Upgrade</Trans>
        </Menu.Item>
        {paid && (
          <Menu.Item leftSection={<IconCalendarPlus aria-hidden size={16} />} onClick={() => open('extend')}>
            <Trans context="menu: extend the plan">Extend</Trans>
          </Menu.Item>
        )}
        <Menu.Item
          leftSection={<IconInfinity aria-hidden size={16} />}
          onClick={() => toggle.mutate({ id: workspace.id })}
        >
          {workspace.plan.hasUnlimitedAccess ? t`Remove unlimited access` : t`Grant unlimited access`}
        </Menu.Item>
        {paid && (
          <>
            <Menu.Divider />
            <Menu.Item
              color="orange"
              leftSection={<IconPlayerStop aria-hidden size={16} />}
              onClick={() => open('cancel-later')}
            >
              <Trans>Cancel at period end</Trans>
            </Menu.Item>
            <Menu.Item
              color="red"
              leftSection={<IconX aria-hidden size={16} />}
              onClick={() => open('cancel-now')}
            >
              <Trans>Cancel immediately</Trans>
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

function WorkspaceRow({
  workspace,
  now,
  open,
}: {
  workspace: AdminWorkspace;
  now: number;
  open: (change: WorkspacePlanChange) => void;
}) {
  useLocale();
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={600}>
          {workspace.name}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{workspace.owners.length > 0 ? workspace.owners.join(', ') : '—'}</Text>
      </Table.Td>
      <Table.Td>{formatCount(workspace.memberCount)}</Table.Td>
      <Table.Td>{formatCount(workspace.qrCodeCount)}</Table.Td>
      <Table.Td style={NO_WRAP}>
        <Group gap={4} wrap="nowrap">
          <Badge miw="max-content" variant="light" color={workspace.plan.tier === 'free' ? 'gray' : 'violet'}>
            {translateShared(plans[workspace.plan.tier].name)}
          </Badge>
          {workspace.plan.hasUnlimitedAccess && (
            <Badge miw="max-content" variant="outline" color="teal">
              <Trans>Unlimited</Trans>
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>
        <PlanStatus workspace={workspace} now={now} />
      </Table.Td>
      <Table.Td style={NO_WRAP}>{formatDate(workspace.createdAt)}</Table.Td>
      <Table.Td>
        <RowActions workspace={workspace} open={open} />
      </Table.Td>
    </Table.Tr>
  );
}

function ListPager({ list, total }: { list: WorkspaceList; total: number }) {
  const { t } = useLingui();
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const first = total === 0 ? 0 : (list.page - 1) * PAGE_SIZE + 1;
  const last = Math.min(total, list.page * PAGE_SIZE);
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Text size="sm" c="dimmed">
        {total === 0
          ? t`No workspaces`
          : plural(total, {
              one: `${first}–${last} of # workspaces`,
              other: `${first}–${last} of # workspaces`,
            })}
      </Text>
      {pages > 1 && (
        <Center>
          <Pagination total={pages} value={list.page} onChange={list.setPage} size="sm" siblings={1} />
        </Center>
      )}
    </Group>
  );
}

/** /admin/workspaces: every team workspace with its owners, members, codes and plan; searched and paged. */
export function AdminWorkspacesPage() {
  const { t } = useLingui();
  const list = useWorkspaceList();
  const now = useNow(60_000);
  const [dialog, setDialog] = useState<{ workspace: AdminWorkspace; change: WorkspacePlanChange } | null>(
    null,
  );
  const data = list.query.data;
  const allColumns = columns.length + 1;
  const searched = list.searched;

  return (
    <Stack gap="md">
      <div>
        <Title order={2}>
          <Trans>Workspaces</Trans>
        </Title>
        <Text c="dimmed" size="sm">
          <Trans>
            Team workspaces, their owners, members, QR codes and plans. A person&apos;s own workspace is on
            Users and Subscriptions.
          </Trans>
        </Text>
      </div>
      <TextInput
        label={t`Search workspaces`}
        placeholder={t`Search by name or owner`}
        leftSection={<IconSearch aria-hidden size={16} />}
        value={list.search}
        onChange={(e) => list.setSearch(e.currentTarget.value)}
        w={{ base: '100%', sm: 340 }}
      />
      {list.error ? (
        <ErrorAlert>{list.error}</ErrorAlert>
      ) : (
        <Card withBorder radius="md" padding={0}>
          <Table.ScrollContainer minWidth={900}>
            <Table verticalSpacing="sm" highlightOnHover aria-busy={list.query.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  {columns.map(({ label, sortBy }) =>
                    sortBy ? (
                      <SortableTh key={label.id} list={list} column={sortBy}>
                        {t(label)}
                      </SortableTh>
                    ) : (
                      <Table.Th key={label.id}>{t(label)}</Table.Th>
                    ),
                  )}
                  <Table.Th>
                    <VisuallyHidden>
                      <Trans>Actions</Trans>
                    </VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {!data ? (
                  Array.from({ length: 5 }, (_, i) => (
                    <Table.Tr key={i} aria-hidden>
                      <Table.Td colSpan={allColumns}>
                        <Skeleton h={28} />
                      </Table.Td>
                    </Table.Tr>
                  ))
                ) : data.rows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={allColumns}>
                      <Text c="dimmed" ta="center" py="lg">
                        {searched
                          ? t`No workspaces match “${searched}”.`
                          : t`No team workspaces yet: they appear here when a user creates one.`}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  data.rows.map((workspace) => (
                    <WorkspaceRow
                      key={workspace.id}
                      workspace={workspace}
                      now={now}
                      open={(change) => setDialog({ workspace, change })}
                    />
                  ))
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      {data && <ListPager list={list} total={data.total} />}
      {dialog && (
        <WorkspacePlanModal
          workspace={dialog.workspace}
          change={dialog.change}
          onClose={() => setDialog(null)}
        />
      )}
    </Stack>
  );
}
