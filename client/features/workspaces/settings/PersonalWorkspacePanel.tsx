import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconUsersPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { workspaceMessages, workspaceNameField } from '../../../../src/workspaces/workspace.schema';
import { notify } from '../../../lib/notify';
import { apiError, trpc } from '../../../lib/trpc';
import { translateShared } from '../../../i18n/shared-messages';
import { useGoToWorkspace } from './use-go-to-workspace';

/** The personal workspace has no members: the page says so and offers a team workspace instead. */
export function PersonalWorkspacePanel() {
  const { t } = useLingui();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const goTo = useGoToWorkspace();
  const create = trpc.workspaces.create.useMutation({
    onSuccess: async (team) => {
      const name = team.name;
      notify.success(
        translateShared(workspaceMessages.created),
        t`You are the owner of ${name}: invite your colleagues.`,
      );
      // Straight to the new team's settings, where the invitations are.
      await goTo(team.id, '/workspace');
    },
    onError: (e) => setError(apiError(e, t`Could not create the workspace`).message),
  });
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="personal-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="personal-title">
          <Trans>Your personal workspace</Trans>
        </Title>
        <Text size="sm">
          <Trans>
            This is your personal workspace: its QR codes, folders and API tokens are yours alone, and it has
            no members. To look after the same codes with colleagues, create a team workspace and invite them;
            you can move codes into it later.
          </Trans>
        </Text>
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
            create.mutate({ name: parsed.data });
          }}
        >
          <Group align="flex-start" wrap="wrap" gap="sm">
            <TextInput
              label={t`Team name`}
              placeholder={t({ message: 'Marketing', comment: 'an example of a team name' })}
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
              loading={create.isPending}
              leftSection={<IconUsersPlus aria-hidden size={16} />}
            >
              <Trans>Create team workspace</Trans>
            </Button>
          </Group>
        </form>
      </Stack>
    </Card>
  );
}
