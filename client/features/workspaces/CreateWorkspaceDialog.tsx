import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import {
  createWorkspaceInput,
  WORKSPACE_NAME_MAX,
  workspaceMessages,
} from '../../../src/workspaces/workspace.schema';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { translateShared } from '../../i18n/shared-messages';
import { useSwitchWorkspace } from './use-current-workspace';

/** A new team workspace: its name, then the app switches to it (the creator is its owner). */
export function CreateWorkspaceDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const { switchTo } = useSwitchWorkspace();
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '' },
    validate: schemaResolver(createWorkspaceInput, { sync: true }),
  });
  const create = trpc.workspaces.create.useMutation({
    onSuccess: async (workspace) => {
      const name = workspace.name;
      notify.success(translateShared(workspaceMessages.created), t`${name}: you are its owner.`);
      form.reset();
      onClose();
      await utils.workspaces.list.invalidate();
      await switchTo(workspace.id);
    },
    onError: (error) => {
      const { message } = apiError(error, t`The workspace could not be created. Please try again.`);
      form.setFieldError('name', message);
    },
  });
  const close = () => {
    form.reset();
    onClose();
  };
  // src/'s check writes its message in English: shown in the active language.
  const nameError =
    typeof form.errors.name === 'string' ? translateShared(form.errors.name) : form.errors.name;
  return (
    <Modal opened={opened} onClose={close} title={t`Create team workspace`} centered>
      <form noValidate onSubmit={form.onSubmit(({ name }) => create.mutate({ name }))}>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            <Trans>
              A team workspace holds codes, folders and analytics that its members share. You can invite
              colleagues from Team settings.
            </Trans>
          </Text>
          <TextInput
            label={t`Name`}
            placeholder={t`e.g. Marketing`}
            required
            maxLength={WORKSPACE_NAME_MAX}
            data-autofocus
            {...form.getInputProps('name')}
            error={nameError}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={create.isPending}>
              <Trans>Create workspace</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
