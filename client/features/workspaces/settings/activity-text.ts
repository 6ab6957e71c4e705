import {
  roleLabels,
  workspaceRoles,
  type WorkspaceActivity,
  type WorkspaceRole,
} from '../../../../src/workspaces/workspace.schema';

/** An entry of the activity feed in plain words: who, did what, to what (the time is added by the feed). */
export interface ActivityWords {
  actor: string;
  what: string;
  target: string | null;
}

function detail(entry: WorkspaceActivity, key: string): string | null {
  const value = entry.details?.[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

function role(entry: WorkspaceActivity, key: string): string | null {
  const value = detail(entry, key);
  return value && (workspaceRoles as readonly string[]).includes(value)
    ? roleLabels[value as WorkspaceRole].toLowerCase()
    : value;
}

const quoted = (label: string | null) => (label ? `“${label}”` : null);

/**
 * The words for each action of the feed (see activitySchema in src/workspaces/workspace.schema.ts).
 * An action this client does not know yet still reads: its name in words and its target.
 */
export function describeActivity(entry: WorkspaceActivity): ActivityWords {
  const actor = entry.actor.username;
  const label = entry.targetLabel;
  const code = quoted(label);
  const as = (key: string) => {
    const r = role(entry, key);
    return r ? ` as ${r}` : '';
  };
  switch (entry.action) {
    case 'workspace.created':
      return { actor, what: 'created the workspace', target: quoted(label) };
    case 'workspace.renamed': {
      const from = detail(entry, 'from');
      return {
        actor,
        what: from ? `renamed the workspace from “${from}” to` : 'renamed the workspace to',
        target: quoted(detail(entry, 'to') ?? label),
      };
    }
    case 'workspace.transferred':
      return { actor, what: 'transferred ownership to', target: detail(entry, 'to') ?? label };
    case 'code.created':
      return { actor, what: 'created the QR code', target: code };
    case 'code.changed':
      return { actor, what: 'changed the QR code', target: code };
    case 'code.restored':
      return { actor, what: 'restored the QR code', target: code };
    case 'code.deleted':
      return { actor, what: 'deleted the QR code', target: code };
    case 'code.moved-in': {
      const from = detail(entry, 'from');
      return {
        actor,
        what: 'moved the QR code',
        target: `${code ?? ''} into this workspace${from ? ` from ${from}` : ''}`.trim(),
      };
    }
    case 'code.moved-out': {
      const to = detail(entry, 'to');
      return {
        actor,
        what: 'moved the QR code',
        target: `${code ?? ''} ${to ? `to ${to}` : 'out of this workspace'}`.trim(),
      };
    }
    case 'member.invited':
      return { actor, what: 'invited', target: `${label ?? 'someone'}${as('role')}` };
    case 'member.joined':
      return { actor, what: `joined the workspace${as('role')}`, target: null };
    case 'member.role-changed': {
      const from = role(entry, 'from');
      const to = role(entry, 'to');
      return {
        actor,
        what: 'changed the role of',
        target: `${label ?? 'a member'}${from && to ? ` from ${from} to ${to}` : to ? ` to ${to}` : ''}`,
      };
    }
    case 'member.removed':
      return { actor, what: 'removed', target: label };
    case 'member.left':
      return { actor, what: 'left the workspace', target: null };
    case 'folder.created':
      return { actor, what: 'created the folder', target: quoted(label) };
    case 'folder.renamed': {
      const from = detail(entry, 'from');
      return {
        actor,
        what: from ? `renamed the folder “${from}” to` : 'renamed the folder',
        target: quoted(detail(entry, 'to') ?? label),
      };
    }
    case 'folder.deleted':
      return { actor, what: 'deleted the folder', target: quoted(label) };
    case 'forwarding.updated':
      return { actor, what: 'set scans to be forwarded to', target: label };
    case 'forwarding.removed':
      return { actor, what: 'stopped forwarding scans to', target: label };
    default:
      return { actor, what: entry.action.replace(/[.-]/g, ' '), target: label };
  }
}

/** The whole line, as a screen reader or a test reads it: 'ada changed the role of bob from viewer to editor'. */
export function activitySentence(entry: WorkspaceActivity): string {
  const { actor, what, target } = describeActivity(entry);
  return [actor, what, target].filter(Boolean).join(' ');
}
