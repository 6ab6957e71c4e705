import { useLingui } from '@lingui/react/macro';
import { Box, Button, Group, Table } from '@mantine/core';
import { IconTable } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { formatCount } from '../lib/format';

export interface ChartTableData {
  /** What the numbers are, e.g. 'Scans per day, last 7 days': the table's caption. */
  caption: string;
  columns: string[];
  /** One row per point or slice; the first cell names it (a row header), numbers are right-aligned. */
  rows: (string | number)[][];
}

/**
 * The numbers behind a chart, one "Show as table" button away: the same figures for anyone who
 * cannot see the drawing (screen readers, high zoom, colour blindness) or wants exact values. The
 * table scrolls in its own box, so a long series never widens a phone's page.
 */
export function ChartDataTable({ caption, columns, rows }: ChartTableData) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const id = useId();
  const captionId = `${id}-caption`;
  return (
    <Box mt="xs">
      <Group justify="flex-end">
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconTable size={16} aria-hidden />}
          aria-expanded={open}
          aria-controls={id}
          aria-describedby={captionId}
          onClick={() => setOpen((o) => !o)}
          data-chart-table-toggle
        >
          {open ? t`Hide table` : t`Show as table`}
        </Button>
      </Group>
      <Box id={id} hidden={!open} mt="xs" data-chart-table>
        {/* Focusable so a keyboard can scroll it; named by the caption it holds. */}
        <Box
          role="group"
          aria-labelledby={captionId}
          tabIndex={0}
          mah={360}
          className="mantine-focus-auto"
          style={{ overflow: 'auto', overscrollBehavior: 'contain' }}
        >
          <Table striped stickyHeader captionSide="top" fz="sm" miw={240}>
            <Table.Caption id={captionId} ta="left" mt={0} mb="xs">
              {caption}
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c, i) => (
                  <Table.Th key={c} scope="col" ta={i === 0 ? 'left' : 'right'}>
                    {c}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map(([head, ...cells], r) => (
                <Table.Tr key={r}>
                  <Table.Th scope="row" fw={500} style={{ overflowWrap: 'anywhere' }}>
                    {head}
                  </Table.Th>
                  {cells.map((v, c) => (
                    <Table.Td key={c} ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {typeof v === 'number' ? formatCount(v) : v}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
      </Box>
    </Box>
  );
}
