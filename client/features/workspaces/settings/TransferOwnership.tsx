import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, Select, Text, Title } from '@mantine/core';
import { IconCrown } from '@tabler/icons-react';
import { useState } from 'react';
import type { Workspace, WorkspaceMember } from '../../../../src/workspaces/workspace.schema';
import { notify } from '../../../lib/notify';
import { apiError, trpc } from '../../../lib/trpc';
import { translateShared } from '../../../i18n/shared-messages';
import { ConfirmModal } from './ConfirmModal';
import { useWorkspaceRefresh } from './use-workspace-refresh';

/** An owner hands the workspace to another member: they become owner, the caller an admin. */
export function TransferOwnership({
  workspace,
  members,
}: {
  workspace: Workspace;
  members: WorkspaceMember[];
}) {
  const { t } = useLingui();
  const [userId, setUserId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const refresh = useWorkspaceRefresh();
  const transfer = trpc.workspaces.transfer.useMutation({
    onSuccess: async ({ message }) => {
      notify.success(translateShared(message));
      setConfirming(false);
      setUserId(null);
      await refresh(workspace.id);
    },
  });
  const chosen = members.find((m) => String(m.userId) === userId);
  const username = chosen?.username;
  const name = workspace.name;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="transfer-title">
      <Title order={3} size="h4" id="transfer-title">
        <Trans>Transfer ownership</Trans>
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        <Trans>
          The member you choose becomes an owner (plan, billing, renaming and deleting the workspace); you
          stay in it as an admin.
        </Trans>
      </Text>
      {members.length === 0 ? (
        <Text size="sm">
          <Trans>Invite someone first: there is nobody else in this workspace to hand it to.</Trans>
        </Text>
      ) : (
        <Group align="flex-end" wrap="wrap" gap="sm">
          <Select
            label={t`New owner`}
            placeholder={t`Choose a member`}
            data={members.map((m) => ({
              value: String(m.userId),
              label: m.name ? `${m.username} (${m.name})` : m.username,
            }))}
            value={userId}
            onChange={setUserId}
            w={{ base: '100%', sm: 300 }}
          />
          <Button
            variant="default"
            leftSection={<IconCrown aria-hidden size={16} />}
            disabled={!chosen}
            onClick={() => {
              transfer.reset();
              setConfirming(true);
            }}
          >
            <Trans>Transfer ownership</Trans>
          </Button>
        </Group>
      )}
      {confirming && chosen && (
        <ConfirmModal
          title={t`Make ${username} the owner?`}
          confirmLabel={t`Transfer ownership`}
          pending={transfer.isPending}
          error={transfer.error ? apiError(transfer.error, t`Could not transfer ownership`).message : null}
          onClose={() => setConfirming(false)}
          onConfirm={() => transfer.mutate({ workspaceId: workspace.id, userId: chosen.userId })}
        >
          <Text size="sm">
            <Trans>
              {username} becomes an owner of {name}, and you become an admin: you can no longer change the
              plan, rename or delete the workspace unless an owner gives the role back.
            </Trans>
          </Text>
        </ConfirmModal>
      )}
    </Card>
  );
}
