import type { AdminWorkspace } from '../../../../src/workspaces/workspace.schema';
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
/** The admin's procedures for team workspaces: the list and the plan changes. */
export const adminWorkspaceApi = trpc.admin;

/** Refreshes the admin's workspace list after a change (every page and search of it). */
export function useInvalidateAdminWorkspaces() {
  const utils = trpc.useUtils();
  return () => utils.admin.workspaces.invalidate();
}
