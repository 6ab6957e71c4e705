import {
  Card,
  Center,
  Group,
  Pagination,
  Skeleton,
  Table,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { AdminUser, UserSortKey } from '../../../src/admin/admin.schema';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PAGE_SIZE, type UserList } from './user-list';

/** A column header that sorts the list on the server; says its order to screen readers. */
function SortableTh({ list, column, children }: { list: UserList; column: UserSortKey; children: string }) {
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

/** Skeleton rows while a page loads. */
function LoadingRows({ columns }: { columns: number }) {
  return (
    <>
      {Array.from({ length: 5 }, (_, i) => (
        <Table.Tr key={i} aria-hidden>
          <Table.Td colSpan={columns}>
            <Skeleton h={28} />
          </Table.Td>
        </Table.Tr>
      ))}
    </>
  );
}

function EmptyRow({ columns, list }: { columns: number; list: UserList }) {
  const { t } = useLingui();
  const searched = list.searched;
  return (
    <Table.Tr>
      <Table.Td colSpan={columns}>
        <Text c="dimmed" ta="center" py="lg">
          {searched ? t`No users match “${searched}”.` : t`No users here.`}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** Which users of how many are shown, and the pages, under the table. */
function ListPager({ list, total }: { list: UserList; total: number }) {
  const { t } = useLingui();
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const first = total === 0 ? 0 : (list.page - 1) * PAGE_SIZE + 1;
  const last = Math.min(total, list.page * PAGE_SIZE);
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Text size="sm" c="dimmed">
        {total === 0
          ? t`No users`
          : plural(total, { one: `${first}–${last} of # users`, other: `${first}–${last} of # users` })}
      </Text>
      {pages > 1 && (
        <Center>
          <Pagination total={pages} value={list.page} onChange={list.setPage} size="sm" siblings={1} />
        </Center>
      )}
    </Group>
  );
}

/** A column's header; with `sortBy`, a button that sorts the list by that key on the server. */
export interface UserColumn {
  label: string;
  sortBy?: UserSortKey;
}

export interface UserTableProps {
  /** The list the table shows (useUserList): its page of users, loading and error state, and paging. */
  list: UserList;
  /** Below this width (px) the table scrolls sideways rather than squeezing its columns. */
  minWidth: number;
  /** The columns' headers, without the last, visually hidden 'Actions' one. */
  columns: UserColumn[];
  /** A user's cells, one per column of `columns`. */
  cells: (user: AdminUser) => ReactNode;
  /** The last cell of a user's row: the menu of what an admin can do to the user. */
  actions: (user: AdminUser) => ReactNode;
}

/**
 * The table of both admin lists (/admin/users and /admin/subscriptions): the error instead of the table
 * when the list fails to load; headers, then skeleton rows while the first page loads, 'No users …' when
 * the page is empty, or a row per user ending in its actions; the count and pages under it.
 */
export function UserTable({ list, minWidth, columns, cells, actions }: UserTableProps) {
  const data = list.query.data;
  const allColumns = columns.length + 1;
  return (
    <>
      {list.error ? (
        <ErrorAlert>{list.error}</ErrorAlert>
      ) : (
        <Card withBorder radius="md" padding={0}>
          <Table.ScrollContainer minWidth={minWidth}>
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
                    <VisuallyHidden>
                      <Trans>Actions</Trans>
                    </VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {!data ? (
                  <LoadingRows columns={allColumns} />
                ) : data.rows.length === 0 ? (
                  <EmptyRow columns={allColumns} list={list} />
                ) : (
                  data.rows.map((user) => (
                    <Table.Tr key={user.id}>
                      {cells(user)}
                      <Table.Td>{actions(user)}</Table.Td>
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      {data && <ListPager list={list} total={data.total} />}
    </>
  );
}
