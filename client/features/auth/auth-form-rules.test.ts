import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { emailLinkInput, loginInput, registerInput } from '../../../src/auth/auth.schema';
import { check, emailLinkRules, loginRules, registerRules, type Rules } from './auth-form-rules';

/** What the forms showed with @mantine/form's schemaResolver: each field's first issue. */
function schemaErrors(schema: z.ZodType, values: Record<string, string>): Record<string, string> {
  const result = schema.safeParse(values);
  const errors: Record<string, string> = {};
  for (const issue of result.success ? [] : result.error.issues) {
    const path = issue.path.join('.');
    errors[path] ??= issue.message;
  }
  return errors;
}

const long = (n: number, c = 'a') => c.repeat(n);
const usernames = [
  '',
  'ab',
  ' ab ',
  'abc',
  '  abc  ',
  'a b',
  'a\tb',
  'a\u0001b',
  long(50),
  long(51),
  ' ' + long(50),
];
const passwords = ['', ' ', 'abcde', 'abcdef', '      ', long(256), long(257)];
const names = ['', 'A', ' A ', 'Ad', long(100), long(101), '  ' + long(100) + '  '];
const emails = [
  '',
  'ada',
  'ada@example',
  'ada@example.com',
  ' ada@example.com ',
  'a.b+c@sub.example.org',
  '.ada@example.com',
  'ada.@example.com',
  'a..b@example.com',
  'ada@-example.com',
  'ada@example.c',
  "o'neil@example.ie",
  'ada@exa_mple.com',
  `${long(243)}@example.com`,
  `${long(242)}@example.com`,
  `${long(250)}@x`,
];

/** Every value of each field against a valid value of the others, and all fields wrong at once. */
function cases<T extends Record<string, string>>(valid: T, values: { [K in keyof T]: string[] }): T[] {
  const out: T[] = [valid];
  for (const key of Object.keys(values) as (keyof T)[])
    for (const value of values[key]) out.push({ ...valid, [key]: value });
  out.push(Object.fromEntries(Object.keys(valid).map((k) => [k, ''])) as T);
  return out;
}

function agree<T extends Record<string, string>>(schema: z.ZodType, rules: Rules<T>, inputs: T[]) {
  for (const values of inputs)
    expect(check(rules, values), JSON.stringify(values)).toEqual(schemaErrors(schema, values));
}

describe('the sign-in forms’ checks (auth-form-rules.ts) and src/auth/auth.schema.ts', () => {
  it('give the login form the same message for each field as loginInput', () => {
    agree(
      loginInput,
      loginRules,
      cases({ username: 'demo', password: 'demo123' }, { username: usernames, password: passwords }),
    );
  });

  it('give the register form the same message for each field as registerInput', () => {
    agree(
      registerInput,
      registerRules,
      cases(
        { username: 'ada', password: 'a long passphrase', name: 'Ada Lovelace', email: 'ada@example.com' },
        { username: usernames, password: passwords, name: names, email: emails },
      ),
    );
  });

  it('give the e-mail link form the same message as emailLinkInput', () => {
    agree(emailLinkInput, emailLinkRules, cases({ email: 'ada@example.com' }, { email: emails }));
  });

  it('name what is wrong in words a person reads', () => {
    expect(check(registerRules, { username: 'a b', password: '123', name: 'A', email: 'ada' })).toEqual({
      username: 'Username cannot contain spaces',
      password: 'Password must be at least 6 characters',
      name: 'Name must be at least 2 characters',
      email: 'Invalid email address',
    });
    expect(check(loginRules, { username: 'demo', password: '' })).toEqual({
      password: 'Password is required',
    });
  });
});
