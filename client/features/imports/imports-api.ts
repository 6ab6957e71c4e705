import type { ImportPreview, fileSources } from '../../../src/imports/import.schema';
import { failureMessage } from '../../lib/failure-message';
import { workspaceHeaders } from '../../lib/trpc';

/**
 * POST /api/imports/file (multipart field `file`): an export file read into an import to review. REST
 * only, as the bulk spreadsheet: tRPC takes no file. Throws the server's message (the file is not an
 * export we read, too large…), or a TypeError when the server could not be reached.
 */
export async function uploadImportFile(
  file: File,
  source: (typeof fileSources)[number] | 'auto',
): Promise<ImportPreview> {
  const body = new FormData();
  body.append('file', file);
  const res = await fetch(`/api/imports/file?source=${encodeURIComponent(source)}`, {
    method: 'POST',
    body,
    credentials: 'same-origin',
    headers: workspaceHeaders(),
  });
  if (!res.ok) throw new Error(await failureMessage(res));
  return (await res.json()) as ImportPreview;
}
