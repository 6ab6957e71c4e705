import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Badge, Card, Paper, Select, Stack, Table, Text, TextInput, useMatches } from '@mantine/core';
import type { ImportAction, ImportLink } from '../../../src/imports/import.schema';
import { normalizeSlug } from '../../../src/qr/slug';
import { translateShared } from '../../i18n/shared-messages';
import { formatCount } from '../../lib/format';
import { allowedActions, isDone, type Decision, type DecidedLink } from './import-decisions';
import classes from './imports.module.css';

const WRAP = { overflowWrap: 'anywhere' } as const;

/** The Decision select's options. */
const actionLabels: Record<ImportAction, MessageDescriptor> = {
  create: msg({ message: 'Create', context: 'import decision' }),
  skip: msg({ message: 'Skip', context: 'import decision' }),
  rename: msg({ message: 'Rename', context: 'import decision' }),
  overwrite: msg({ message: 'Overwrite', context: 'import decision' }),
};

const resultLabels = {
  created: [msg({ message: 'Created', context: 'import row status' }), 'teal'],
  overwritten: [msg({ message: 'Overwritten', context: 'import row status' }), 'blue'],
  skipped: [msg({ message: 'Skipped', context: 'import row status' }), 'gray'],
  failed: [msg({ message: 'Failed', context: 'import row status' }), 'red'],
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
  const { t } = useLingui();
  if (link.result) {
    const [label, color] = resultLabels[link.result.status];
    return (
      <Stack gap={2} align="flex-start">
        <Badge variant="light" color={color} data-status={link.result.status}>
          {t(label)}
        </Badge>
        {link.result.status === 'failed' && link.result.message && (
          <Text size="xs" c="red" style={WRAP}>
            {translateShared(link.result.message)}
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
        {translateShared(link.conflict.message)}
      </Badge>
    );
  }
  return (
    <Badge variant="light" color="teal" data-status="ready">
      <Trans context="import row status">Ready</Trans>
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
  const { t } = useLingui();
  if (isDone(link)) {
    return (
      <Text size="sm" c="dimmed">
        <Trans context="import row status">Done</Trans>
      </Text>
    );
  }
  const decision = controls.decisionOf(link);
  const actions = allowedActions(link);
  const slug = decision.slug ?? '';
  return (
    <Stack gap={6}>
      <Select
        aria-label={t`Decision for ${name}`}
        data={actions.map((a) => ({ value: a, label: t(actionLabels[a]) }))}
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
          aria-label={t`New short link for ${name}`}
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
          <Trans>That code sends to this destination from now on; the visits are added to it.</Trans>
        </Text>
      )}
    </Stack>
  );
}

/** What names a row in its controls' labels: its back-half, with its row when another has the same. */
function namesOf(
  links: readonly ImportLink[],
  all: readonly ImportLink[],
  withRow: (slug: string, row: number) => string,
): Map<number, string> {
  const seen = new Map<string, number>();
  for (const link of all) seen.set(link.slug, (seen.get(link.slug) ?? 0) + 1);
  return new Map(
    links.map((link) => [
      link.row,
      (seen.get(link.slug) ?? 0) > 1 ? withRow(link.slug, link.row + 1) : link.slug,
    ]),
  );
}

/** A card's visits line ("12 visits"; English says "1 visits" too, as it always has). */
function VisitsLine({ visits }: { visits: number | null }) {
  if (visits === null) return <Trans>Visits not known</Trans>;
  return <Plural value={visits} one="# visits" other="# visits" />;
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
  const { t } = useLingui();
  const stacked = useMatches({ base: true, md: false });
  const names = namesOf(links, all, (slug, row) => t`${slug} (row ${row})`);

  if (stacked) {
    return (
      <Stack
        component="ul"
        gap="xs"
        p={0}
        m={0}
        aria-label={t`Links to import`}
        style={{ listStyle: 'none' }}
      >
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
                <VisitsLine visits={link.visits} />
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
      <Table verticalSpacing="sm" aria-label={t`Links to import`} layout="fixed" className={classes.table}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="20%">
              <Trans>Short link</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Destination</Trans>
            </Table.Th>
            <Table.Th w={80} ta="right">
              <Trans>Visits</Trans>
            </Table.Th>
            <Table.Th w="22%">
              <Trans>Status</Trans>
            </Table.Th>
            <Table.Th w={200}>
              <Trans>Decision</Trans>
            </Table.Th>
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
