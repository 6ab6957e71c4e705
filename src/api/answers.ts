import { z } from 'zod';
import { errorCodeNames } from './error-codes.js';

// Answer shapes many paths share; each feature's own answers sit with its input schemas in `src/`.

/** `{ success, message }`: a change done, in words for the user. */
export const successMessageAnswer = z.object({ success: z.boolean(), message: z.string() });
export const successAnswer = z.object({ success: z.boolean() });
export const messageAnswer = z.object({ message: z.string() });

/** The error body of every 4xx and 5xx (operations.md): the message names the field at fault. */
export const errorAnswer = z
  .looseObject({
    message: z.string().meta({ description: 'What went wrong, naming the field at fault.' }),
    code: z.enum(errorCodeNames).meta({
      description: 'The cause, for a program to branch on (the table in docs/api.md); never renamed.',
    }),
    issues: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .meta({
        description: 'Each invalid or unknown field (VALIDATION_FAILED): its path and what is wrong.',
      }),
    retryAfterSeconds: z
      .number()
      .int()
      .optional()
      .meta({ description: 'RATE_LIMITED: seconds to wait, as the Retry-After header says.' }),
    limitReached: z.literal(true).optional().meta({ description: 'LIMIT_REACHED: the plan is full.' }),
    currentCount: z.number().int().optional().meta({ description: 'LIMIT_REACHED: codes the plan holds.' }),
    maxCount: z
      .number()
      .int()
      .nullable()
      .optional()
      .meta({ description: "LIMIT_REACHED: the plan's limit." }),
    requiresVerification: z
      .literal(true)
      .optional()
      .meta({ description: 'EMAIL_NOT_VERIFIED: confirm the e-mail address first.' }),
  })
  .meta({
    examples: [
      {
        message: 'Name is required',
        code: 'VALIDATION_FAILED',
        issues: [{ path: 'name', message: 'Name is required' }],
      },
    ],
  });
