import { Group, Text } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { formatCount } from '../../lib/format';
import { trpc } from '../../lib/trpc';

/** '8 Dec 2026', in the viewer's zone. */
const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * Where an imported code came from (issue 35, item 3): "Imported from Shlink on 8 Dec 2026 · 1,284 visits
 * imported" (no visits said when the source had no history of them), and its link at the source as text
 * (not a link: it may no longer answer, or answer here).
 * Nothing for a code made here, or when the question fails: the page is whole without it.
 */
export function ImportNote({ codeId }: { codeId: number }) {
  const origin = trpc.imports.ofCode.useQuery({ id: codeId }).data;
  if (!origin) return null;
  const date = new Date(origin.importedAt);
  return (
    <Group gap={6} wrap="nowrap" align="flex-start" data-import-note>
      <IconFileImport size={16} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        Imported from {origin.sourceLabel}
        {Number.isNaN(date.getTime()) ? '' : ` on ${dateFormat.format(date)}`}
        {origin.visits > 0 &&
          ` · ${formatCount(origin.visits)} ${origin.visits === 1 ? 'visit' : 'visits'} imported`}
        {origin.sourceLink && (
          <>
            <br />
            Source link: {origin.sourceLink}
          </>
        )}
      </Text>
    </Group>
  );
}
