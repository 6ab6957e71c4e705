import { Badge, Group, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconActivity, IconCrown, IconMail, IconSettings, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { roleAtLeast, roleLabels, type Workspace } from '../../../../src/workspaces/workspace.schema';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { apiError, trpc } from '../../../lib/trpc';
import { ActivityFeed } from './ActivityFeed';
import { GeneralPanel } from './GeneralPanel';
import { InvitationsPanel } from './InvitationsPanel';
import { MembersPanel } from './MembersPanel';
import { PersonalWorkspacePanel } from './PersonalWorkspacePanel';
import { PlanPanel } from './PlanPanel';

type Tab = 'members' | 'invitations' | 'plan' | 'activity' | 'general';

function PageHeader({ workspace }: { workspace: Workspace | undefined }) {
  return (
    <div>
      <Title order={2}>Team settings</Title>
      {workspace ? (
        <Group gap="xs" wrap="wrap">
          <Text c="dimmed" size="sm">
            {workspace.kind === 'personal' ? 'Personal workspace' : workspace.name}
          </Text>
          {workspace.kind === 'team' && (
            <Badge variant="light" color={workspace.role === 'owner' ? 'violet' : 'blue'}>
              Your role: {roleLabels[workspace.role]}
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
          Members
        </Tabs.Tab>
        {isAdmin && (
          <Tabs.Tab value="invitations" leftSection={<IconMail aria-hidden size={16} />}>
            Invitations
          </Tabs.Tab>
        )}
        <Tabs.Tab value="plan" leftSection={<IconCrown aria-hidden size={16} />}>
          Plan
        </Tabs.Tab>
        <Tabs.Tab value="activity" leftSection={<IconActivity aria-hidden size={16} />}>
          Activity
        </Tabs.Tab>
        {isOwner && (
          <Tabs.Tab value="general" leftSection={<IconSettings aria-hidden size={16} />}>
            General
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
  const current = trpc.workspaces.current.useQuery();
  const workspace = current.data;
  return (
    <Stack gap="lg" maw={960}>
      <PageHeader workspace={workspace} />
      {current.isError ? (
        <ErrorAlert>{apiError(current.error, 'Could not load this workspace').message}</ErrorAlert>
      ) : !workspace ? (
        <Stack gap="md" aria-busy="true" aria-label="Loading the workspace">
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
