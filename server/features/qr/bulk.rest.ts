import {
  BULK_FILE_MAX_BYTES,
  BULK_MAX_ROWS,
  bulkArchiveInput,
  bulkCreateAnswer,
  bulkCreateInput,
  bulkParseAnswer,
} from '../../../src/qr/bulk.js';
import { qrLimitReachedAnswer } from '../../../src/qr/qr.schema.js';
import { defineRoute, sendAttachment } from '../../rest/rest-kit.js';
import { archiveQrCodes } from './bulk-archive.js';
import { bulkParseMessages, parseSpreadsheet } from './bulk-parse.js';
import { bulkRepeatsAnswer, bulkRepeatsInput } from './bulk-repeats.js';

/** 5,000 codes of long content (vCards, events) are more than the app's 1 MiB of JSON. */
const BULK_BODY_LIMIT = 16 * 1024 * 1024;

export const bulkRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/qr-codes/bulk/parse',
    tokens: 'write',
    summary: `Multipart field \`file\`: a CSV or Excel (.xlsx) file of at most 5 MB → its first sheet as text { fileName, columns, rows, truncated } (at most ${BULK_MAX_ROWS} rows).`,
    access: 'user',
    role: 'editor',
    answer: bulkParseAnswer,
    multipart: {
      field: 'file',
      maxBytes: BULK_FILE_MAX_BYTES,
      tooLargeMessage: bulkParseMessages.tooLarge,
      what: 'file',
    },
    // It reads a file and stores nothing: not a procedure (as the logo upload).
    handler: ({ ctx, file, fileName }) => parseSpreadsheet(file, fileName, ctx.config),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/qr-codes/bulk/repeats',
    tokens: 'write',
    summary:
      'The same { codes } as POST /api/qr-codes/bulk → { repeats: [{ row, id }] }: the rows whose name, type and content repeat a code you already have. Creates nothing.',
    access: 'user',
    role: 'editor',
    answer: bulkRepeatsAnswer,
    body: bulkRepeatsInput,
    bodyLimit: BULK_BODY_LIMIT,
    handler: ({ caller, body }) => caller.qr.bulkRepeats(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/qr-codes/bulk',
    tokens: 'write',
    summary: `Creates up to ${BULK_MAX_ROWS} codes at once → 201 { created, skipped, repeated, currentCount, maxCount }; any invalid row is 400 and creates nothing; 403 { limitReached, … } when they do not all fit and allOrNothing is true; repeats: "skip" leaves out rows that repeat a code you have (default "create").`,
    access: 'user',
    role: 'editor',
    answer: bulkCreateAnswer,
    otherAnswers: [
      {
        status: 403,
        description: 'The codes do not all fit the plan (allOrNothing).',
        schema: qrLimitReachedAnswer,
      },
    ],
    body: bulkCreateInput,
    bodyLimit: BULK_BODY_LIMIT,
    status: 201,
    handler: ({ caller, body }) => caller.qr.bulkCreate(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/qr-codes/archive',
    tokens: 'write',
    summary:
      "The caller's codes { ids, format: png|svg, size } as one ZIP, streamed: each code's image, named after it, and codes.csv (id, name, short_url). Any id not the caller's is 404.",
    access: 'user',
    role: 'viewer',
    produces: { 'application/zip': 'One image per code and codes.csv.' },
    body: bulkArchiveInput,
    // A file download, so not a procedure (as the redirect export).
    handler: async ({ ctx, owner, body, reply }) =>
      sendAttachment(reply, await archiveQrCodes(ctx, owner, body)),
  }),
];
