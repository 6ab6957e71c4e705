import { z } from 'zod';

// Answer shapes many paths share; each feature's own answers sit with its input schemas in `src/`.

/** `{ success, message }`: a change done, in words for the user. */
export const successMessageAnswer = z.object({ success: z.boolean(), message: z.string() });
export const successAnswer = z.object({ success: z.boolean() });
export const messageAnswer = z.object({ message: z.string() });

/** The error body of every 4xx and 5xx (operations.md): the message names the field at fault. */
export const errorAnswer = z
  .looseObject({
    message: z.string().meta({ description: 'What went wrong, naming the field at fault.' }),
    code: z
      .string()
      .meta({ examples: ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT'] }),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({
    examples: [
      {
        message: 'Name is required',
        code: 'BAD_REQUEST',
        issues: [{ path: 'name', message: 'Name is required' }],
      },
    ],
  });
