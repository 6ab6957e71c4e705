import { ActionIcon, Button, Group, Paper, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { withHttps } from '../../../src/qr/bare-url';
import {
  conditionKinds,
  RULE_CONDITIONS_MAX,
  RULE_LABEL_MAX,
  type ConditionKind,
} from '../../../src/qr/smart-redirect';
import type { DesignerValues } from './designer-values';
import { ConditionFields } from './ConditionFields';
import { newCondition, type RuleValues } from './smart-values';

/** The kind select's wording (what an owner thinks of, not the stored names). */
export const conditionKindLabels: Record<ConditionKind, string> = {
  device: 'Device',
  os: 'Operating system',
  country: 'Country',
  language: 'Language',
  time: 'Days and hours',
  dates: 'Dates',
  scans: 'After N scans',
};

const kindChoices = conditionKinds.map((kind) => ({ value: kind, label: conditionKindLabels[kind] }));

interface RuleEditorProps {
  form: UseFormReturnType<DesignerValues>;
  index: number;
  count: number;
  rule: RuleValues;
  timeZone: string;
  onMove: (index: number, to: number, button: 'up' | 'down') => void;
  onRemove: (index: number) => void;
}

/** One rule: its conditions (all must match), where it sends the scan, and its place in the list. */
export function RuleEditor({ form, index, count, rule, timeZone, onMove, onRemove }: RuleEditorProps) {
  const path = `smart.rules.${index}`;
  const title = `Rule ${index + 1}`;
  const titleId = `smart-rule-${rule.key}`;
  const conditionsError = form.errors[`${path}.conditions`];
  const destination = form.getInputProps(`${path}.destination`);

  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'xs', xs: 'sm' }}
      role="group"
      aria-labelledby={titleId}
      data-rule={index + 1}
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text fw={600} size="sm" id={titleId}>
            {title}
            {rule.label.trim() ? `: ${rule.label.trim()}` : ''}
          </Text>
          <Group gap={4} wrap="nowrap">
            <Tooltip label="Move up" withinPortal>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={`Move ${title.toLowerCase()} up`}
                data-move="up"
                disabled={index === 0}
                onClick={() => onMove(index, index - 1, 'up')}
              >
                <IconArrowUp size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Move down" withinPortal>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={`Move ${title.toLowerCase()} down`}
                data-move="down"
                disabled={index === count - 1}
                onClick={() => onMove(index, index + 1, 'down')}
              >
                <IconArrowDown size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Remove rule" withinPortal>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Remove ${title.toLowerCase()}`}
                onClick={() => onRemove(index)}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>

        <TextInput
          label="Label (optional)"
          placeholder="App Store"
          maxLength={RULE_LABEL_MAX}
          autoComplete="off"
          {...form.getInputProps(`${path}.label`)}
        />

        <Stack gap="xs">
          <Text size="sm" fw={500}>
            When {rule.conditions.length > 1 ? 'all of these match' : 'this matches'}
          </Text>
          {rule.conditions.map((condition, j) => {
            const conditionPath = `${path}.conditions.${j}`;
            return (
              <Paper key={condition.key} bg="var(--mantine-color-default-hover)" radius="sm" p="xs">
                <Stack gap="xs">
                  <Group gap="xs" align="flex-end" wrap="nowrap">
                    <Select
                      style={{ flex: 1, minWidth: 0 }}
                      label={`Condition ${j + 1}`}
                      data={kindChoices}
                      allowDeselect={false}
                      comboboxProps={{ withinPortal: true }}
                      value={condition.kind}
                      onChange={(kind) => kind && form.setFieldValue(`${conditionPath}.kind`, kind)}
                    />
                    <Tooltip label="Remove condition" withinPortal>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        size="lg"
                        aria-label={`Remove condition ${j + 1}`}
                        disabled={rule.conditions.length === 1}
                        onClick={() => form.removeListItem(`${path}.conditions`, j)}
                      >
                        <IconX size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                  <ConditionFields
                    form={form}
                    path={conditionPath}
                    condition={condition}
                    timeZone={timeZone}
                  />
                </Stack>
              </Paper>
            );
          })}
          {typeof conditionsError === 'string' && (
            <Text size="xs" c="red" role="alert">
              {conditionsError}
            </Text>
          )}
          <Group>
            <Button
              variant="subtle"
              size="xs"
              leftSection={<IconPlus size={16} aria-hidden />}
              disabled={rule.conditions.length >= RULE_CONDITIONS_MAX}
              onClick={() => form.insertListItem(`${path}.conditions`, newCondition('country'))}
            >
              Add condition
            </Button>
          </Group>
        </Stack>

        <TextInput
          label="Send to"
          withAsterisk
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://apps.apple.com/app/…"
          {...destination}
          onBlur={(event: React.FocusEvent<HTMLInputElement>) => {
            const completed = withHttps(event.currentTarget.value);
            if (completed !== event.currentTarget.value) form.setFieldValue(`${path}.destination`, completed);
            (destination.onBlur as ((e: React.FocusEvent<HTMLInputElement>) => void) | undefined)?.(event);
          }}
        />
      </Stack>
    </Paper>
  );
}
