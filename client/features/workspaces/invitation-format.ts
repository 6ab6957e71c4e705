import { plural, t } from '@lingui/core/macro';
import type { WorkspaceInvitation } from '../../../src/workspaces/workspace.schema';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** When an invitation stops being valid, as its card says it: 'Expires in 6 days', 'Expires in 3 hours'. */
export function expiryLabel(expiresAt: string, now: number): string {
  const left = Date.parse(expiresAt) - now;
  if (Number.isNaN(left)) return t`Expiry unknown`;
  if (left <= 0) return t({ message: 'Expired', context: 'an invitation' });
  if (left < HOUR_MS) return t`Expires in less than an hour`;
  if (left < DAY_MS) {
    const hours = Math.floor(left / HOUR_MS);
    return plural(hours, { one: 'Expires in # hour', other: 'Expires in # hours' });
  }
  const days = Math.floor(left / DAY_MS);
  return plural(days, { one: 'Expires in # day', other: 'Expires in # days' });
}

/** An invitation can still be accepted or declined. */
export function isOpen(invitation: Pick<WorkspaceInvitation, 'status' | 'expiresAt'>, now: number): boolean {
  return invitation.status === 'pending' && Date.parse(invitation.expiresAt) > now;
}
