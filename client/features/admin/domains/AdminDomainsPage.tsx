import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  ActionIcon,
  Button,
  Card,
  Code,
  CopyButton,
  EmptyState,
  Group,
  List,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
  useMatches,
} from '@mantine/core';
import { IconCheck, IconCopy, IconPencil, IconPlus, IconTrash, IconWorldWww } from '@tabler/icons-react';
import { useState } from 'react';
import type { ShortDomain } from '../../../../src/qr/short-domain.schema';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatCount } from '../../../lib/format';
import { apiError, trpc } from '../../../lib/trpc';
import { DeleteDomainModal } from './DeleteDomainModal';
import { DomainFormModal } from './DomainFormModal';
import { askUrlOf, availableToText, caddyfileOf, type AvailableToWords } from './domain-form';

const WRAP = { overflowWrap: 'anywhere' } as const;
const codeBlock = { ...WRAP, whiteSpace: 'pre-wrap', tabSize: 2 } as const;

type Dialog = { kind: 'form'; domain: ShortDomain | null } | { kind: 'delete'; domain: ShortDomain };

/** 'All workspaces' and 'No workspace' in the user's language, for availableToText. */
function useAvailableToWords(): AvailableToWords {
  const { t } = useLingui();
  return { all: t`All workspaces`, none: t`No workspace` };
}

/** A URL cell: the address, or a dash and what happens instead. */
function UrlText({ url }: { url: string | null }) {
  if (!url) {
    return (
      <Text size="sm" c="dimmed">
        —{' '}
        <VisuallyHidden>
          <Trans>none: a “not found” page</Trans>
        </VisuallyHidden>
      </Text>
    );
  }
  return (
    <Text size="sm" style={WRAP}>
      {url}
    </Text>
  );
}

function RowActions({ domain, open }: { domain: ShortDomain; open: (dialog: Dialog) => void }) {
  const { t } = useLingui();
  const hostname = domain.hostname;
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={t`Edit ${hostname}`}
        onClick={() => open({ kind: 'form', domain })}
      >
        <IconPencil aria-hidden size={18} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={t`Delete ${hostname}`}
        onClick={() => open({ kind: 'delete', domain })}
      >
        <IconTrash aria-hidden size={18} />
      </ActionIcon>
    </Group>
  );
}

