import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Text } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { trpc } from '../../lib/trpc';

/** '8 Dec 2026', in the viewer's zone (English as before; another language writes it its way). */
const dateOptions: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' };

/**
 * Where an imported code came from (issue 35, item 3): "Imported from Shlink on 8 Dec 2026 · 1,284 visits
 * imported" (no visits said when the source had no history of them), and its link at the source as text
 * (not a link: it may no longer answer, or answer here).
 * Nothing for a code made here, or when the question fails: the page is whole without it.
 */
export function ImportNote({ codeId }: { codeId: number }) {
  const { t, i18n } = useLingui();
  const origin = trpc.imports.ofCode.useQuery({ id: codeId }).data;
  if (!origin) return null;
  const date = new Date(origin.importedAt);
  // The source's name (Shlink, YOURLS…) comes from the server.
  const source = origin.sourceLabel;
  const on = Number.isNaN(date.getTime())
    ? null
    : new Intl.DateTimeFormat(i18n.locale === 'en' ? 'en-GB' : i18n.locale, dateOptions).format(date);
  const visits = origin.visits;
  const sourceLink = origin.sourceLink;
  return (
    <Group gap={6} wrap="nowrap" align="flex-start" data-import-note>
      <IconFileImport size={16} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {on ? t`Imported from ${source} on ${on}` : t`Imported from ${source}`}
        {visits > 0 && ` · ${plural(visits, { one: '# visit imported', other: '# visits imported' })}`}
        {sourceLink && (
          <>
            <br />
            <Trans>Source link: {sourceLink}</Trans>
          </>
        )}
      </Text>
    </Group>
  );
}
