import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { roleAtLeast } from '../../../src/workspaces/roles';
import { ForwardingSection } from '../forwarding/ForwardingSection';
import { WebhooksSection } from '../webhooks/WebhooksSection';
import { useCurrentWorkspace } from '../workspaces/use-current-workspace';

/**
 * /integrations: where the workspace's events leave QR Creator for other tools. Its sections are managed
 * by the workspace's admins; the others are told so instead of meeting the server's refusal.
 */
export function IntegrationsPage() {
  const { t } = useLingui();
  const { workspace } = useCurrentWorkspace();
  return (
    <Stack gap="lg" maw={960}>
      <div>
        <Title order={2}>
          <Trans>Integrations</Trans>
        </Title>
        <Text c="dimmed" size="sm">
          <Trans>Send this workspace’s scans and changes to your own systems as they happen.</Trans>
        </Text>
      </div>
      {!workspace ? (
        <Skeleton h={200} radius="md" aria-label={t`Loading the workspace`} />
      ) : roleAtLeast(workspace.role, 'admin') ? (
        <Stack gap="lg">
          <WebhooksSection />
          <ForwardingSection />
        </Stack>
      ) : (
        <Alert
          role="note"
          color="blue"
          variant="light"
          icon={<IconInfoCircle aria-hidden size={20} />}
          title={t`Managed by admins`}
        >
          <Trans>
            Webhooks and forwarding to web analytics are managed by this workspace’s admins. Ask one of them
            to add or change them.
          </Trans>
        </Alert>
      )}
    </Stack>
  );
}
