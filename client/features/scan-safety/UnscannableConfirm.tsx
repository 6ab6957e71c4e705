import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';

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
  return (
    <Modal opened={opened} onClose={onClose} title="This code won't scan" centered>
      <Stack gap="sm">
        <Text size="sm">Phones will not be able to read this design:</Text>
        <List size="sm" spacing={4}>
          {reasons.map((reason) => (
            <List.Item key={reason}>{reason}</List.Item>
          ))}
        </List>
        {hint && (
          <Text size="sm" c="dimmed">
            {hint}
          </Text>
        )}
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onClose} data-autofocus>
            Go back
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
  return fixes.length > 0
    ? `Go back to use a one-click fix: ${fixes.map((f) => f.label.toLowerCase()).join(', ')}.`
    : null;
}