function DomainTable({ domains, open }: { domains: ShortDomain[]; open: (dialog: Dialog) => void }) {
  const { t } = useLingui();
  const words = useAvailableToWords();
  return (
    <Card withBorder radius="md" padding={0}>
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="sm" highlightOnHover aria-label={t`Short domains`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <Trans>Domain</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Available to</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Codes</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Home page</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Unknown links</Trans>
              </Table.Th>
              <Table.Th>
                <VisuallyHidden>
                  <Trans>Actions</Trans>
                </VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {domains.map((domain) => (
              <Table.Tr key={domain.id}>
                <Table.Td>
                  <Text size="sm" fw={600} style={WRAP}>
                    {domain.hostname}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{availableToText(domain, words)}</Text>
                </Table.Td>
                <Table.Td>{formatCount(domain.codes)}</Table.Td>
                <Table.Td>
                  <UrlText url={domain.rootUrl} />
                </Table.Td>
                <Table.Td>
                  <UrlText url={domain.notFoundUrl} />
                </Table.Td>
                <Table.Td>
                  <RowActions domain={domain} open={open} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

/** The list on a phone: a small card per domain, so nothing is cut off at 375 px. */
function DomainCards({ domains, open }: { domains: ShortDomain[]; open: (dialog: Dialog) => void }) {
  const { t } = useLingui();
  const words = useAvailableToWords();
  return (
    <Stack component="ul" gap="xs" p={0} m={0} aria-label={t`Short domains`} style={{ listStyle: 'none' }}>
      {domains.map((domain) => (
        <DomainCard key={domain.id} domain={domain} words={words} open={open} />
      ))}
    </Stack>
  );
}

function DomainCard({
  domain,
  words,
  open,
}: {
  domain: ShortDomain;
  words: AvailableToWords;
  open: (dialog: Dialog) => void;
}) {
  const { t } = useLingui();
  const hostname = domain.hostname;
  const count = domain.codes;
  return (
    <Paper component="li" withBorder radius="sm" p="sm">
      <Text fw={600} style={WRAP}>
        {domain.hostname}
      </Text>
      <Text size="sm" mb={6}>
        {availableToText(domain, words)} · {plural(count, { one: '# code', other: '# codes' })}
      </Text>
      <Text size="xs" c="dimmed">
        <Trans>Home page</Trans>
      </Text>
      <UrlText url={domain.rootUrl} />
      <Text size="xs" c="dimmed" mt={4}>
        <Trans>Unknown links</Trans>
      </Text>
      <UrlText url={domain.notFoundUrl} />
      <Group justify="flex-end" gap="xs" mt="xs">
        <Button
          size="compact-sm"
          variant="default"
          leftSection={<IconPencil aria-hidden size={14} />}
          aria-label={t`Edit ${hostname}`}
          onClick={() => open({ kind: 'form', domain })}
        >
          <Trans>Edit</Trans>
        </Button>
        <Button
          size="compact-sm"
          variant="light"
          color="red"
          leftSection={<IconTrash aria-hidden size={14} />}
          aria-label={t`Delete ${hostname}`}
          onClick={() => open({ kind: 'delete', domain })}
        >
          <Trans>Delete</Trans>
        </Button>
      </Group>
    </Paper>
  );
}

function AddButton({ onClick }: { onClick: () => void }) {
  return (
    <Button leftSection={<IconPlus aria-hidden size={16} />} onClick={onClick}>
      <Trans>Add domain</Trans>
    </Button>
  );
}

/** A block of text to paste elsewhere, with its copy button (named `copyLabel`, then `copiedLabel`). */
function CopyBlock({
  value,
  copyLabel,
  copiedLabel,
  labelId,
}: {
  value: string;
  copyLabel: string;
  copiedLabel: string;
  labelId?: string;
}) {
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <Code block style={{ ...codeBlock, flex: 1 }} aria-labelledby={labelId}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={copied ? copiedLabel : copyLabel}
            onClick={copy}
          >
            {copied ? <IconCheck aria-hidden size={16} /> : <IconCopy aria-hidden size={16} />}
          </ActionIcon>
        )}
      </CopyButton>
    </Group>
  );
}

/** How a domain is made to reach this server, and Caddy's certificates on demand. */
function SetUpCard() {
  const { t } = useLingui();
  const origin = window.location.origin;
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={3} size="h4" mb="xs">
        <Trans>Setting up a domain</Trans>
      </Title>
      <List type="ordered" size="sm" spacing="xs" mb="md">
        <List.Item>
          <Trans>Point the domain&apos;s DNS (an A, AAAA or CNAME record) at this server.</Trans>
        </List.Item>
        <List.Item>
          <Trans>
            Send its requests to the app with the <Code>Host</Code> header kept (Caddy does so by default).
          </Trans>
        </List.Item>
        <List.Item>
          <Trans>Add it here, and choose which workspaces may use it.</Trans>
        </List.Item>
      </List>
      <Stack gap="xs">
        <Text size="sm" id="domains-ask-url">
          <Trans>
            For certificates on demand with Caddy, its <Code>ask</Code> URL: it answers 200 for the domains
            this server answers for, 404 for any other. Caddy asks the app on its own port, as below.
          </Trans>
        </Text>
        <CopyBlock
          value={askUrlOf(origin)}
          copyLabel={t`Copy the ask URL`}
          copiedLabel={t`Copied the ask URL`}
          labelId="domains-ask-url"
        />
        <Text size="sm" id="domains-caddyfile">
          <Trans>A Caddyfile that does it all (the app listening on port 3000 of the same machine):</Trans>
        </Text>
        <CopyBlock
          value={caddyfileOf(origin)}
          copyLabel={t`Copy the Caddyfile`}
          copiedLabel={t`Copied the Caddyfile`}
          labelId="domains-caddyfile"
        />
      </Stack>
    </Card>
  );
}

function ListSkeleton() {
  const { t } = useLingui();
  return (
    <Stack gap="xs" aria-busy="true" aria-label={t`Loading short domains`}>
      {Array.from({ length: 3 }, (_, i) => (
        <Skeleton key={i} h={44} radius="sm" />
      ))}
    </Stack>
  );
}

/** /admin/domains: the short domains codes' links may use, who may use each, and how to set one up. */
export function AdminDomainsPage() {
  const { t } = useLingui();
  const query = trpc.admin.domains.useQuery();
  const stacked = useMatches({ base: true, sm: false });
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const domains = query.data?.items;
  const add = () => setDialog({ kind: 'form', domain: null });
  const empty = domains !== undefined && domains.length === 0;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div style={{ flex: '1 1 320px' }}>
          <Title order={2}>
            <Trans>Short domains</Trans>
          </Title>
          <Text c="dimmed" size="sm">
            <Trans>
              Short links on your own domain, such as go.example.com/menu. A dynamic code of a workspace that
              may use a domain can choose it for its short link.
            </Trans>
          </Text>
        </div>
        {!empty && <AddButton onClick={add} />}
      </Group>
      {query.isError ? (
        <ErrorAlert>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{apiError(query.error, t`The short domains could not be loaded`).message}</Text>
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              loading={query.isFetching}
              onClick={() => void query.refetch()}
            >
              <Trans>Try again</Trans>
            </Button>
          </Stack>
        </ErrorAlert>
      ) : !domains ? (
        <ListSkeleton />
      ) : empty ? (
        <Card withBorder radius="md" padding="lg">
          <EmptyState
            icon={<IconWorldWww size={28} stroke={1.5} aria-hidden />}
            withIndicatorBackground
            title={t`No short domains yet`}
            description={t`Add a domain such as go.example.com, and the codes of the workspaces you choose can use it.`}
            size="sm"
          >
            <EmptyState.Actions>
              <AddButton onClick={add} />
            </EmptyState.Actions>
          </EmptyState>
        </Card>
      ) : stacked ? (
        <DomainCards domains={domains} open={setDialog} />
      ) : (
        <DomainTable domains={domains} open={setDialog} />
      )}
      <SetUpCard />
      {dialog?.kind === 'form' && <DomainFormModal domain={dialog.domain} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'delete' && (
        <DeleteDomainModal domain={dialog.domain} onClose={() => setDialog(null)} />
      )}
    </Stack>
  );
}
