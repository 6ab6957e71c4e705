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

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** "1,000 links from Shlink · 1,234 visits · 12 conflicts". */
function summaryOf(preview: ImportPreview, conflicts: number): string {
  const history = preview.links.some((l) => l.visitHistory);
  return [
    `${plural(preview.totals.links, 'link')} from ${preview.sourceLabel}`,
    history ? plural(preview.totals.visits, 'visit') : 'no visit history',
    plural(conflicts, 'conflict'),
  ].join(' · ');
}

/** The plan cannot hold every code the decisions would make: said before the run, with the way up. */
function RoomNote({ creates }: { creates: number }) {
  const limit = trpc.qr.limit.useQuery().data;
  if (!limit || limit.maxCount === null) return null;
  const room = Math.max(0, limit.maxCount - limit.currentCount);
  if (creates <= room) return null;
  return (
    <Alert variant="light" color="yellow" icon={<IconCrown size={20} aria-hidden />}>
      <Text size="sm">
        {room === 0
          ? 'Your plan is full'
          : `Only ${plural(room, 'more code')} ${room === 1 ? 'fits' : 'fit'} your plan`}
        : {plural(creates, 'link')} would make new codes, and the ones over the limit are not imported.{' '}
        <Anchor component={Link} to="/upgrade" size="sm">
          Upgrade
        </Anchor>{' '}
        to import them all.
      </Text>
    </Alert>
  );
}

export function ReviewSkeleton() {
  return (
    <Stack gap="md" aria-busy="true" aria-label="Loading the import">
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
    problemOf: (link, slug) => renameProblem(slug, link, index),
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

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <div style={{ flex: '1 1 280px', minWidth: 0 }}>
          <Text fw={600} data-import-summary>
            {summaryOf(preview, counts.conflicts)}
          </Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Read from {preview.origin}
            {preview.totals.done > 0 && ` · ${plural(preview.totals.done, 'link')} done already`}
          </Text>
        </div>
        <Button variant="subtle" size="compact-sm" onClick={onStartOver} disabled={running}>
          Start over
        </Button>
      </Group>

      <Card withBorder radius="md" padding="md">
        <Group gap="md" align="flex-start" wrap="wrap">
          {domains.data ? (
            <Select
              label="Short domain"
              description={`Links will be like ${prefix}${example}`}
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
            <Skeleton h={60} style={{ flex: '1 1 240px' }} aria-label="Loading short domains" />
          )}
          {folders.data ? (
            <Select
              label="Folder"
              description="Where the new codes go"
              data={[
                { value: ROOT, label: 'Root' },
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
            <Skeleton h={60} style={{ flex: '1 1 200px' }} aria-label="Loading folders" />
          )}
        </Group>
      </Card>

      <Group justify="space-between" gap="sm" wrap="wrap">
        <SegmentedControl
          aria-label="Show"
          value={filter}
          onChange={(value) => {
            setFilter(value);
            setPage(1);
          }}
          data={[
            { value: 'all', label: `All (${formatCount(counts.all)})` },
            { value: 'conflicts', label: `Conflicts (${formatCount(counts.conflicts)})` },
            { value: 'ready', label: `Ready (${formatCount(counts.ready)})` },
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
              Skip all conflicts
            </Button>
            <Button
              variant="default"
              size={helperSize}
              onClick={() => setDecisions((d) => renameAllConflicts(links, d))}
              disabled={running}
            >
              Rename all conflicts
            </Button>
          </Group>
        )}
      </Group>

      {pageLinks.length === 0 ? (
        <Card withBorder radius="md">
          <Text c="dimmed" ta="center" py="lg" role="status">
            No links here
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
            aria-label="Pages of links"
            getControlProps={(control) => ({
              'aria-label': `${control[0]!.toUpperCase()}${control.slice(1)} page`,
            })}
            getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
          />
        </Group>
      )}

      <RoomNote creates={creates} />

      <Card withBorder radius="md" padding="md">
        {running ? (
          <Stack gap="xs" role="status" aria-label="Import progress">
            <Text size="sm" fw={500}>
              Imported {formatCount(run.imported)} of {plural(run.total, 'link')}
              {run.stopping && ': stopping after this call…'}
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
                Stop
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Text size="sm" c={problems > 0 ? 'red' : 'dimmed'} style={{ flex: '1 1 260px' }}>
              {problems > 0
                ? `Fix the ${plural(problems, 'new short link')} marked in red first.`
                : toImport === 0
                  ? 'Every link is skipped: choose Create, Rename or Overwrite for the ones to bring.'
                  : 'Each link becomes a dynamic QR code with the same short link; its visits come along where the source has them.'}
            </Text>
            <Button
              leftSection={<IconUpload size={18} aria-hidden />}
              onClick={startRun}
              disabled={toImport === 0 || problems > 0}
            >
              {`Import ${plural(toImport, 'link')}`}
            </Button>
          </Group>
        )}
      </Card>
      {run.phase === 'idle' && preview.totals.done > 0 && !allDone && (
        <Alert variant="light" color="blue" icon={<IconAlertTriangle size={18} aria-hidden />}>
          Part of this import was carried out before: those links show what became of them, and only the
          others are sent.
        </Alert>
      )}
    </Stack>
  );
}
