import { z } from 'zod';

// Personal API tokens: `Authorization: Bearer <token>` on the documented /api paths.

export const tokenScopes = ['read', 'write', 'admin'] as const;
export type TokenScope = (typeof tokenScopes)[number];

/** Requests a token may make in one minute. */
export const TOKEN_RATE_PER_MINUTE = 600;

export const createTokenInput = z
  .object(
    {
      name: z
        .string({ error: (i) => (i.input === undefined ? 'Name is required' : 'Name must be text') })
        .trim()
        .min(1, 'Name is required')
        .max(100, 'Name must be at most 100 characters'),
      scope: z.enum(tokenScopes, { error: 'Scope must be read, write or admin' }),
      /** Days until it stops working; none: it works until revoked. */
      expiresInDays: z
        .number({ error: 'expiresInDays must be a number of days' })
        .int('expiresInDays must be a whole number of days')
        .min(1, 'expiresInDays must be between 1 and 3650')
        .max(3650, 'expiresInDays must be between 1 and 3650')
        .nullable()
        .optional(),
    },
    { error: 'Request body must be a JSON object' },
  )
  .meta({ examples: [{ name: 'Deploy script', scope: 'write', expiresInDays: 90 }] });
export type CreateTokenInput = z.input<typeof createTokenInput>;

export const tokenIdInput = z.object({
  id: z.coerce
    .number({ error: 'Token id must be a number' })
    .int('Token id must be a whole number')
    .positive('Token id must be a positive number')
    .max(2_147_483_647, 'Token id is too large'),
});

export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: z.enum(tokenScopes),
  prefix: z.string().meta({ description: "The first characters, to tell tokens apart: 'qrc_Ab12…'." }),
  createdAt: z.string().meta({ format: 'date-time' }),
  lastUsedAt: z.string().nullable().meta({ format: 'date-time' }),
  expiresAt: z.string().nullable().meta({ format: 'date-time' }),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** POST /api/user/tokens: the token itself, shown this once, and its listing. */
export const createdTokenSchema = z.object({ token: z.string(), apiToken: apiTokenSchema });

export const tokenMessages = {
  notFound: 'Token not found',
  adminScope: 'Only admins can create a token with the admin scope',
  invalid: 'Invalid or expired API token',
  readOnly: 'This API token is read-only',
  notAdminScope: 'This API token may not call admin paths: create one with the admin scope',
  sessionOnly:
    'API tokens cannot call this path: sign-in, your account, passwords, sessions and tokens need the app',
} as const;
