import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, CopyButton, Group, Modal, Stack, TextInput } from '@mantine/core';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';

/** The signing secret, the one time the server gives it (after Add webhook and after New secret). */
export function SecretModal({ secret, url, onClose }: { secret: string; url: string; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <Modal opened onClose={onClose} title={t`Signing secret`} centered>
      <Stack gap="md">
        <Alert color="yellow" variant="light" icon={<IconKey aria-hidden size={20} />}>
          <Trans>
            Copy this signing secret now: it will not be shown again. Your endpoint checks with it that a
            request comes from QR Creator.
          </Trans>
        </Alert>
        <TextInput
          label={t`Signing secret`}
          description={t`For ${url}`}
          value={secret}
          readOnly
          styles={{
            input: { fontFamily: 'var(--mantine-font-family-monospace)' },
            description: { overflowWrap: 'anywhere' },
          }}
          onFocus={(e) => e.currentTarget.select()}
        />
        <Group justify="space-between">
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button
                variant="light"
                leftSection={
                  copied ? <IconCheck aria-hidden size={16} /> : <IconCopy aria-hidden size={16} />
                }
                onClick={copy}
              >
                {copied ? t`Copied` : t`Copy`}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>
            <Trans>Done</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
