import { z } from 'zod';

/**
 * Imports that keep every slug (issue 35, item 3): links from Shlink, Kutt, YOURLS or Bitly become
 * dynamic codes of the current workspace with the same back-half, on the default short link base or a
 * short domain, with their visit history where the source has one.
 *
 * An import is read first (a file, or a Shlink or Kutt server's API) and kept on the server for a day
 * as a preview: every link with what stands in its way (a conflict). The caller then sends its decisions
 * a page of rows at a time (`POST /api/imports/{id}/rows`), so a browser shows progress and a broken
 * connection loses nothing: a row made (or overwritten) once answers the same result when sent again,
 * while a row skipped or failed may be sent again with another decision.
 */

export const importSources = ['shlink', 'kutt', 'yourls', 'bitly'] as const;
export type ImportSource = (typeof importSources)[number];

export const importSourceLabels: Record<ImportSource, string> = {
  shlink: 'Shlink',
  kutt: 'Kutt',
  yourls: 'YOURLS',
  bitly: 'Bitly',
};

/** The sources read from a file (`auto`: told from the file itself), and those read from their API. */
export const fileSources = ['shlink', 'yourls', 'bitly'] as const;
export const apiSources = ['shlink', 'kutt'] as const;

/** The largest file an import reads (a YOURLS dump with its click log can be large). */
export const IMPORT_FILE_MAX_BYTES = 20 * 1024 * 1024;
/** The most links one import holds. */
export const IMPORT_MAX_LINKS = 10_000;
/** The most rows one call of `POST /api/imports/{id}/rows` carries out. */
export const IMPORT_ROWS_PER_CALL = 100;
/** How long an import's preview is kept. */
export const IMPORT_TTL_HOURS = 24;

export const importMessages = {
  notFound: 'Import not found',
  unknownFormat:
    'This file is not an export we can read: use a Shlink CSV export, a YOURLS SQL dump or CSV, or a Bitly CSV export',
  empty: 'The file holds no links',
  tooMany: `An import holds at most ${IMPORT_MAX_LINKS.toLocaleString('en-US')} links`,
  tooLarge: `The file must be at most ${IMPORT_FILE_MAX_BYTES / 1024 / 1024} MB`,
  unreachable: (label: string) => `${label} did not answer: check the address`,
  refusedKey: (label: string) => `${label} refused the API key`,
  notSource: (label: string) => `This address does not answer like ${label}'s API`,
  privateAddress:
    'This address is on a private network: an administrator can allow it with OUTBOUND_ALLOWED_HOSTS',
  // Conflicts, one per row at most.
  taken: 'This short link is taken',
  yours: (name: string) => `Your code “${name}” has this short link`,
  repeated: (row: number) => `Row ${row} has the same short link`,
  badDestination: 'The destination is not a web address this server can send scanners to',
  // Decisions refused.
  overwriteNotYours: 'Only a short link of one of your codes can be overwritten',
  renameNeedsSlug: 'Give the new short link',
  unknownRow: (row: number) => `Row ${row + 1} is not in this import`,
  cannotCreate: 'Skip this row or give it another short link',
} as const;

/** What stands in the way of importing a row as it is. */
export const conflictKinds = ['taken', 'yours', 'invalid', 'repeated', 'destination'] as const;
export type ConflictKind = (typeof conflictKinds)[number];

/** What becomes of a row: `create` as it is, `rename` with another slug, `overwrite` one of your codes' link. */
export const importActions = ['create', 'skip', 'rename', 'overwrite'] as const;
export type ImportAction = (typeof importActions)[number];

export const importRowStatuses = ['created', 'overwritten', 'skipped', 'failed'] as const;

const isoDate = z.string().describe('ISO 8601');

export const importConflictSchema = z.object({
  kind: z.enum(conflictKinds),
  message: z.string(),
  /** `yours`: the code that has the slug; `repeated`: absent. */
  codeId: z.number().int().optional(),
});

