import { z } from 'zod';
import { errorAnswer, messageAnswer, successAnswer, successMessageAnswer } from '../../../src/api/answers.js';
import { userSchema } from '../../../src/auth/auth.schema.js';
import {
  accountMessages,
  activeSessionSchema,
  changePasswordInput,
  emailTestInput,
  mailCheckResultSchema,
  preferencesAnswer,
  profilePictureAnswer,
  sessionIdInput,
  signedOutOthersAnswer,
  signOutOthersInput,
  updatePreferencesInput,
  updateProfileInput,
} from '../../../src/auth/account.schema.js';
import { sessionListQuery } from '../../../src/auth/session-list.schema.js';
import { sendPage } from '../../rest/paging.js';
import { defineRoute } from '../../rest/rest-kit.js';
import { MAX_UPLOAD_BYTES } from '../uploads/image-sniff.js';
import { listSessionPage, storeProfilePicture } from './account.service.js';

export const accountRoutes = [
  defineRoute({
    method: 'PUT',
    path: '/api/user/profile',
    summary:
      '{ name, email, currentPassword? } → the user. A new address is unverified until its link is followed; changing a verified one needs currentPassword; the old address can undo the change for 7 days.',
    access: 'user',
    answer: userSchema,
    body: updateProfileInput,
    handler: ({ caller, body }) => caller.account.updateProfile(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/user/email/verification-link',
    summary:
      "Mails a new verification link to the caller's unverified address → { message }. One a minute and five an hour (429 with Retry-After); 409 when the address is verified already. Not for API tokens: it sends mail on the user's behalf.",
    access: 'user',
    answer: messageAnswer,
    otherAnswers: [
      { status: 409, description: 'The address is verified already.', schema: errorAnswer },
      {
        status: 429,
        description:
          'One a minute and five an hour: the message says when to try again, Retry-After in seconds.',
        schema: errorAnswer,
      },
    ],
    handler: ({ caller }) => caller.account.sendVerificationLink(),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/user/password',
    summary:
      '{ currentPassword, newPassword } → { success, message }; a wrong current password is a 400 on currentPassword. Ends every other session.',
    access: 'user',
    answer: successMessageAnswer,
    body: changePasswordInput,
    handler: ({ caller, body }) => caller.account.changePassword(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/upload/profile-picture',
    summary: 'Multipart field `profilePicture`: a JPEG, PNG or SVG (sanitised) under 5 MB → { url, user }.',
    access: 'user',
    answer: profilePictureAnswer,
    multipart: {
      field: 'profilePicture',
      maxBytes: MAX_UPLOAD_BYTES,
      tooLargeMessage: accountMessages.pictureSize,
    },
    handler: ({ ctx, file }) => storeProfilePicture(ctx, ctx.user, file),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/user/preferences',
    tokens: 'read',
    summary:
      "The theme, the notification and login-alert switches and the mails' language (null: the browser's), stored per user.",
    access: 'user',
    answer: preferencesAnswer,
    handler: ({ caller }) => caller.account.preferences(),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/user/preferences',
    summary:
      'Any of { theme, productUpdates, scanDigest, scanThresholds, loginAlerts, language, timeZone } → all preferences.',
    access: 'user',
    answer: preferencesAnswer,
    body: updatePreferencesInput,
    handler: ({ caller, body }) => caller.account.updatePreferences(body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/user/sessions',
    summary:
      "The caller's signed-in browsers, most recently seen first: browser, OS, masked address, created, last seen, current; one page (?page, ?pageSize ≤ 500, 100 by default), searched in the user agent (?search), sorted (?sort=lastSeen|created, ?order); X-Total-Count and Link headers.",
    access: 'user',
    paged: true,
    query: sessionListQuery,
    answer: z.array(activeSessionSchema),
    handler: async ({ ctx, query, req, reply }) =>
      sendPage(req, reply, await listSessionPage(ctx, ctx.user, query)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/user/sessions/:id',
    summary: "Signs one of the caller's sessions out; any other id is 404.",
    access: 'user',
    object: 'session',
    answer: successAnswer,
    params: sessionIdInput,
    handler: ({ caller, params }) => caller.account.revokeSession(params),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/user/sessions/sign-out-others',
    summary:
      'Signs out every session of the caller but this one; `{ revokeTokens: true }` also revokes every API token → { success, count, tokensRevoked }.',
    access: 'user',
    answer: signedOutOthersAnswer,
    body: signOutOthersInput,
    handler: ({ caller, body }) => caller.account.revokeOtherSessions(body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/email/verify',
    tokens: 'read',
    summary: 'Admins: checks the mail transport (SMTP login, or the outbox) → { success, message }.',
    access: 'admin',
    answer: mailCheckResultSchema,
    handler: ({ caller }) => caller.account.verifyEmailService(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/email/test',
    tokens: 'write',
    summary:
      'Admins: { to, subject, message, from? } sends a test mail → { success, message }; a refused sender answers 502 with senderRejected and the senders to verify.',
    access: 'admin',
    answer: mailCheckResultSchema,
    body: emailTestInput,
    handler: ({ caller, body }) => caller.account.sendTestEmail(body),
  }),
];
