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
import { askUrlOf, availableToText, caddyfileOf } from './domain-form';

const WRAP = { overflowWrap: 'anywhere' } as const;
const codeBlock = { ...WRAP, whiteSpace: 'pre-wrap', tabSize: 2 } as const;

type Dialog = { kind: 'form'; domain: ShortDomain | null } | { kind: 'delete'; domain: ShortDomain };

/** A URL cell: the address, or a dash and what happens instead. */
function UrlText({ url }: { url: string | null }) {
  if (!url) {
    return (
      <Text size="sm" c="dimmed">
        — <VisuallyHidden>none: a “not found” page</VisuallyHidden>
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
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={`Edit ${domain.hostname}`}
        onClick={() => open({ kind: 'form', domain })}
      >
        <IconPencil aria-hidden size={18} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={`Delete ${domain.hostname}`}
        onClick={() => open({ kind: 'delete', domain })}
      >
        <IconTrash aria-hidden size={18} />
      </ActionIcon>
    </Group>
  );
}

function DomainTable({ domains, open }: { domains: ShortDomain[]; open: (dialog: Dialog) => void }) {
  return (
    <Card withBorder radius="md" padding={0}>
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="sm" highlightOnHover aria-label="Short domains">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Domain</Table.Th>
              <Table.Th>Available to</Table.Th>
              <Table.Th>Codes</Table.Th>
              <Table.Th>Home page</Table.Th>
              <Table.Th>Unknown links</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
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
                  <Text size="sm">{availableToText(domain)}</Text>
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
  return (
    <Stack component="ul" gap="xs" p={0} m={0} aria-label="Short domains" style={{ listStyle: 'none' }}>
      {domains.map((domain) => (
        <Paper component="li" withBorder radius="sm" p="sm" key={domain.id}>
          <Text fw={600} style={WRAP}>
            {domain.hostname}
          </Text>
          <Text size="sm" mb={6}>
            {availableToText(domain)} · {formatCount(domain.codes)} {domain.codes === 1 ? 'code' : 'codes'}
          </Text>
          <Text size="xs" c="dimmed">
            Home page
          </Text>
          <UrlText url={domain.rootUrl} />
          <Text size="xs" c="dimmed" mt={4}>
            Unknown links
          </Text>
          <UrlText url={domain.notFoundUrl} />
          <Group justify="flex-end" gap="xs" mt="xs">
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconPencil aria-hidden size={14} />}
              aria-label={`Edit ${domain.hostname}`}
              onClick={() => open({ kind: 'form', domain })}
            >
              Edit
            </Button>
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              leftSection={<IconTrash aria-hidden size={14} />}
              aria-label={`Delete ${domain.hostname}`}
              onClick={() => open({ kind: 'delete', domain })}
            >
              Delete
            </Button>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

function AddButton({ onClick }: { onClick: () => void }) {
  return (
    <Button leftSection={<IconPlus aria-hidden size={16} />} onClick={onClick}>
      Add domain
    </Button>
  );
}

/** A block of text to paste elsewhere, with its copy button. */
function CopyBlock({ value, what, labelId }: { value: string; what: string; labelId?: string }) {
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
            aria-label={copied ? `Copied ${what}` : `Copy ${what}`}
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
  const origin = window.location.origin;
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={3} size="h4" mb="xs">
        Setting up a domain
      </Title>
      <List type="ordered" size="sm" spacing="xs" mb="md">
        <List.Item>Point the domain&apos;s DNS (an A, AAAA or CNAME record) at this server.</List.Item>
        <List.Item>
          Send its requests to the app with the <Code>Host</Code> header kept (Caddy does so by default).
        </List.Item>
        <List.Item>Add it here, and choose which workspaces may use it.</List.Item>
      </List>
      <Stack gap="xs">
        <Text size="sm" id="domains-ask-url">
          For certificates on demand with Caddy, its <Code>ask</Code> URL: it answers 200 for the domains this
          server answers for, 404 for any other. Caddy asks the app on its own port, as below.
        </Text>
        <CopyBlock value={askUrlOf(origin)} what="the ask URL" labelId="domains-ask-url" />
        <Text size="sm" id="domains-caddyfile">
          A Caddyfile that does it all (the app listening on port 3000 of the same machine):
        </Text>
        <CopyBlock value={caddyfileOf(origin)} what="the Caddyfile" labelId="domains-caddyfile" />
      </Stack>
    </Card>
  );
}

function ListSkeleton() {
  return (
    <Stack gap="xs" aria-busy="true" aria-label="Loading short domains">
      {Array.from({ length: 3 }, (_, i) => (
        <Skeleton key={i} h={44} radius="sm" />
      ))}
    </Stack>
  );
}

/** /admin/domains: the short domains codes' links may use, who may use each, and how to set one up. */
export function AdminDomainsPage() {
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
          <Title order={2}>Short domains</Title>
          <Text c="dimmed" size="sm">
            Short links on your own domain, such as go.example.com/menu. A dynamic code of a workspace that
            may use a domain can choose it for its short link.
          </Text>
        </div>
        {!empty && <AddButton onClick={add} />}
      </Group>
      {query.isError ? (
        <ErrorAlert>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{apiError(query.error, 'The short domains could not be loaded').message}</Text>
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              loading={query.isFetching}
              onClick={() => void query.refetch()}
            >
              Try again
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
            title="No short domains yet"
            description="Add a domain such as go.example.com, and the codes of the workspaces you choose can use it."
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
