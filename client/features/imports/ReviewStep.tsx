import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Pagination,
  Progress,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
  useMatches,
} from '@mantine/core';
import { IconAlertTriangle, IconCrown, IconPlayerStop, IconUpload } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import type { ImportPreview } from '../../../src/imports/import.schema';
import { translateShared } from '../../i18n/shared-messages';
import { formatCount } from '../../lib/format';
import { trpc } from '../../lib/trpc';
import { APP_DOMAIN, shortLinkBaseOf, shortLinkPrefix } from '../qr-designer/short-link';
import {
  countToImport,
  decisionOf,
  decisionsToSend,
  filterCounts,
  hasOpenConflict,
  inFilter,
  isDone,
  renameAllConflicts,
  renameProblem,
  renameProblems,
  skipAllConflicts,
  slugIndex,
  suggestRename,
  type Decision,
  type RowFilter,
} from './import-decisions';
import { ImportResult } from './ImportResult';
import { ImportRows, type RowControls } from './ImportRows';
import { useImportRun } from './use-import-run';

/** Links a page of the table shows. */
const PAGE_SIZE = 50;
const ROOT = 'root';

/** "1,000 links from Shlink · 1,234 visits · 12 conflicts". */
function Summary({ preview, conflicts }: { preview: ImportPreview; conflicts: number }) {
  const { t } = useLingui();
  const history = preview.links.some((l) => l.visitHistory);
  const { links, visits } = preview.totals;
  const source = preview.sourceLabel;
  return [
    plural(links, { one: `# link from ${source}`, other: `# links from ${source}` }),
    history ? plural(visits, { one: '# visit', other: '# visits' }) : t`no visit history`,
    plural(conflicts, { one: '# conflict', other: '# conflicts' }),
  ].join(' · ');
}

