import { useLingui as useLocale } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { workspaceMessages } from '../../../src/workspaces/workspace-messages';
import { translateShared } from '../../i18n/shared-messages';
import { useSwitchWorkspace } from './use-current-workspace';

/**
 * In place of the page when the address names a workspace the user is not a member of (a link shared
 * with someone outside the team, or a team they left): what happened, and the way back to their own.
 */
export function WorkspaceNotFound({ personalId }: { personalId: number }) {
  // Drawn again in a new language: the title is translateShared's.
  useLocale();
  const { switchTo, pending } = useSwitchWorkspace();
  return (
    <Stack align="center" gap="sm" py="xl" maw={480} mx="auto" ta="center" role="alert">
      <ThemeIcon size={56} radius="xl" variant="light" color="gray" aria-hidden>
        <IconUsersGroup size={32} />
      </ThemeIcon>
      <Title order={2}>{translateShared(workspaceMessages.notFound)}</Title>
      <Text c="dimmed">
        <Trans>
          This address names a workspace you are not a member of, or one that no longer exists. Ask one of its
          admins to invite you, or carry on in your own workspace.
        </Trans>
      </Text>
      <Button mt="sm" loading={pending} onClick={() => void switchTo(personalId)}>
        <Trans>Go to my personal workspace</Trans>
      </Button>
    </Stack>
  );
}
