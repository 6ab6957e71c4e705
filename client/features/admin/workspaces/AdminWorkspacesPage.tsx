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
import { formatDate } from '../../../lib/format';
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

const columns: { label: string; sortBy?: WorkspaceSortKey }[] = [
  { label: 'Name', sortBy: 'name' },
  { label: 'Owners' },
  { label: 'Members', sortBy: 'memberCount' },
  { label: 'QR Codes', sortBy: 'qrCodeCount' },
  { label: 'Plan' },
  { label: 'Status' },
  { label: 'Created', sortBy: 'createdAt' },
];

function SortableTh({
  list,
  column,
  children,
}: {
  list: WorkspaceList;
  column: WorkspaceSortKey;
  children: string;
}) {
  const active = list.sort === column;
  const Icon = active ? (list.order === 'asc' ? IconChevronUp : IconChevronDown) : IconSelector;
  return (
    <Table.Th aria-sort={active ? (list.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => list.sortBy(column)} aria-label={`Sort by ${children}`}>
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
  const { plan } = workspace;
  if (plan.tier === 'free' || !plan.status) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  const ended = plan.endDate !== null && new Date(plan.endDate).getTime() < now;
  return (
    <div>
      <Text size="sm">{ended ? 'ended' : plan.status}</Text>
      {plan.endDate && (
        <Text size="xs" c="dimmed" style={NO_WRAP}>
          {ended ? 'Ended' : 'Until'} {formatDate(plan.endDate)}
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
  const invalidate = useInvalidateAdminWorkspaces();
  const toggle = adminWorkspaceApi.workspaceToggleUnlimited.useMutation({
    onSuccess: async ({ message }) => {
      notify.success('Success', message);
      await invalidate();
    },
    onError: (e) => notify.error('Error', apiError(e, 'Failed to toggle unlimited access').message),
  });
  const paid = workspace.plan.tier !== 'free';
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Plan actions for ${workspace.name}`}
          loading={toggle.isPending}
        >
          <IconDots aria-hidden size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconArrowUp aria-hidden size={16} />} onClick={() => open('upgrade')}>
          Upgrade
        </Menu.Item>
        {paid && (
          <Menu.Item leftSection={<IconCalendarPlus aria-hidden size={16} />} onClick={() => open('extend')}>
            Extend
          </Menu.Item>
        )}
        <Menu.Item
          leftSection={<IconInfinity aria-hidden size={16} />}
          onClick={() => toggle.mutate({ id: workspace.id })}
        >
          {workspace.plan.hasUnlimitedAccess ? 'Remove unlimited access' : 'Grant unlimited access'}
        </Menu.Item>
        {paid && (
          <>
            <Menu.Divider />
            <Menu.Item
              color="orange"
              leftSection={<IconPlayerStop aria-hidden size={16} />}
              onClick={() => open('cancel-later')}
            >
              Cancel at period end
            </Menu.Item>
            <Menu.Item
              color="red"
              leftSection={<IconX aria-hidden size={16} />}
              onClick={() => open('cancel-now')}
            >
              Cancel immediately
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
      <Table.Td>{workspace.memberCount.toLocaleString()}</Table.Td>
      <Table.Td>{workspace.qrCodeCount.toLocaleString()}</Table.Td>
      <Table.Td style={NO_WRAP}>
        <Group gap={4} wrap="nowrap">
          <Badge miw="max-content" variant="light" color={workspace.plan.tier === 'free' ? 'gray' : 'violet'}>
            {plans[workspace.plan.tier].name}
          </Badge>
          {workspace.plan.hasUnlimitedAccess && (
            <Badge miw="max-content" variant="outline" color="teal">
              Unlimited
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
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const first = total === 0 ? 0 : (list.page - 1) * PAGE_SIZE + 1;
  const last = Math.min(total, list.page * PAGE_SIZE);
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Text size="sm" c="dimmed">
        {total === 0 ? 'No workspaces' : `${first}–${last} of ${total.toLocaleString()} workspaces`}
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
  const list = useWorkspaceList();
  const now = useNow(60_000);
  const [dialog, setDialog] = useState<{ workspace: AdminWorkspace; change: WorkspacePlanChange } | null>(
    null,
  );
  const data = list.query.data;
  const allColumns = columns.length + 1;

  return (
    <Stack gap="md">
      <div>
        <Title order={2}>Workspaces</Title>
        <Text c="dimmed" size="sm">
          Team workspaces, their owners, members, QR codes and plans. A person&apos;s own workspace is on
          Users and Subscriptions.
        </Text>
      </div>
      <TextInput
        label="Search workspaces"
        placeholder="Search by name or owner"
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
                      <SortableTh key={label} list={list} column={sortBy}>
                        {label}
                      </SortableTh>
                    ) : (
                      <Table.Th key={label}>{label}</Table.Th>
                    ),
                  )}
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
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
                        {list.searched
                          ? `No workspaces match “${list.searched}”.`
                          : 'No team workspaces yet: they appear here when a user creates one.'}
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
