// The sign-in forms' field messages (auth-form-rules.ts) in the reader's language. The rules keep the
// English of src/auth/auth.schema.ts, which their test compares with the schema's messages; the form
// translates a message as it shows it, found by its English. A message missing here shows in English.
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { EMAIL_MAX, NAME_MAX, PASSWORD_MAX, USERNAME_MAX } from './auth-form-rules';

const usernameMax = USERNAME_MAX;
const passwordMax = PASSWORD_MAX;
const nameMax = NAME_MAX;
const emailMax = EMAIL_MAX;

const byEnglish = new Map<string, MessageDescriptor>([
  ['Username must be at least 3 characters', msg`Username must be at least 3 characters`],
  [
    `Username must be at most ${USERNAME_MAX} characters`,
    msg`Username must be at most ${usernameMax} characters`,
  ],
  ['Username cannot contain spaces', msg`Username cannot contain spaces`],
  ['Password is required', msg`Password is required`],
  ['Password must be at least 6 characters', msg`Password must be at least 6 characters`],
  [
    `Password must be at most ${PASSWORD_MAX} characters`,
    msg`Password must be at most ${passwordMax} characters`,
  ],
  ['Name must be at least 2 characters', msg`Name must be at least 2 characters`],
  [`Name must be at most ${NAME_MAX} characters`, msg`Name must be at most ${nameMax} characters`],
  [`Email must be at most ${EMAIL_MAX} characters`, msg`Email must be at most ${emailMax} characters`],
  ['Invalid email address', msg`Invalid email address`],
  ['Please enter a valid email address', msg`Please enter a valid email address`],
]);

/** The message to translate for a rule's English message, or undefined when there is none. */
export function ruleMessage(english: string): MessageDescriptor | undefined {
  return byEnglish.get(english);
}
