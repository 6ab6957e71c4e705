import type { User } from '../../src/auth/auth.schema.js';
import { appError, refuse } from '../errors.js';

/** Who may call: anyone, a signed-in user (else 401), or an admin (else 401, then 403). */
export type Access = 'public' | 'user' | 'admin';

/** The one check behind every procedure and REST route; runs before the input is read. */
export function checkAccess(access: Access, user: User | null): void {
  if (access === 'public') return;
  if (!user) throw appError('UNAUTHORIZED', 'Not signed in');
  if (access === 'admin' && !user.isAdmin) throw refuse('ADMIN_REQUIRED', 'Admin access required');
}
