import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { translateShared } from '../../i18n/shared-messages';
import type { DesignerValues } from './designer-values';
import { ConditionFields } from './ConditionFields';
import { newCondition, type RuleValues } from './smart-values';

/** The kind select's wording (what an owner thinks of, not the stored names). */
export const conditionKindLabels: Record<ConditionKind, MessageDescriptor> = {
  device: msg`Device`,
  os: msg`Operating system`,
  country: msg`Country`,
  language: msg`Language`,
  time: msg`Days and hours`,
  dates: msg`Dates`,
  scans: msg`After N scans`,
};

/** The label's example: a store's name, the same in every language. */
const LABEL_EXAMPLE = 'App Store';

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
  const { t } = useLingui();
  const kindChoices = conditionKinds.map((kind) => ({ value: kind, label: t(conditionKindLabels[kind]) }));
  const path = `smart.rules.${index}`;
  const number = index + 1;
  const label = rule.label.trim();
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
            {label ? t`Rule ${number}: ${label}` : t`Rule ${number}`}
          </Text>
          <Group gap={4} wrap="nowrap">
            <Tooltip label={t`Move up`} withinPortal>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={t`Move rule ${number} up`}
                data-move="up"
                disabled={index === 0}
                onClick={() => onMove(index, index - 1, 'up')}
              >
                <IconArrowUp size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t`Move down`} withinPortal>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={t`Move rule ${number} down`}
                data-move="down"
                disabled={index === count - 1}
                onClick={() => onMove(index, index + 1, 'down')}
              >
                <IconArrowDown size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t`Remove rule`} withinPortal>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t`Remove rule ${number}`}
                onClick={() => onRemove(index)}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>

        <TextInput
          label={t`Label (optional)`}
          placeholder={LABEL_EXAMPLE}
          maxLength={RULE_LABEL_MAX}
          autoComplete="off"
          {...form.getInputProps(`${path}.label`)}
        />

        <Stack gap="xs">
          <Text size="sm" fw={500}>
            {rule.conditions.length > 1 ? (
              <Trans>When all of these match</Trans>
            ) : (
              <Trans>When this matches</Trans>
            )}
          </Text>
          {rule.conditions.map((condition, j) => {
            const conditionPath = `${path}.conditions.${j}`;
            const conditionNumber = j + 1;
            return (
              <Paper key={condition.key} bg="var(--mantine-color-default-hover)" radius="sm" p="xs">
                <Stack gap="xs">
                  <Group gap="xs" align="flex-end" wrap="nowrap">
                    <Select
                      style={{ flex: 1, minWidth: 0 }}
                      label={t`Condition ${conditionNumber}`}
                      data={kindChoices}
                      allowDeselect={false}
                      comboboxProps={{ withinPortal: true }}
                      value={condition.kind}
                      onChange={(kind) => kind && form.setFieldValue(`${conditionPath}.kind`, kind)}
                    />
                    <Tooltip label={t`Remove condition`} withinPortal>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        size="lg"
                        aria-label={t`Remove condition ${conditionNumber}`}
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
              {translateShared(conditionsError)}
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
              <Trans>Add condition</Trans>
            </Button>
          </Group>
        </Stack>

        <TextInput
          label={t`Send to`}
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
