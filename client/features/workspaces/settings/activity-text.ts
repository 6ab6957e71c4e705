import { t } from '@lingui/core/macro';
import {
  workspaceRoles,
  type WorkspaceActivity,
  type WorkspaceRole,
} from '../../../../src/workspaces/workspace.schema';
import { roleInSentence } from '../role-words';

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

function roleName(entry: WorkspaceActivity, key: string): string | null {
  const value = detail(entry, key);
  return value && (workspaceRoles as readonly string[]).includes(value)
    ? roleInSentence(value as WorkspaceRole)
    : value;
}

/** A name in quotation marks, as the language writes them: “Menu”. */
const quoted = (label: string | null) =>
  label ? t({ message: `“${label}”`, comment: 'a name in quotation marks' }) : null;

/**
 * The words for each action of the feed (see activitySchema in src/workspaces/workspace.schema.ts).
 * An action this client does not know yet still reads: its name in words and its target.
 * The feed shows them in this order: the actor (a username), `what`, then `target` (in bold).
 */
export function describeActivity(entry: WorkspaceActivity): ActivityWords {
  const actor = entry.actor.username;
  const label = entry.targetLabel;
  const code = quoted(label);
  switch (entry.action) {
    case 'workspace.created':
      return { actor, what: t`created the workspace`, target: quoted(label) };
    case 'workspace.renamed': {
      const from = detail(entry, 'from');
      return {
        actor,
        what: from ? t`renamed the workspace from “${from}” to` : t`renamed the workspace to`,
        target: quoted(detail(entry, 'to') ?? label),
      };
    }
    case 'workspace.transferred':
      return { actor, what: t`transferred ownership to`, target: detail(entry, 'to') ?? label };
    case 'code.created':
      return { actor, what: t`created the QR code`, target: code };
    case 'code.changed':
      return { actor, what: t`changed the QR code`, target: code };
    case 'code.restored':
      return { actor, what: t`restored the QR code`, target: code };
    case 'code.deleted':
      return { actor, what: t`deleted the QR code`, target: code };
    case 'code.moved-in': {
      const from = detail(entry, 'from');
      let target: string;
      if (code && from) target = t`${code} into this workspace from ${from}`;
      else if (code) target = t`${code} into this workspace`;
      else if (from) target = t`into this workspace from ${from}`;
      else target = t`into this workspace`;
      return { actor, what: t`moved the QR code`, target };
    }
    case 'code.moved-out': {
      const to = detail(entry, 'to');
      let target: string;
      if (code && to) target = t`${code} to ${to}`;
      else if (code) target = t`${code} out of this workspace`;
      else if (to) target = t`to ${to}`;
      else target = t`out of this workspace`;
      return { actor, what: t`moved the QR code`, target };
    }
    case 'member.invited': {
      const who = label ?? t`someone`;
      const role = roleName(entry, 'role');
      return { actor, what: t`invited`, target: role ? t`${who} as ${role}` : who };
    }
    case 'member.joined': {
      const role = roleName(entry, 'role');
      return {
        actor,
        what: role ? t`joined the workspace as ${role}` : t`joined the workspace`,
        target: null,
      };
    }
    case 'member.role-changed': {
      const who = label ?? t`a member`;
      const from = roleName(entry, 'from');
      const to = roleName(entry, 'to');
      return {
        actor,
        what: t`changed the role of`,
        target: from && to ? t`${who} from ${from} to ${to}` : to ? t`${who} to ${to}` : who,
      };
    }
    case 'member.removed':
      return {
        actor,
        what: t({ message: 'removed', context: 'removed a member from the workspace' }),
        target: label,
      };
    case 'member.left':
      return { actor, what: t`left the workspace`, target: null };
    case 'folder.created':
      return { actor, what: t`created the folder`, target: quoted(label) };
    case 'folder.renamed': {
      const from = detail(entry, 'from');
      return {
        actor,
        what: from ? t`renamed the folder “${from}” to` : t`renamed the folder`,
        target: quoted(detail(entry, 'to') ?? label),
      };
    }
    case 'folder.deleted':
      return { actor, what: t`deleted the folder`, target: quoted(label) };
    case 'forwarding.updated':
      return { actor, what: t`set scans to be forwarded to`, target: label };
    case 'forwarding.removed':
      return { actor, what: t`stopped forwarding scans to`, target: label };
    default:
      // The action's own name (a newer server's): no words for it yet.
      return { actor, what: entry.action.replace(/[.-]/g, ' '), target: label };
  }
}

/** The whole line, as a screen reader or a test reads it: 'ada changed the role of bob from viewer to editor'. */
export function activitySentence(entry: WorkspaceActivity): string {
  const { actor, what, target } = describeActivity(entry);
  return [actor, what, target].filter(Boolean).join(' ');
}