export const importRowResultSchema = z.object({
  status: z.enum(importRowStatuses),
  /** The code created or overwritten. */
  codeId: z.number().int().optional(),
  slug: z.string().optional(),
  shortUrl: z.string().optional(),
  /** Visits added to the code's analytics. */
  visits: z.number().int().optional(),
  /** Why a row failed or was skipped. */
  message: z.string().optional(),
});
export type ImportRowResult = z.infer<typeof importRowResultSchema>;

export const importLinkSchema = z.object({
  /** The row's index in the import (0-based): decisions name it. */
  row: z.number().int(),
  /** The back-half as the source has it. */
  slug: z.string(),
  destination: z.string(),
  title: z.string().nullable(),
  createdAt: isoDate.nullable(),
  tags: z.array(z.string()),
  /** The source's short domain of the link, when it names one. */
  sourceDomain: z.string().nullable(),
  /** Visits the source counts for the link, when known. */
  visits: z.number().int().nullable(),
  /** Whether its visits (each with its time) are imported into the analytics. */
  visitHistory: z.boolean(),
  conflict: importConflictSchema.nullable(),
  /** Set once the row was carried out. */
  result: importRowResultSchema.nullable(),
});
export type ImportLink = z.infer<typeof importLinkSchema>;

export const importPreviewSchema = z.object({
  id: z.string(),
  source: z.enum(importSources),
  sourceLabel: z.string(),
  /** The file's name, or the API's address. */
  origin: z.string(),
  createdAt: isoDate,
  expiresAt: isoDate,
  links: z.array(importLinkSchema),
  totals: z.object({
    links: z.number().int(),
    /** Visits with their time that the import brings (known before running for files; API: counted). */
    visits: z.number().int(),
    conflicts: z.number().int(),
    done: z.number().int(),
  }),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

export const importFileQuery = z.object({
  source: z.enum(['auto', ...fileSources]).default('auto'),
});

export const importConnectInput = z.object({
  source: z.enum(apiSources),
  /** The server's address, e.g. https://s.example.com (its API path is added). */
  url: z.url({ protocol: /^https?$/, error: 'URL must be an http(s) address' }).max(2000),
  apiKey: z.string().trim().min(1, 'API key is required').max(500),
});

export const importIdInput = z.object({ id: z.string().min(1).max(64) });

export const importRowDecision = z.object({
  row: z.number().int().min(0),
  action: z.enum(importActions),
  /** `rename`: the new back-half (the rules of a chosen one: 3–64 letters, digits, - and _). */
  slug: z.string().max(200).optional(),
});
export type ImportRowDecision = z.infer<typeof importRowDecision>;

export const importRowsInput = z.object({
  id: z.string().min(1).max(64),
  /** Where the codes go; null or absent: the root. */
  folderId: z.number().int().positive().nullable().optional(),
  /** The short domain of their links; null or absent: the default base. */
  domainId: z.number().int().positive().nullable().optional(),
  rows: z
    .array(importRowDecision)
    .min(1, 'Send at least one row')
    .max(IMPORT_ROWS_PER_CALL, `Send at most ${IMPORT_ROWS_PER_CALL} rows at a time`),
});

export const importRowsAnswer = z.object({
  results: z.array(importRowResultSchema.extend({ row: z.number().int() })),
  /** Rows of the import made or overwritten so far (this call's included). */
  done: z.number().int(),
  /** The workspace's codes after this call, and its plan's limit (null: none). */
  currentCount: z.number().int(),
  maxCount: z.number().int().nullable(),
});
export type ImportRowsAnswer = z.infer<typeof importRowsAnswer>;

/** Where a code came from: shown on its details and analytics. */
export const codeImportSchema = z.object({
  source: z.enum(importSources),
  sourceLabel: z.string(),
  /** The link as it was at the source (its short URL), when known. */
  sourceLink: z.string().nullable(),
  /** Visits imported into its analytics. */
  visits: z.number().int(),
  importedAt: isoDate,
});
export type CodeImport = z.infer<typeof codeImportSchema>;
