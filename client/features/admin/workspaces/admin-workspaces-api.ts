import type { UseTRPCMutationResult, UseTRPCQueryResult } from '@trpc/react-query/shared';
import type { TRPCClientErrorLike } from '@trpc/client';
import type { PaidTier } from '../../../../src/admin/admin.schema';
import type { AdminWorkspace } from '../../../../src/workspaces/workspace.schema';
import type { AppRouter } from '../../../../server/trpc/app-router';
import { trpc } from '../../../lib/trpc';

// The admin's procedures for team workspaces, typed by the shared contract (AdminWorkspace): the list
// (admin.workspaces) and the plan changes, with the same inputs as the users' admin.upgrade/extend/cancel.

export const workspaceSortKeys = ['name', 'createdAt', 'qrCodeCount', 'memberCount'] as const;
export type WorkspaceSortKey = (typeof workspaceSortKeys)[number];

export interface AdminWorkspaceListInput {
  search?: string;
  page: number;
  pageSize: number;
  sort?: WorkspaceSortKey;
  order?: 'asc' | 'desc';
}
export interface AdminWorkspacePage {
  rows: AdminWorkspace[];
  total: number;
  page: number;
  pageSize: number;
}
interface Change {
  success: boolean;
  message: string;
}
type ApiError = TRPCClientErrorLike<AppRouter>;
interface MutationHandlers {
  onSuccess?: (answer: Change) => unknown;
  onError?: (error: ApiError) => unknown;
}
type Mutation<I> = {
  useMutation: (handlers: MutationHandlers) => UseTRPCMutationResult<Change, ApiError, I, unknown>;
};

interface AdminWorkspaceProcedures {
  workspaces: {
    useQuery: (
      input: AdminWorkspaceListInput,
      options: {
        placeholderData: (previous: AdminWorkspacePage | undefined) => AdminWorkspacePage | undefined;
      },
    ) => UseTRPCQueryResult<AdminWorkspacePage, ApiError>;
  };
  workspaceUpgrade: Mutation<{ id: number; tier: PaidTier; duration: number }>;
  workspaceExtend: Mutation<{ id: number; days: number }>;
  workspaceCancel: Mutation<{ id: number; immediate: boolean }>;
  workspaceToggleUnlimited: Mutation<{ id: number }>;
}

/**
 * The procedures above, reached through this one cast while the router's type may not list them yet (the
 * server's admin side of workspaces lands apart from this page); once it does, `trpc.admin` serves as is.
 */
export const adminWorkspaceApi = trpc.admin as unknown as AdminWorkspaceProcedures;

/** Refreshes the admin's workspace list after a change (every page and search of it). */
export function useInvalidateAdminWorkspaces() {
  const utils = trpc.useUtils();
  return () =>
    (utils.admin as unknown as { workspaces: { invalidate: () => Promise<void> } }).workspaces.invalidate();
}
