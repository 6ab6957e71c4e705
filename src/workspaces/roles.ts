// A member's role in a workspace, without zod (workspace.schema.ts re-exports it): the app's frame uses
// these before any page with a form has loaded zod.

export const workspaceRoles = ['viewer', 'editor', 'admin', 'owner'] as const;
export type WorkspaceRole = (typeof workspaceRoles)[number];

/** What each role may do on top of the one below it (the team settings page shows this). */
export const roleDescriptions: Record<WorkspaceRole, string> = {
  viewer: 'Sees codes and analytics, downloads',
  editor: 'Also creates, edits, moves and deletes codes and folders',
  admin: 'Also manages members, invitations and API tokens',
  owner: 'Also plan and billing, renames, deletes and transfers the workspace',
};

export const roleLabels: Record<WorkspaceRole, string> = {
  viewer: 'Viewer',
  editor: 'Editor',
  admin: 'Admin',
  owner: 'Owner',
};

/** True when `role` may do what `needed` may. */
export function roleAtLeast(role: WorkspaceRole, needed: WorkspaceRole): boolean {
  return workspaceRoles.indexOf(role) >= workspaceRoles.indexOf(needed);
}
