import { Select, Table, Text } from '@mantine/core';
import { bulkTargetOptions, type BulkTarget } from '../../../src/qr/bulk';
import type { QrType } from '../../../src/qr/qr-types';

/** One line per column of the file: its header, the first row's value, and what it becomes. */
export function BulkColumnsTable({
  columns,
  firstRow,
  mapping,
  type,
  onChange,
}: {
  columns: string[];
  firstRow: string[];
  mapping: BulkTarget[];
  type: QrType;
  onChange: (mapping: BulkTarget[]) => void;
}) {
  const options = bulkTargetOptions(type, mapping.includes('type'));
  const set = (index: number, target: BulkTarget) =>
    // A target belongs to one column: the column that held it before goes back to Ignore.
    onChange(
      mapping.map((t, i) => (i === index ? target : t === target && target !== 'ignore' ? 'ignore' : t)),
    );

  return (
    <Table.ScrollContainer minWidth={420}>
      <Table verticalSpacing={6} striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Column</Table.Th>
            <Table.Th>First row</Table.Th>
            <Table.Th w={220}>Becomes</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {columns.map((column, index) => (
            <Table.Tr key={`${index}-${column}`}>
              <Table.Td>
                <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
                  {column || `Column ${index + 1}`}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed" lineClamp={1} style={{ wordBreak: 'break-all' }}>
                  {firstRow[index] ?? ''}
                </Text>
              </Table.Td>
              <Table.Td>
                <Select
                  aria-label={`Column ${column || index + 1} becomes`}
                  size="xs"
                  data={options}
                  value={mapping[index] ?? 'ignore'}
                  onChange={(value) => value && set(index, value)}
                  allowDeselect={false}
                  comboboxProps={{ withinPortal: true }}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