/** The run under way: "Imported 50 of 1,000 links". */
function RunProgress({ imported, total, stopping }: { imported: number; total: number; stopping: boolean }) {
  const { t } = useLingui();
  const done = formatCount(imported);
  return stopping
    ? t`${plural(total, {
        one: `Imported ${done} of # link: stopping after this call…`,
        other: `Imported ${done} of # links: stopping after this call…`,
      })}`
    : t`${plural(total, { one: `Imported ${done} of # link`, other: `Imported ${done} of # links` })}`;
}

/** The plan cannot hold every code the decisions would make: said before the run, with the way up. */
function RoomNote({ creates }: { creates: number }) {
  const { t } = useLingui();
  const limit = trpc.qr.limit.useQuery().data;
  if (!limit || limit.maxCount === null) return null;
  const room = Math.max(0, limit.maxCount - limit.currentCount);
  if (creates <= room) return null;
  const lead =
    room === 0
      ? t`Your plan is full`
      : t`${plural(room, { one: 'Only # more code fits your plan', other: 'Only # more codes fit your plan' })}`;
  return (
    <Alert variant="light" color="yellow" icon={<IconCrown size={20} aria-hidden />}>
      <Text size="sm">
        <Trans>
          {lead}:{' '}
          <Plural
            value={creates}
            one="# link would make new codes, and the ones over the limit are not imported."
            other="# links would make new codes, and the ones over the limit are not imported."
          />{' '}
          <Anchor component={Link} to="/upgrade" size="sm">
            Upgrade
          </Anchor>{' '}
          to import them all.
        </Trans>
      </Text>
    </Alert>
  );
}

export function ReviewSkeleton() {
  const { t } = useLingui();
  return (
    <Stack gap="md" aria-busy="true" aria-label={t`Loading the import`}>
      <Skeleton h={24} w="60%" />
      <Group gap="md">
        <Skeleton h={58} w={260} />
        <Skeleton h={58} w={260} />
      </Group>
      <Skeleton h={36} w={340} />
      {Array.from({ length: 5 }, (_, i) => (
        <Skeleton key={i} h={52} />
      ))}
    </Stack>
  );
}

/**
 * Step 2 and 3: the links read, each with what stands in its way and a decision; where the codes go (short
 * domain, folder); then the run, a progress bar and the result. Decisions live here, by row, across the
 * table's pages and filters.
 */
export function ReviewStep({
  preview,
  onImportMore,
  onStartOver,
}: {
  preview: ImportPreview;
  onImportMore: () => void;
  onStartOver: () => void;
}) {
  const { t } = useLingui();
  const [decisions, setDecisions] = useState<Map<number, Decision>>(() => new Map());
  const [filter, setFilter] = useState<RowFilter>('all');
  const [page, setPage] = useState(1);
  const [domain, setDomain] = useState(APP_DOMAIN);
  const [folder, setFolder] = useState(ROOT);
  const siblings = useMatches({ base: 0, sm: 1 });
  // Side by side on a phone too: the two helpers at the smaller size fit its width.
  const helperSize = useMatches({ base: 'xs', sm: 'sm' });
  const domains = trpc.qr.domains.useQuery();
  const folders = trpc.folders.list.useQuery();
  const { state: run, start, stop, reset } = useImportRun(preview.id);

  const links = preview.links;
  const counts = useMemo(() => filterCounts(links), [links]);
  const shown = useMemo(() => links.filter((l) => inFilter(l, filter)), [links, filter]);
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const pageLinks = shown.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);

  const toImport = countToImport(links, decisions);
  const problems = renameProblems(links, decisions).length;
  const creates = links.filter((l) => {
    if (isDone(l)) return false;
    const { action } = decisionOf(decisions, l);
    return action === 'create' || action === 'rename';
  }).length;
  const running = run.phase === 'running';
  const allDone = preview.totals.done >= preview.totals.links;
  const showResult = (run.phase === 'ended' || (run.phase === 'idle' && allDone)) && !running;

  const domainId = domain === APP_DOMAIN ? null : Number(domain);
  const base = shortLinkBaseOf({ domainId, available: domains.data, origin: window.location.origin });
  const prefix = shortLinkPrefix(base);
  const example = links.find((l) => !isDone(l))?.slug ?? links[0]?.slug ?? 'menu';

  const index = useMemo(() => slugIndex(links, decisions), [links, decisions]);
  const controls: RowControls = {
    decisionOf: (link) => decisionOf(decisions, link),
    problemOf: (link, slug) => {
      // src/'s checks say it in English: translated as shown.
      const problem = renameProblem(slug, link, index);
      return problem === null ? null : translateShared(problem);
    },
    onChange: (link, decision) => setDecisions((d) => new Map(d).set(link.row, decision)),
    suggest: (link) => suggestRename(link, index),
    prefix,
    disabled: running,
  };

  const startRun = () =>
    void start(decisionsToSend(links, decisions), {
      folderId: folder === ROOT ? null : Number(folder),
      domainId,
    });

  if (showResult) {
    return (
      <ImportResult
        preview={preview}
        run={run}
        left={toImport}
        onResume={startRun}
        onReview={reset}
        onImportMore={onImportMore}
      />
    );
  }

  const openConflicts = links.some(hasOpenConflict);
  const origin = preview.origin;
  const doneAlready = preview.totals.done;
  const linkExample = `${prefix}${example}`;
  const all = formatCount(counts.all);
  const conflicts = formatCount(counts.conflicts);
  const readyCount = formatCount(counts.ready);
  const pageControls: Record<'first' | 'previous' | 'next' | 'last', string> = {
    first: t`First page`,
    previous: t`Previous page`,
    next: t`Next page`,
    last: t`Last page`,
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <div style={{ flex: '1 1 280px', minWidth: 0 }}>
          <Text fw={600} data-import-summary>
            <Summary preview={preview} conflicts={counts.conflicts} />
          </Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            <Trans>Read from {origin}</Trans>
            {doneAlready > 0 &&
              ` · ${plural(doneAlready, { one: '# link done already', other: '# links done already' })}`}
          </Text>
        </div>
        <Button variant="subtle" size="compact-sm" onClick={onStartOver} disabled={running}>
          <Trans>Start over</Trans>
        </Button>
      </Group>

      <Card withBorder radius="md" padding="md">
        <Group gap="md" align="flex-start" wrap="wrap">
          {domains.data ? (
            <Select
              label={t`Short domain`}
              description={t`Links will be like ${linkExample}`}
              data={[
                { value: APP_DOMAIN, label: shortLinkPrefix(domains.data.defaultBase) },
                ...domains.data.items.map((d) => ({ value: String(d.id), label: d.hostname })),
              ]}
              value={domain}
              onChange={(value) => setDomain(value ?? APP_DOMAIN)}
              allowDeselect={false}
              disabled={running}
              style={{ flex: '1 1 240px' }}
              comboboxProps={{ withinPortal: true }}
            />
          ) : (
            <Skeleton h={60} style={{ flex: '1 1 240px' }} aria-label={t`Loading short domains`} />
          )}
          {folders.data ? (
            <Select
              label={t`Folder`}
              description={t`Where the new codes go`}
              data={[
                { value: ROOT, label: t({ message: 'Root', context: 'the top folder' }) },
                ...folders.data.map((f) => ({ value: String(f.id), label: f.name })),
              ]}
              value={folder}
              onChange={(value) => setFolder(value ?? ROOT)}
              allowDeselect={false}
              disabled={running}
              style={{ flex: '1 1 200px' }}
              comboboxProps={{ withinPortal: true }}
            />
          ) : (
            <Skeleton h={60} style={{ flex: '1 1 200px' }} aria-label={t`Loading folders`} />
          )}
        </Group>
      </Card>

      <Group justify="space-between" gap="sm" wrap="wrap">
        <SegmentedControl
          aria-label={t({ message: 'Show', context: 'filter of the links' })}
          value={filter}
          onChange={(value) => {
            setFilter(value);
            setPage(1);
          }}
          data={[
            { value: 'all', label: t`All (${all})` },
            { value: 'conflicts', label: t`Conflicts (${conflicts})` },
            { value: 'ready', label: t`Ready (${readyCount})` },
          ]}
        />
        {openConflicts && (
          <Group gap="xs" wrap="wrap">
            <Button
              variant="default"
              size={helperSize}
              onClick={() => setDecisions((d) => skipAllConflicts(links, d))}
              disabled={running}
            >
              <Trans>Skip all conflicts</Trans>
            </Button>
            <Button
              variant="default"
              size={helperSize}
              onClick={() => setDecisions((d) => renameAllConflicts(links, d))}
              disabled={running}
            >
              <Trans>Rename all conflicts</Trans>
            </Button>
          </Group>
        )}
      </Group>

      {pageLinks.length === 0 ? (
        <Card withBorder radius="md">
          <Text c="dimmed" ta="center" py="lg" role="status">
            <Trans>No links here</Trans>
          </Text>
        </Card>
      ) : (
        <ImportRows links={pageLinks} all={links} controls={controls} />
      )}
      {pages > 1 && (
        <Group justify="center">
          <Pagination
            total={pages}
            value={current}
            onChange={setPage}
            siblings={siblings}
            boundaries={1}
            size="sm"
            aria-label={t`Pages of links`}
            getControlProps={(control) => ({ 'aria-label': pageControls[control] })}
            getItemProps={(p) => ({ 'aria-label': t`Page ${p}` })}
          />
        </Group>
      )}

      <RoomNote creates={creates} />

      <Card withBorder radius="md" padding="md">
        {running ? (
          <Stack gap="xs" role="status" aria-label={t`Import progress`}>
            <Text size="sm" fw={500}>
              <RunProgress imported={run.imported} total={run.total} stopping={run.stopping} />
            </Text>
            <Progress
              value={run.total === 0 ? 100 : (run.imported / run.total) * 100}
              aria-hidden
              animated
              striped
            />
            <Group>
              <Button
                variant="default"
                leftSection={<IconPlayerStop size={18} aria-hidden />}
                onClick={stop}
                disabled={run.stopping}
              >
                <Trans>Stop</Trans>
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Text size="sm" c={problems > 0 ? 'red' : 'dimmed'} style={{ flex: '1 1 260px' }}>
              {problems > 0
                ? plural(problems, {
                    one: 'Fix the # new short link marked in red first.',
                    other: 'Fix the # new short links marked in red first.',
                  })
                : toImport === 0
                  ? t`Every link is skipped: choose Create, Rename or Overwrite for the ones to bring.`
                  : t`Each link becomes a dynamic QR code with the same short link; its visits come along where the source has them.`}
            </Text>
            <Button
              leftSection={<IconUpload size={18} aria-hidden />}
              onClick={startRun}
              disabled={toImport === 0 || problems > 0}
            >
              {plural(toImport, { one: 'Import # link', other: 'Import # links' })}
            </Button>
          </Group>
        )}
      </Card>
      {run.phase === 'idle' && preview.totals.done > 0 && !allDone && (
        <Alert variant="light" color="blue" icon={<IconAlertTriangle size={18} aria-hidden />}>
          <Trans>
            Part of this import was carried out before: those links show what became of them, and only the
            others are sent.
          </Trans>
        </Alert>
      )}
    </Stack>
  );
}
