import { z } from 'zod';
import { messageAnswer, successAnswer, successMessageAnswer } from '../../../src/api/answers.js';
import {
  emailLinkInput,
  linkRequiredSchema,
  loginInput,
  logoutAnswerSchema,
  publicConfigSchema,
  registerInput,
  resetPasswordInput,
  ssoLinkInput,
  ssoLinkSchema,
  tokenInput,
  twoFactorRequiredSchema,
  userSchema,
  verificationRequiredSchema,
} from '../../../src/auth/auth.schema.js';
import { defineRoute } from '../../rest/rest-kit.js';

export const authRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/user',
    tokens: 'read',
    summary: 'The signed-in user; 401 when signed out.',
    access: 'user',
    answer: userSchema,
    handler: ({ caller }) => caller.auth.current(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/login',
    summary:
      "{ username, password } → the user, with the session cookie. With LDAP configured the directory's names and passwords are taken too.",
    access: 'public',
    answer: z.union([userSchema, twoFactorRequiredSchema, linkRequiredSchema]),
    body: loginInput,
    handler: ({ caller, body }) => caller.auth.login(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/register',
    summary: '{ username, password, name, email } → 201 the user, or 200 { requiresVerification, message }.',
    access: 'public',
    answer: userSchema,
    status: 201,
    otherAnswers: [
      {
        status: 200,
        description: 'The address must be verified first: no session yet, a message to read.',
        schema: verificationRequiredSchema,
      },
    ],
    body: registerInput,
    handler: async ({ caller, body, reply }) => {
      const result = await caller.auth.register(body);
      if (result.requiresVerification) {
        return reply.status(200).send({ requiresVerification: true, message: result.message });
      }
      return result.user;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/logout',
    summary:
      'Ends the session on the server and clears the cookie; `logoutUrl` when the company sign-in should sign out too.',
    access: 'public',
    answer: logoutAnswerSchema,
    handler: ({ caller }) => caller.auth.logout(),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/auth/sso/link',
    summary:
      "This browser's pending link of a company account to the existing account with its address; null when none.",
    access: 'public',
    answer: ssoLinkSchema.nullable(),
    handler: ({ caller }) => caller.auth.ssoLink(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/auth/sso/link',
    summary:
      '{ password } of the existing account → the user, signed in, with the company account linked (once).',
    access: 'public',
    answer: z.union([userSchema, twoFactorRequiredSchema]),
    body: ssoLinkInput,
    handler: ({ caller, body }) => caller.auth.ssoLinkComplete(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/password-reset/request',
    summary: '{ email } → the same neutral message whether or not the address is known.',
    access: 'public',
    answer: messageAnswer,
    body: emailLinkInput,
    handler: ({ caller, body }) => caller.auth.requestPasswordReset(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/password-reset/verify',
    summary: '{ token } → { success }, or 400 when the token is unusable.',
    access: 'public',
    answer: successAnswer,
    body: tokenInput,
    handler: ({ caller, body }) => caller.auth.verifyResetToken(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/password-reset/reset',
    summary: '{ token, password } → { success, message }; ends every session of the account.',
    access: 'public',
    answer: successMessageAnswer,
    body: resetPasswordInput,
    handler: ({ caller, body }) => caller.auth.resetPassword(body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/email/verify-token',
    summary: '?token= marks the address verified → { success, message }.',
    access: 'public',
    answer: successMessageAnswer,
    query: tokenInput,
    handler: ({ caller, query }) => caller.auth.verifyEmail(query),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/email/undo-change',
    summary:
      "{ token } from the old address's mail (7 days) puts that address back, signs every browser out and revokes every API token → { success, message }.",
    access: 'public',
    answer: successMessageAnswer,
    body: tokenInput,
    handler: ({ caller, body }) => caller.auth.undoEmailChange(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/email/resend-verification',
    summary: '{ email } → the same neutral message either way.',
    access: 'public',
    answer: messageAnswer,
    body: emailLinkInput,
    handler: ({ caller, body }) => caller.auth.resendVerification(body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/config',
    tokens: 'read',
    summary: 'Public facts the client needs before sign-in (the demo account, the free limit).',
    access: 'public',
    answer: publicConfigSchema,
    handler: ({ caller }) => caller.auth.publicConfig(),
  }),
];
