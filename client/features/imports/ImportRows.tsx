import { Badge, Card, Paper, Select, Stack, Table, Text, TextInput, useMatches } from '@mantine/core';
import type { ImportLink } from '../../../src/imports/import.schema';
import { normalizeSlug } from '../../../src/qr/slug';
import { formatCount } from '../../lib/format';
import { actionLabels, allowedActions, isDone, type Decision, type DecidedLink } from './import-decisions';
import classes from './imports.module.css';

const WRAP = { overflowWrap: 'anywhere' } as const;

const resultLabels = {
  created: ['Created', 'teal'],
  overwritten: ['Overwritten', 'blue'],
  skipped: ['Skipped', 'gray'],
  failed: ['Failed', 'red'],
} as const;

/** What a row's controls need: its decision, a rename's problem, and how to change them. */
export interface RowControls {
  decisionOf: (link: DecidedLink) => Decision;
  problemOf: (link: DecidedLink, slug: string) => string | null;
  onChange: (link: DecidedLink, decision: Decision) => void;
  /** The back-half offered when Rename is picked. */
  suggest: (link: DecidedLink) => string;
  /** The start of the links made (`go.example.com/`), shown before a rename's field. */
  prefix: string;
  disabled: boolean;
}

/** A row's status: Ready, its conflict in words, or what became of it. */
function Status({ link }: { link: ImportLink }) {
  if (link.result) {
    const [label, color] = resultLabels[link.result.status];
    return (
      <Stack gap={2} align="flex-start">
        <Badge variant="light" color={color} data-status={link.result.status}>
          {label}
        </Badge>
        {link.result.status === 'failed' && link.result.message && (
          <Text size="xs" c="red" style={WRAP}>
            {link.result.message}
          </Text>
        )}
        {link.result.shortUrl && (
          <Text size="xs" c="dimmed" style={WRAP}>
            {link.result.shortUrl.replace(/^https?:\/\//, '')}
          </Text>
        )}
      </Stack>
    );
  }
  if (link.conflict) {
    return (
      <Badge
        variant="light"
        color="orange"
        classNames={{ root: classes.messageBadge, label: classes.messageBadgeLabel }}
        data-conflict={link.conflict.kind}
      >
        {link.conflict.message}
      </Badge>
    );
  }
  return (
    <Badge variant="light" color="teal" data-status="ready">
      Ready
    </Badge>
  );
}

/** The Decision select of a row, and a rename's field with its live check. */
function DecisionControls({
  link,
  name,
  controls,
}: {
  link: ImportLink;
  name: string;
  controls: RowControls;
}) {
  if (isDone(link)) {
    return (
      <Text size="sm" c="dimmed">
        Done
      </Text>
    );
  }
  const decision = controls.decisionOf(link);
  const actions = allowedActions(link);
  const slug = decision.slug ?? '';
  return (
    <Stack gap={6}>
      <Select
        aria-label={`Decision for ${name}`}
        data={actions.map((a) => ({ value: a, label: actionLabels[a] }))}
        value={decision.action}
        onChange={(value) => {
          const action = actions.find((a) => a === value);
          if (!action) return;
          const renameSlug = action === 'rename' && !decision.slug ? controls.suggest(link) : decision.slug;
          controls.onChange(link, { action, ...(renameSlug !== undefined ? { slug: renameSlug } : {}) });
        }}
        allowDeselect={false}
        disabled={controls.disabled}
        size="sm"
        comboboxProps={{ withinPortal: true }}
      />
      {decision.action === 'rename' && (
        <TextInput
          aria-label={`New short link for ${name}`}
          size="sm"
          value={slug}
          onChange={(e) => controls.onChange(link, { action: 'rename', slug: e.currentTarget.value })}
          error={controls.problemOf(link, slug)}
          description={`${controls.prefix}${normalizeSlug(slug)}`}
          inputWrapperOrder={['input', 'error', 'description']}
          disabled={controls.disabled}
          autoComplete="off"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
        />
      )}
      {decision.action === 'overwrite' && link.conflict?.kind === 'yours' && (
        <Text size="xs" c="dimmed">
          That code sends to this destination from now on; the visits are added to it.
        </Text>
      )}
    </Stack>
  );
}

/** What names a row in its controls' labels: its back-half, with its row when another has the same. */
function namesOf(links: readonly ImportLink[], all: readonly ImportLink[]): Map<number, string> {
  const seen = new Map<string, number>();
  for (const link of all) seen.set(link.slug, (seen.get(link.slug) ?? 0) + 1);
  return new Map(
    links.map((link) => [
      link.row,
      (seen.get(link.slug) ?? 0) > 1 ? `${link.slug} (row ${link.row + 1})` : link.slug,
    ]),
  );
}

function Visits({ link }: { link: ImportLink }) {
  return link.visits === null ? (
    <Text size="sm" c="dimmed">
      —
    </Text>
  ) : (
    <Text size="sm">{formatCount(link.visits)}</Text>
  );
}

/**
 * A page of the import's links: a table on a wide screen, a card a link on a phone (nothing wider than
 * the screen at 375 px).
 */
export function ImportRows({
  links,
  all,
  controls,
}: {
  links: readonly ImportLink[];
  all: readonly ImportLink[];
  controls: RowControls;
}) {
  const stacked = useMatches({ base: true, md: false });
  const names = namesOf(links, all);

  if (stacked) {
    return (
      <Stack component="ul" gap="xs" p={0} m={0} aria-label="Links to import" style={{ listStyle: 'none' }}>
        {links.map((link) => (
          <Paper component="li" withBorder radius="sm" p="sm" key={link.row} data-row={link.row}>
            <Stack gap={6}>
              <div>
                <Text fw={600} style={WRAP}>
                  {link.slug}
                </Text>
                {link.sourceDomain && (
                  <Text size="xs" c="dimmed" style={WRAP}>
                    {link.sourceDomain}
                  </Text>
                )}
              </div>
              <Text size="sm" lineClamp={2} title={link.destination} style={WRAP}>
                {link.destination}
              </Text>
              <Text size="xs" c="dimmed">
                {link.visits === null ? 'Visits not known' : `${formatCount(link.visits)} visits`}
              </Text>
              <Status link={link} />
              <DecisionControls link={link} name={names.get(link.row)!} controls={controls} />
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  }

  return (
    <Card withBorder radius="md" padding={0}>
      <Table verticalSpacing="sm" aria-label="Links to import" layout="fixed" className={classes.table}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="20%">Short link</Table.Th>
            <Table.Th>Destination</Table.Th>
            <Table.Th w={80} ta="right">
              Visits
            </Table.Th>
            <Table.Th w="22%">Status</Table.Th>
            <Table.Th w={200}>Decision</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {links.map((link) => (
            <Table.Tr key={link.row} data-row={link.row}>
              <Table.Td>
                <Text size="sm" fw={600} style={WRAP}>
                  {link.slug}
                </Text>
                {link.sourceDomain && (
                  <Text size="xs" c="dimmed" style={WRAP}>
                    {link.sourceDomain}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm" truncate="end" title={link.destination}>
                  {link.destination}
                </Text>
              </Table.Td>
              <Table.Td ta="right">
                <Visits link={link} />
              </Table.Td>
              <Table.Td>
                <Status link={link} />
              </Table.Td>
              <Table.Td>
                <DecisionControls link={link} name={names.get(link.row)!} controls={controls} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
