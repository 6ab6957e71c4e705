import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Group, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconActivity, IconCrown, IconMail, IconSettings, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { roleAtLeast, type Workspace } from '../../../../src/workspaces/workspace.schema';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { apiError, trpc } from '../../../lib/trpc';
import { roleName } from '../role-words';
import { ActivityFeed } from './ActivityFeed';
import { GeneralPanel } from './GeneralPanel';
import { InvitationsPanel } from './InvitationsPanel';
import { MembersPanel } from './MembersPanel';
import { PersonalWorkspacePanel } from './PersonalWorkspacePanel';
import { PlanPanel } from './PlanPanel';

type Tab = 'members' | 'invitations' | 'plan' | 'activity' | 'general';

function PageHeader({ workspace }: { workspace: Workspace | undefined }) {
  const { t } = useLingui();
  const role = workspace ? roleName(workspace.role) : '';
  return (
    <div>
      <Title order={2}>
        <Trans>Team settings</Trans>
      </Title>
      {workspace ? (
        <Group gap="xs" wrap="wrap">
          <Text c="dimmed" size="sm">
            {workspace.kind === 'personal' ? t`Personal workspace` : workspace.name}
          </Text>
          {workspace.kind === 'team' && (
            <Badge variant="light" color={workspace.role === 'owner' ? 'violet' : 'blue'}>
              <Trans>Your role: {role}</Trans>
            </Badge>
          )}
        </Group>
      ) : (
        <Skeleton h={20} w={220} mt={4} />
      )}
    </div>
  );
}

/** A team: a tab for each part, each shown only to the roles that may use it. */
function TeamTabs({ workspace }: { workspace: Workspace }) {
  const [tab, setTab] = useState<Tab>('members');
  const isAdmin = roleAtLeast(workspace.role, 'admin');
  const isOwner = workspace.role === 'owner';
  // A tab the caller lost (their role changed, e.g. after handing the workspace over) falls back to Members.
  const shown: Tab = (tab === 'invitations' && !isAdmin) || (tab === 'general' && !isOwner) ? 'members' : tab;
  return (
    <Tabs value={shown} onChange={(v) => setTab((v as Tab | null) ?? 'members')} keepMounted={false}>
      <Tabs.List mb="lg">
        <Tabs.Tab value="members" leftSection={<IconUsers aria-hidden size={16} />}>
          <Trans>Members</Trans>
        </Tabs.Tab>
        {isAdmin && (
          <Tabs.Tab value="invitations" leftSection={<IconMail aria-hidden size={16} />}>
            <Trans>Invitations</Trans>
          </Tabs.Tab>
        )}
        <Tabs.Tab value="plan" leftSection={<IconCrown aria-hidden size={16} />}>
          <Trans>Plan</Trans>
        </Tabs.Tab>
        <Tabs.Tab value="activity" leftSection={<IconActivity aria-hidden size={16} />}>
          <Trans>Activity</Trans>
        </Tabs.Tab>
        {isOwner && (
          <Tabs.Tab value="general" leftSection={<IconSettings aria-hidden size={16} />}>
            <Trans context="the tab with the workspace's name and its deletion">General</Trans>
          </Tabs.Tab>
        )}
      </Tabs.List>
      <Tabs.Panel value="members">
        <MembersPanel workspace={workspace} />
      </Tabs.Panel>
      {isAdmin && (
        <Tabs.Panel value="invitations">
          <InvitationsPanel workspace={workspace} />
        </Tabs.Panel>
      )}
      <Tabs.Panel value="plan">
        <PlanPanel workspace={workspace} />
      </Tabs.Panel>
      <Tabs.Panel value="activity">
        <ActivityFeed workspaceId={workspace.id} />
      </Tabs.Panel>
      {isOwner && (
        <Tabs.Panel value="general">
          <GeneralPanel workspace={workspace} />
        </Tabs.Panel>
      )}
    </Tabs>
  );
}

/** /workspace: the settings of the current workspace (members, invitations, plan, activity, name). */
export function TeamSettingsPage() {
  const { t } = useLingui();
  const current = trpc.workspaces.current.useQuery();
  const workspace = current.data;
  return (
    <Stack gap="lg" maw={960}>
      <PageHeader workspace={workspace} />
      {current.isError ? (
        <ErrorAlert>{apiError(current.error, t`Could not load this workspace`).message}</ErrorAlert>
      ) : !workspace ? (
        <Stack gap="md" aria-busy="true" aria-label={t`Loading the workspace`}>
          <Skeleton h={36} w={420} maw="100%" />
          <Skeleton h={220} />
        </Stack>
      ) : workspace.kind === 'personal' ? (
        <Stack gap="lg">
          <PersonalWorkspacePanel />
          <ActivityFeed workspaceId={workspace.id} />
        </Stack>
      ) : (
        <TeamTabs key={workspace.id} workspace={workspace} />
      )}
    </Stack>
  );
}
