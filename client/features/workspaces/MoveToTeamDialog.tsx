import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import type { QrCode } from '../../../src/qr/qr.schema';
import { useMoveTargets } from './use-current-workspace';
import { useMoveToTeam } from './use-move-to-team';
import { roleName } from './role-words';

/**
 * "Move to team": a code of the personal workspace goes to one of the teams the caller edits, with its
 * history and scans. Its short link never changes, so printed codes keep working.
 */
export function MoveToTeamDialog({
  code,
  onClose,
  onMoved,
}: {
  code: Pick<QrCode, 'id' | 'name'> | null;
  onClose: () => void;
  onMoved?: () => void;
}) {
  const { t } = useLingui();
  const targets = useMoveTargets();
  const [chosen, setChosen] = useState<string | null>(null);
  const move = useMoveToTeam(onMoved);
  const team =
    targets.find((w) => String(w.id) === chosen) ?? (targets.length === 1 ? targets[0] : undefined);
  const close = () => {
    setChosen(null);
    onClose();
  };
  const codeName = code?.name ?? '';
  return (
    <Modal opened={code !== null} onClose={close} title={t`Move "${codeName}" to a team`} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!code || !team) return;
          move.mutate({ id: code.id, workspaceId: team.id }, { onSuccess: close });
        }}
      >
        <Stack gap="md">
          <Radio.Group
            label={t`Team`}
            description={t`Teams where you can edit codes`}
            value={team ? String(team.id) : null}
            onChange={setChosen}
            required
          >
            <Stack gap="xs" mt="xs">
              {targets.map((w) => (
                <Radio key={w.id} value={String(w.id)} label={w.name} description={roleName(w.role)} />
              ))}
            </Stack>
          </Radio.Group>
          <Alert variant="light" color="blue" icon={<IconInfoCircle size={20} aria-hidden />}>
            <Text size="sm">
              <Trans>
                The short link and printed codes keep working. The code moves with its history and scans: the
                team&apos;s members see it, and it leaves your personal workspace.
              </Trans>
            </Text>
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" disabled={!team} loading={move.isPending}>
              <Trans>Move to team</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
