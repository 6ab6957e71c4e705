import { Center, Group, Pagination, Skeleton, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp, IconSearch, IconSelector } from '@tabler/icons-react';
import { useState } from 'react';
import type { AdminUser, UserSortKey } from '../../../src/admin/admin.schema';
import { apiError, trpc } from '../../lib/trpc';

export const PAGE_SIZE = 25;

export type ListFilter = 'all' | 'paid' | 'requests';

/** Search, sort and page of an admin list, all done by the server (the list stays fast at 10,000 users). */
export function useUserList(kind: 'users' | 'subscriptions', filter: ListFilter = 'all') {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [sort, setSort] = useState<UserSortKey>('createdAt');
  const [order, setOrder] = useState<'asc' | 'desc'>('desc');
  const [page, setPage] = useState(1);
  const input = { search: debounced || undefined, sort, order, page, pageSize: PAGE_SIZE, filter };
  const query =
    kind === 'users'
      ? trpc.admin.users.useQuery(input, { placeholderData: (previous) => previous })
      : trpc.admin.subscriptions.useQuery(input, { placeholderData: (previous) => previous });
  return {
    query,
    error: query.error ? apiError(query.error, 'Failed to load users').message : null,
    search,
    setSearch: (value: string) => {
      setSearch(value);
      setPage(1);
    },
    sortBy: (key: UserSortKey) => {
      if (key === sort) setOrder(order === 'asc' ? 'desc' : 'asc');
      else {
        setSort(key);
        setOrder(key === 'createdAt' || key === 'qrCodeCount' ? 'desc' : 'asc');
      }
      setPage(1);
    },
    sort,
    order,
    page,
    setPage,
    searched: debounced,
  };
}

export type UserList = ReturnType<typeof useUserList>;

/** A column header that sorts the list on the server; says its order to screen readers. */
export function SortableTh({
  list,
  column,
  children,
}: {
  list: UserList;
  column: UserSortKey;
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

export function SearchBox({ list, label }: { list: UserList; label: string }) {
  return (
    <TextInput
      aria-label={label}
      placeholder="Search by username, name or e-mail"
      leftSection={<IconSearch aria-hidden size={16} />}
      value={list.search}
      onChange={(e) => list.setSearch(e.currentTarget.value)}
      w={{ base: '100%', sm: 340 }}
    />
  );
}

/** Skeleton rows while a page loads; the empty and paging rows under the table. */
export function LoadingRows({ columns }: { columns: number }) {
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

export function EmptyRow({ columns, list }: { columns: number; list: UserList }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={columns}>
        <Text c="dimmed" ta="center" py="lg">
          {list.searched ? `No users match “${list.searched}”.` : 'No users here.'}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

export function ListPager({ list, total }: { list: UserList; total: number }) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const first = total === 0 ? 0 : (list.page - 1) * PAGE_SIZE + 1;
  const last = Math.min(total, list.page * PAGE_SIZE);
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Text size="sm" c="dimmed">
        {total === 0 ? 'No users' : `${first}–${last} of ${total.toLocaleString()} users`}
      </Text>
      {pages > 1 && (
        <Center>
          <Pagination total={pages} value={list.page} onChange={list.setPage} size="sm" siblings={1} />
        </Center>
      )}
    </Group>
  );
}

/** 'Ada Lovelace' over 'ada · ada@example.com', the way both admin tables show a user. */
export function UserCell({ user }: { user: AdminUser }) {
  return (
    <div>
      <Text size="sm" fw={600}>
        {user.username}
      </Text>
      <Text size="xs" c="dimmed">
        {[user.name, user.email].filter(Boolean).join(' · ') || '—'}
      </Text>
    </div>
  );
}

export function statusLabel(status: string | null): string {
  return status === 'active' || status === 'canceled' ? status : 'N/A';
}
