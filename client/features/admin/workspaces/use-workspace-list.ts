import { useLingui } from '@lingui/react/macro';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { apiError } from '../../../lib/trpc';
import { adminWorkspaceApi, type WorkspaceSortKey } from './admin-workspaces-api';

export const PAGE_SIZE = 25;

/** Search, sort and page of the admin's team workspaces, all done by the server (as the users' list). */
export function useWorkspaceList() {
  const { t } = useLingui();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [sort, setSort] = useState<WorkspaceSortKey>('createdAt');
  const [order, setOrder] = useState<'asc' | 'desc'>('desc');
  const [page, setPage] = useState(1);
  const query = adminWorkspaceApi.workspaces.useQuery(
    { search: debounced || undefined, sort, order, page, pageSize: PAGE_SIZE },
    { placeholderData: (previous) => previous },
  );
  return {
    query,
    error: query.error ? apiError(query.error, t`Failed to load workspaces`).message : null,
    search,
    setSearch: (value: string) => {
      setSearch(value);
      setPage(1);
    },
    sortBy: (key: WorkspaceSortKey) => {
      if (key === sort) setOrder(order === 'asc' ? 'desc' : 'asc');
      else {
        setSort(key);
        setOrder(key === 'name' ? 'asc' : 'desc');
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

export type WorkspaceList = ReturnType<typeof useWorkspaceList>;
