import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Select, Table, Text } from '@mantine/core';
import { bulkTargetOptions, type BulkTarget } from '../../../src/qr/bulk';
import type { QrType } from '../../../src/qr/qr-types';
import { translateShared } from '../../i18n/shared-messages';

/** The targets every type has, as the screens name them (the content fields keep src/qr/bulk.ts's names). */
const metaLabels: Partial<Record<BulkTarget, MessageDescriptor>> = {
  ignore: msg({ message: 'Ignore', context: 'a column of the file becomes nothing' }),
  name: msg({ message: 'Name', context: 'a column of the file becomes the name' }),
  type: msg({ message: 'Type', context: 'a column of the file becomes the type' }),
  folder: msg({ message: 'Folder', context: 'a column of the file becomes the folder' }),
  dynamic: msg({ message: 'Dynamic', context: 'a column of the file says whether the code is dynamic' }),
};

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
  const { t } = useLingui();
  const options = bulkTargetOptions(type, mapping.includes('type')).map((option) => {
    const label = metaLabels[option.value];
    // A content field keeps src/qr/bulk.ts's name, translated as shown.
    return { ...option, label: label ? t(label) : translateShared(option.label) };
  });
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
            <Table.Th>
              <Trans>Column</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>First row</Trans>
            </Table.Th>
            <Table.Th w={220}>
              <Trans>Becomes</Trans>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {columns.map((column, index) => {
            const number = index + 1;
            const header = column || number;
            return (
              <Table.Tr key={`${index}-${column}`}>
                <Table.Td>
                  <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
                    {column || t`Column ${number}`}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed" lineClamp={1} style={{ wordBreak: 'break-all' }}>
                    {firstRow[index] ?? ''}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Select
                    aria-label={t`Column ${header} becomes`}
                    size="xs"
                    data={options}
                    value={mapping[index] ?? 'ignore'}
                    onChange={(value) => value && set(index, value)}
                    allowDeselect={false}
                    comboboxProps={{ withinPortal: true }}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
