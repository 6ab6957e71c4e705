import type { User } from '../../../src/auth/auth.schema';
import { useCurrentWorkspace } from './use-current-workspace';
import { workspacePlanView, type WorkspacePlanView } from './workspace-plan';

/** workspacePlanView for the current workspace (loaded before any app page draws). */
export function useWorkspacePlan(user: Pick<User, 'isAdmin'>): WorkspacePlanView {
  const { workspace } = useCurrentWorkspace();
  return workspacePlanView(user, workspace, new Date());
}
