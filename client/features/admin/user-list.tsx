import { Badge, Group, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { t } from '@lingui/core/macro';
import { useLingui as useLocale } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { AdminUser, UserSortKey } from '../../../src/admin/admin.schema';
import type { PublicConfig } from '../../../src/auth/auth.schema';
import { plans } from '../../../src/plans';
import { translateShared } from '../../i18n/shared-messages';
import { apiError, trpc } from '../../lib/trpc';

export const PAGE_SIZE = 25;

export type ListFilter = 'all' | 'paid' | 'requests';

/** Search, sort and page of an admin list, all done by the server (the list stays fast at 10,000 users). */
export function useUserList(kind: 'users' | 'subscriptions', filter: ListFilter = 'all') {
  const { t } = useLingui();
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
    error: query.error ? apiError(query.error, t`Failed to load users`).message : null,
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

export function SearchBox({ list, label }: { list: UserList; label: string }) {
  const { t } = useLingui();
  return (
    <TextInput
      aria-label={label}
      placeholder={t`Search by username, name or e-mail`}
      leftSection={<IconSearch aria-hidden size={16} />}
      value={list.search}
      onChange={(e) => list.setSearch(e.currentTarget.value)}
      w={{ base: '100%', sm: 340 }}
    />
  );
}

/** A user's plan as a badge: grey for Free, violet for a paid plan. */
export function PlanBadge({ user }: { user: AdminUser }) {
  useLocale();
  return (
    <Badge miw="max-content" variant="light" color={user.subscriptionTier === 'free' ? 'gray' : 'violet'}>
      {translateShared(plans[user.subscriptionTier].name)}
    </Badge>
  );
}

/**
 * A sign-in method of `AdminUser.signInMethods` as the sign-in page names it, in the user's language
 * (called at render time: the global i18n is active by then).
 */
export function signInMethodName(method: string, sso: PublicConfig['sso'] | undefined): string {
  if (method === 'local') return t({ message: 'Password', comment: 'a way to sign in, on a small badge' });
  if (method === 'ldap') return sso?.ldap ?? t`Company directory`;
  if (method === 'proxy') return t`Sign-in proxy`;
  const id = method.replace(/^oidc:/, '');
  return sso?.providers.find((p) => p.id === id)?.name ?? id;
}

/** How the person signs in: a small badge per method (a password here, the directory, a provider). */
function SignInMethods({ methods }: { methods: string[] }) {
  // The badges' words follow the language: this re-renders when it changes.
  useLocale();
  const sso = trpc.auth.publicConfig.useQuery().data?.sso;
  if (methods.length === 0) return null;
  // Two identities of one kind (two proxy names, say) are one way in.
  const distinct = [...new Set(methods)];
  return (
    <Group gap={4} mt={4} wrap="wrap">
      <VisuallyHidden>
        <Trans>Signs in with</Trans>
      </VisuallyHidden>
      {distinct.map((method) => (
        <Badge key={method} size="xs" variant="outline" color="gray" miw="max-content" tt="none">
          {signInMethodName(method, sso)}
        </Badge>
      ))}
    </Group>
  );
}

/**
 * 'Ada Lovelace' over 'ada · ada@example.com', the way both admin tables show a user, and how they sign
 * in under it (under the name, not a column of its own: it stays in view on a phone's narrow table).
 */
export function UserCell({ user }: { user: AdminUser }) {
  return (
    <div>
      <Text size="sm" fw={600}>
        {user.username}
      </Text>
      <Text size="xs" c="dimmed">
        {[user.name, user.email].filter(Boolean).join(' · ') || '—'}
      </Text>
      <SignInMethods methods={user.signInMethods} />
    </div>
  );
}

/** A subscription's status ('active', 'canceled') in the user's language; 'N/A' without one. At render time. */
export function statusLabel(status: string | null): string {
  if (status === 'active') return t({ message: 'active', context: 'subscription status' });
  if (status === 'canceled') return t({ message: 'canceled', context: 'subscription status' });
  return t({ message: 'N/A', context: 'no subscription status' });
}
