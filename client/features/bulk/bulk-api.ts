import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import type {
  BulkCodeInput,
  BulkCreateAnswer,
  BulkCreateInput,
  BulkParseAnswer,
  BulkRepeatsChoice,
} from '../../../src/qr/bulk';
import { translateShared } from '../../i18n/shared-messages';
import { failureMessage } from '../../lib/failure-message';
import { saveBlob } from '../../lib/save-blob';
import { workspaceHeaders } from '../../lib/trpc';

/** A failed call's message for a person: the server's own (translated), or that it could not be reached. */
export function callFailure(error: unknown, fallback: string): string {
  if (error instanceof TypeError) return t`The server could not be reached. Please try again.`;
  return error instanceof Error && error.message ? translateShared(error.message) : fallback;
}

/** POST /api/qr-codes/bulk/parse (multipart field `file`): the spreadsheet's first sheet as text. */
export async function parseSpreadsheet(file: File): Promise<BulkParseAnswer> {
  const body = new FormData();
  body.append('file', file);
  const res = await fetch('/api/qr-codes/bulk/parse', {
    method: 'POST',
    body,
    credentials: 'same-origin',
    headers: workspaceHeaders(),
  });
  if (!res.ok) throw new Error(await failureMessage(res));
  return (await res.json()) as BulkParseAnswer;
}

/** What to do with rows that repeat a code the user has (POST /api/qr-codes/bulk `repeats`). */
export type RepeatsChoice = BulkRepeatsChoice;

/** A row that repeats one of the user's codes: its index in `codes`, and that code's id. */
export type BulkRepeat = BulkCreateAnswer['repeated'][number];

/** The create call's answer, with the rows left out as repeats. */
export type BulkCreateResult = BulkCreateAnswer;

/**
 * POST /api/qr-codes/bulk/repeats: which of the codes repeat one of the user's (same name, type and
 * content). The server decides, as it does again when creating.
 */
export async function findRepeats(
  codes: Pick<BulkCodeInput, 'name' | 'type' | 'content'>[],
): Promise<BulkRepeat[]> {
  const res = await fetch('/api/qr-codes/bulk/repeats', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...workspaceHeaders() },
    body: JSON.stringify({ codes }),
    credentials: 'same-origin',
  });
  if (!res.ok) throw new Error(await failureMessage(res));
  return ((await res.json()) as { repeats: BulkRepeat[] }).repeats;
}

/**
 * POST /api/qr-codes/bulk: the REST path rather than tRPC's qr.bulkCreate, because 5,000 rows of vCards
 * pass the 1 MiB every other call is held to (the path takes 16 MiB).
 */
export async function createInBulk(
  input: BulkCreateInput & { repeats: RepeatsChoice },
): Promise<BulkCreateResult> {
  const res = await fetch('/api/qr-codes/bulk', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...workspaceHeaders() },
    body: JSON.stringify(input),
    credentials: 'same-origin',
  });
  if (!res.ok) throw new Error(await failureMessage(res));
  return (await res.json()) as BulkCreateResult;
}

/**
 * POST /api/qr-codes/archive: the codes' images and codes.csv as one ZIP, read as it streams in so the
 * page can show how much has arrived (`onProgress` gets the bytes so far), then saved as qr-codes.zip.
 */
export async function downloadArchive(
  ids: number[],
  format: 'png' | 'svg',
  onProgress: (bytes: number) => void,
): Promise<string> {
  const res = await fetch('/api/qr-codes/archive', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...workspaceHeaders() },
    body: JSON.stringify({ ids, format }),
    credentials: 'same-origin',
  });
  if (!res.ok) throw new Error(await failureMessage(res));
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  const reader = res.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.byteLength;
      onProgress(bytes);
    }
  } else {
    chunks.push(new Uint8Array(await res.arrayBuffer()));
  }
  const fileName = 'qr-codes.zip';
  saveBlob(new Blob(chunks, { type: 'application/zip' }), fileName);
  return fileName;
}

/** A small file showing the columns the import understands. */
export function sampleCsv(): Blob {
  const lines = [
    'name,type,url,folder,dynamic',
    'Spring menu,URL,https://example.com/menu,Menus,yes',
    'Table 1,URL,https://example.com/table/1,Tables,yes',
    'Table 2,URL,https://example.com/table/2,Tables,yes',
    'Website,URL,example.com,,no',
  ];
  return new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv' });
}

/** '512 B', '12 kB', '4.1 MB', in the screens' language (German '4,1 MB', French '12 ko'). */
export function formatBytes(bytes: number): string {
  const locale = i18n.locale || 'en';
  if (locale === 'en') {
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} kB`;
    return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  }
  const unit = bytes < 1024 ? 'byte' : bytes < 1024 * 1024 ? 'kilobyte' : 'megabyte';
  const value = unit === 'byte' ? bytes : unit === 'kilobyte' ? bytes / 1024 : bytes / 1024 / 1024;
  const digits = unit === 'megabyte' ? 1 : 0;
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}
