import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Group, List, Pagination, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { fieldMessage, type BulkRowResult } from '../../../src/qr/bulk';
import { describeContent } from '../../../src/qr/content';
import { qrTypeLabels } from '../../../src/qr/qr-types';
import { translateShared } from '../../i18n/shared-messages';

const PAGE_SIZE = 10;

/** Every row as it will be created, or why it cannot be: 10 a page, or only the rows with problems. */
export function BulkPreviewTable({
  rows,
  cells,
  folderName,
  repeatRows,
}: {
  rows: BulkRowResult[];
  cells: string[][];
  /** The folder chosen for rows without one. */
  folderName: string | null;
  /** Rows (by index in `rows`) that repeat a code the user has; undefined while not known. */
  repeatRows?: ReadonlySet<number>;
}) {
  const { t, i18n } = useLingui();
  const [show, setShow] = useState<'all' | 'problems'>('all');
  const [page, setPage] = useState(1);
  const numbered = rows.map((row, index) => ({ row, index }));
  const shown = show === 'all' ? numbered : numbered.filter((r) => !r.row.ok);
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const slice = shown.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const problems = rows.length - rows.filter((r) => r.ok).length;
  const count = (n: number) => n.toLocaleString(i18n.locale);
  const allRows = count(rows.length);
  const withProblems = count(problems);
  const first = count((current - 1) * PAGE_SIZE + 1);
  const last = count(Math.min(current * PAGE_SIZE, shown.length));
  const shownRows = count(shown.length);

  return (
    <Stack gap="xs">
      {problems > 0 && (
        <SegmentedControl
          size="xs"
          aria-label={t`Rows shown`}
          data={[
            { value: 'all', label: t`All rows (${allRows})` },
            { value: 'problems', label: t`With problems (${withProblems})` },
          ]}
          value={show}
          onChange={(v) => {
            setShow(v);
            setPage(1);
          }}
          style={{ alignSelf: 'flex-start' }}
        />
      )}
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing={6} aria-label={t`Rows of the file`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={56}>
                <Trans context="a row of the file">Row</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Name</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Content</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Folder</Trans>
              </Table.Th>
              <Table.Th w={160}>
                <Trans context="the result of checking a row">Check</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {slice.map(({ row, index }) => (
              <Table.Tr key={index} data-row-ok={row.ok} data-repeat={repeatRows?.has(index) || undefined}>
                <Table.Td>{index + 1}</Table.Td>
                {row.ok ? (
                  <>
                    <Table.Td>
                      <Text size="sm" lineClamp={1} style={{ wordBreak: 'break-word' }}>
                        {row.code.name}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed" lineClamp={1} style={{ wordBreak: 'break-all' }}>
                        {translateShared(describeContent(row.code.type, row.code.content))}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed" lineClamp={1}>
                        {row.code.folder ?? folderName ?? '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        {repeatRows?.has(index) ? (
                          <Badge
                            size="sm"
                            variant="light"
                            color="yellow"
                            title={t`Repeats a code you already have`}
                          >
                            <Trans context="a row that repeats an existing code">Repeat</Trans>
                          </Badge>
                        ) : (
                          <Badge size="sm" variant="light" color="teal">
                            <Trans context="a row ready to be created">Ready</Trans>
                          </Badge>
                        )}
                        <Badge size="sm" variant="light" color={row.code.isDynamic ? 'teal' : 'gray'}>
                          {row.code.isDynamic ? t`Dynamic` : t`Static`}
                        </Badge>
                      </Group>
                    </Table.Td>
                  </>
                ) : (
                  <>
                    <Table.Td colSpan={3}>
                      <Text size="xs" c="dimmed" lineClamp={1} style={{ wordBreak: 'break-all' }}>
                        {(cells[index] ?? []).filter(Boolean).join(' · ')}
                      </Text>
                      <List size="sm" spacing={0} c="red.8">
                        {row.errors.map((e) => (
                          <List.Item key={`${e.field}:${e.message}`}>
                            {translateShared(messageOf(e.field, e.message))}
                          </List.Item>
                        ))}
                      </List>
                    </Table.Td>
                    <Table.Td>
                      <Badge size="sm" variant="filled" color="red">
                        <Trans context="a row that cannot be created">Problem</Trans>
                      </Badge>
                    </Table.Td>
                  </>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 && (
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="xs" c="dimmed">
            <Trans>
              Rows {first}–{last} of {shownRows}
            </Trans>
          </Text>
          <Pagination
            total={pages}
            value={current}
            onChange={setPage}
            size="sm"
            siblings={1}
            boundaries={1}
          />
        </Group>
      )}
    </Stack>
  );
}

/** A row's message with the field named when the schema's message does not name it. */
function messageOf(field: string, message: string): string {
  for (const type of Object.keys(qrTypeLabels) as (keyof typeof qrTypeLabels)[]) {
    const named = fieldMessage(type, field, message);
    if (named !== message) return named;
  }
  return message;
}
