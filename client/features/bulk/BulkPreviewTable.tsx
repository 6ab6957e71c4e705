import { Badge, Group, List, Pagination, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { fieldMessage, type BulkRowResult } from '../../../src/qr/bulk';
import { describeContent } from '../../../src/qr/content';
import { qrTypeLabels } from '../../../src/qr/qr-types';

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
  const [show, setShow] = useState<'all' | 'problems'>('all');
  const [page, setPage] = useState(1);
  const numbered = rows.map((row, index) => ({ row, index }));
  const shown = show === 'all' ? numbered : numbered.filter((r) => !r.row.ok);
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const slice = shown.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const problems = rows.length - rows.filter((r) => r.ok).length;

  return (
    <Stack gap="xs">
      {problems > 0 && (
        <SegmentedControl
          size="xs"
          aria-label="Rows shown"
          data={[
            { value: 'all', label: `All rows (${rows.length.toLocaleString()})` },
            { value: 'problems', label: `With problems (${problems.toLocaleString()})` },
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
        <Table verticalSpacing={6} aria-label="Rows of the file">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={56}>Row</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Content</Table.Th>
              <Table.Th>Folder</Table.Th>
              <Table.Th w={160}>Check</Table.Th>
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
                        {describeContent(row.code.type, row.code.content)}
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
                            title="Repeats a code you already have"
                          >
                            Repeat
                          </Badge>
                        ) : (
                          <Badge size="sm" variant="light" color="teal">
                            Ready
                          </Badge>
                        )}
                        <Badge size="sm" variant="light" color={row.code.isDynamic ? 'teal' : 'gray'}>
                          {row.code.isDynamic ? 'Dynamic' : 'Static'}
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
                            {messageOf(e.field, e.message)}
                          </List.Item>
                        ))}
                      </List>
                    </Table.Td>
                    <Table.Td>
                      <Badge size="sm" variant="filled" color="red">
                        Problem
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
            Rows {((current - 1) * PAGE_SIZE + 1).toLocaleString()}–
            {Math.min(current * PAGE_SIZE, shown.length).toLocaleString()} of {shown.length.toLocaleString()}
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
