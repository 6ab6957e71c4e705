import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import {
  workspaceMessages,
  workspaceNameField,
  type Workspace,
} from '../../../../src/workspaces/workspace.schema';
import { notify } from '../../../lib/notify';
import { apiError, trpc } from '../../../lib/trpc';
import { translateShared } from '../../../i18n/shared-messages';
import { useCurrentUser } from '../../auth/use-auth';
import { ConfirmModal } from './ConfirmModal';
import { useGoToWorkspace } from './use-go-to-workspace';
import { useWorkspaceRefresh } from './use-workspace-refresh';

function RenameForm({ workspace }: { workspace: Workspace }) {
  const { t } = useLingui();
  const [name, setName] = useState(workspace.name);
  const [error, setError] = useState<string | null>(null);
  const refresh = useWorkspaceRefresh();
  const rename = trpc.workspaces.rename.useMutation({
    onSuccess: async () => {
      notify.success(translateShared(workspaceMessages.renamed));
      await refresh(workspace.id);
    },
    onError: (e) => setError(apiError(e, t`Could not rename the workspace`).message),
  });
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = workspaceNameField.safeParse(name);
        if (!parsed.success) {
          setError(parsed.error.issues[0]?.message ?? t`Invalid name`);
          return;
        }
        setError(null);
        rename.mutate({ workspaceId: workspace.id, name: parsed.data });
      }}
    >
      <Group align="flex-start" wrap="wrap" gap="sm">
        <TextInput
          label={t`Workspace name`}
          value={name}
          // src/'s check or the server's refusal, in English there.
          error={error && translateShared(error)}
          onChange={(e) => {
            setName(e.currentTarget.value);
            if (error) setError(null);
          }}
          w={{ base: '100%', sm: 320 }}
        />
        <Button
          type="submit"
          mt={{ base: 0, sm: 25 }}
          loading={rename.isPending}
          disabled={name.trim() === workspace.name}
        >
          <Trans>Rename</Trans>
        </Button>
      </Group>
    </form>
  );
}

function DeleteWorkspace({ workspace }: { workspace: Workspace }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const me = useCurrentUser();
  const goTo = useGoToWorkspace();
  const remove = trpc.workspaces.delete.useMutation({
    onSuccess: async () => {
      setOpen(false);
      notify.success(translateShared(workspaceMessages.deleted));
      if (me) await goTo(me.id, '/');
    },
  });
  const name = workspace.name;
  const count = workspace.qrCodeCount;
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      component="section"
      aria-labelledby="danger-title"
      style={{ borderColor: 'var(--mantine-color-red-outline)' }}
    >
      <Title order={3} size="h4" id="danger-title" c="red">
        <Trans>Danger zone</Trans>
      </Title>
      <Group justify="space-between" wrap="wrap" gap="sm" mt="xs">
        <Text size="sm" style={{ flex: '1 1 280px' }}>
          <Trans>
            Deleting {name} deletes its <Plural value={count} one="# QR code" other="# QR codes" />, their
            scans, its folders and its API tokens, for every member. Its codes stop redirecting. This cannot
            be undone.
          </Trans>
        </Text>
        <Button
          color="red"
          leftSection={<IconTrash aria-hidden size={16} />}
          onClick={() => {
            setTyped('');
            remove.reset();
            setOpen(true);
          }}
        >
          <Trans>Delete workspace</Trans>
        </Button>
      </Group>
      {open && (
        <ConfirmModal
          title={t`Delete ${name}?`}
          confirmLabel={t`Delete workspace`}
          pending={remove.isPending}
          canConfirm={typed.trim() === workspace.name}
          error={remove.error ? apiError(remove.error, t`Could not delete the workspace`).message : null}
          onClose={() => setOpen(false)}
          onConfirm={() => remove.mutate({ workspaceId: workspace.id })}
        >
          <Text size="sm">
            <Trans>
              Its <Plural value={count} one="# QR code" other="# QR codes" /> stop redirecting, printed ones
              included, and its scans, folders and API tokens are deleted. Members keep their accounts and
              personal workspaces.
            </Trans>
          </Text>
          <TextInput
            label={t`Type ${name} to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            autoComplete="off"
            data-autofocus
          />
        </ConfirmModal>
      )}
    </Card>
  );
}

/** Owners: rename the workspace, or delete it with everything in it. */
export function GeneralPanel({ workspace }: { workspace: Workspace }) {
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="rename-title">
        <Title order={3} size="h4" id="rename-title" mb="sm">
          <Trans>Name</Trans>
        </Title>
        <RenameForm key={workspace.name} workspace={workspace} />
      </Card>
      <DeleteWorkspace workspace={workspace} />
    </Stack>
  );
}
