import { successMessageAnswer } from '../../../src/api/answers.js';
import { userSchema } from '../../../src/auth/auth.schema.js';
import {
  recoveryCodesSchema,
  twoFactorCodeInput,
  twoFactorDisableInput,
  twoFactorEnrolmentSchema,
  twoFactorPasswordInput,
  twoFactorStatusSchema,
} from '../../../src/auth/account.schema.js';
import { defineRoute } from '../../rest/rest-kit.js';

export const twoFactorRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/login/two-factor',
    summary: "{ code } (6 digits, or a recovery code) finishes this browser's pending sign-in → the user.",
    access: 'public',
    answer: userSchema,
    body: twoFactorCodeInput,
    handler: ({ caller, body }) => caller.auth.loginTwoFactor(body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/user/two-factor',
    summary: 'Whether two-factor sign-in is on, and how many recovery codes are left.',
    access: 'user',
    answer: twoFactorStatusSchema,
    handler: ({ caller }) => caller.twoFactor.status(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/user/two-factor/begin',
    summary: '{ password } → { secret, otpauthUrl }: a new secret, counted once a code confirms it.',
    access: 'user',
    answer: twoFactorEnrolmentSchema,
    body: twoFactorPasswordInput,
    handler: ({ caller, body }) => caller.twoFactor.begin(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/user/two-factor/confirm',
    summary: '{ code } turns two-factor sign-in on → { recoveryCodes } (ten, shown this once).',
    access: 'user',
    answer: recoveryCodesSchema,
    body: twoFactorCodeInput,
    handler: ({ caller, body }) => caller.twoFactor.confirm(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/user/two-factor/disable',
    summary: '{ password, code } turns two-factor sign-in off.',
    access: 'user',
    answer: successMessageAnswer,
    body: twoFactorDisableInput,
    handler: ({ caller, body }) => caller.twoFactor.disable(body),
  }),
];
