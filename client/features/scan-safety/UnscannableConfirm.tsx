import { t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { i18n } from '@lingui/core';
import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { translateShared } from '../../i18n/shared-messages';

/** Asked before creating, saving or downloading a design that won't scan. */
export function UnscannableConfirm({
  reasons,
  hint,
  opened,
  confirmLabel,
  onConfirm,
  onClose,
}: {
  /** Why it won't scan, in plain words. */
  reasons: string[];
  /** How to fix it (e.g. the one-click fixes in the designer). */
  hint?: string | null;
  opened: boolean;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useLingui();
  return (
    <Modal opened={opened} onClose={onClose} title={t`This code won't scan`} centered>
      <Stack gap="sm">
        <Text size="sm">
          <Trans>Phones will not be able to read this design:</Trans>
        </Text>
        <List size="sm" spacing={4}>
          {reasons.map((reason) => (
            <List.Item key={reason}>{translateShared(reason)}</List.Item>
          ))}
        </List>
        {hint && (
          <Text size="sm" c="dimmed">
            {hint}
          </Text>
        )}
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onClose} data-autofocus>
            <Trans>Go back</Trans>
          </Button>
          <Button color="red" onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The hint under the reasons for a live check's one-click fixes. */
export function fixHint(fixes: { label: string }[]): string | null {
  if (fixes.length === 0) return null;
  // The fixes' names come from src/qr/scan-safety.ts (English), translated where they are; in lower case
  // after the colon, except in German (whose nouns keep their capital).
  const list = fixes
    .map((f) => {
      if (i18n.locale === 'en') return f.label.toLowerCase();
      const label = translateShared(f.label);
      return i18n.locale === 'de' ? label : label.charAt(0).toLocaleLowerCase(i18n.locale) + label.slice(1);
    })
    .join(', ');
  return translate`Go back to use a one-click fix: ${list}.`;
}
