import type { User } from '../../../src/auth/auth.schema.js';
import type { Folder } from '../../../src/qr/qr.schema.js';
import type { AppDeps } from '../../app-deps.js';
import { toIso } from '../../db/database.js';
import { appError } from '../../errors.js';
import type { Page } from '../../../src/api/paging.js';
import type { FolderListQuery } from '../../../src/qr/qr-list.schema.js';
import {
  deleteFolderKeepingCodes,
  insertFolder,
  listFolderPageOf,
  listFoldersOf,
} from './folders.repository.js';
import { qrMessages } from '../../../src/qr/qr-messages.js';

export async function listFolders(deps: AppDeps, user: User): Promise<Folder[]> {
  const rows = await listFoldersOf(deps.db, user.id);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    created: toIso(r.created),
    qrCodeCount: Number(r.qr_code_count),
  }));
}

/** One page of the owner's folders for a list query (GET /api/folders). */
export async function listFolderPage(
  deps: AppDeps,
  user: User,
  query: FolderListQuery,
): Promise<Page<Folder>> {
  const { rows, total } = await listFolderPageOf(deps.db, user.id, query);
  return {
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      created: toIso(r.created),
      qrCodeCount: Number(r.qr_code_count),
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function createFolder(deps: AppDeps, user: User, name: string): Promise<Folder> {
  const row = await insertFolder(deps.db, user.id, name, deps.clock.now().toISOString());
  return { id: row.id, name: row.name, created: toIso(row.created), qrCodeCount: 0 };
}

export async function deleteFolder(deps: AppDeps, user: User, id: number) {
  if (!(await deleteFolderKeepingCodes(deps.db, user.id, id)))
    throw appError('NOT_FOUND', qrMessages.folderNotFound);
  return { success: true as const, message: 'Folder deleted; its QR codes moved to the root' };
}
