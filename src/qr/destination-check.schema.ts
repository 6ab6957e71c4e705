import { z } from 'zod';

/** The answers of the destination checks (the words are in destination-check.ts). */
export const destinationIssueSchema = z.object({
  codeId: z.number().int(),
  codeName: z.string(),
  url: z.string(),
  /** Which of the code's URLs: "Destination", "Rule 2: Destination" or "Fallback URL". */
  label: z.string(),
  /** ok: answers; failing: failed once; down: failed twice in a row or more. */
  state: z.enum(['ok', 'failing', 'down']),
  problem: z.string().nullable(),
  httpStatus: z.number().int().nullable(),
  /** When it first failed in this run of failures. */
  since: z.string().nullable(),
  checkedAt: z.string().nullable(),
  /** Whether scans go to the fallback URL while it is down (the code's own choice). */
  usingFallback: z.boolean(),
});
export type DestinationIssue = z.infer<typeof destinationIssueSchema>;

export const destinationIssuesAnswer = z.object({ items: z.array(destinationIssueSchema) });
