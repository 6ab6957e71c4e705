import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { slugChangeText } from './short-link';

/**
 * The question before a scanned code's short link changes (issue 35), its back-half or its domain: the
 * printed code holds the old link, so the server keeps it redirecting here, and the owner is told so
 * before the link changes. Loaded apart: lazy-dialogs.ts.
 */
export function SlugChangeDialog({
  opened,
  scans,
  oldShortUrl,
  oldDomain,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  /** The code's scans (all time), or null when they could not be counted. */
  scans: number | null;
  oldShortUrl: string;
  /** The old link is on a short domain: its host, and the code's address on the app itself. */
  oldDomain?: { hostname: string; appLink: string; lost?: boolean } | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useLingui();
  return (
    <Modal opened={opened} onClose={onClose} title={t`Change the short link?`} centered size="md">
      <Stack gap="lg">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {slugChangeText(scans, oldShortUrl, oldDomain)}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button onClick={onConfirm}>
            <Trans>Change short link</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
