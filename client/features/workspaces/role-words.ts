// A member's role as the screens name it: src/workspaces/roles.ts's English names (roleLabels,
// roleDescriptions), in the active language (translateShared), read when drawn.
import { i18n } from '@lingui/core';
import { roleDescriptions, roleLabels, type WorkspaceRole } from '../../../src/workspaces/roles';
import { translateShared } from '../../i18n/shared-messages';

/** The role's name, as a badge or a select shows it: 'Editor'. */
export function roleName(role: WorkspaceRole): string {
  return translateShared(roleLabels[role]);
}

/**
 * The role's name inside a sentence ('You joined Acme as editor'): in lower case, as English and most
 * languages write it there; German keeps its nouns' capital, and a language without case is unchanged.
 */
export function roleInSentence(role: WorkspaceRole): string {
  const name = roleName(role);
  return i18n.locale === 'de' ? name : name.toLocaleLowerCase(i18n.locale || 'en');
}

/** What the role may do on top of the one below it: 'Sees codes and analytics, downloads'. */
export function roleDescription(role: WorkspaceRole): string {
  return translateShared(roleDescriptions[role]);
}
