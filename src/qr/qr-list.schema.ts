import { z } from 'zod';
import { booleanParam, dateBoundParam, enumParam, pagedQuery } from '../api/paging.js';
import { qrTypes } from './qr-types.js';
import { scanVerdicts } from './scan-safety.js';

// The queries of GET /api/qr-codes and GET /api/folders: the paging convention of src/api/paging.ts with
// each list's sort keys and filters.

export const qrCodeSortKeys = ['created', 'updated', 'name', 'scans'] as const;
export type QrCodeSortKey = (typeof qrCodeSortKeys)[number];

const FOLDER_ID = /^[1-9]\d{0,9}$/;
const folderIdMessage = 'folderId: must be a folder id (a positive whole number) or root';

export const qrCodeListQuery = pagedQuery({
  sort: qrCodeSortKeys,
  defaultSort: 'created',
  searchIn: 'name',
  filters: {
    type: enumParam('type', qrTypes).optional().meta({ description: 'Only codes of this type.' }),
    dynamic: booleanParam('dynamic')
      .optional()
      .meta({ description: 'true: only dynamic codes; false: only static ones.' }),
    folderId: z
      .string({ error: folderIdMessage })
      .refine((v) => v === 'root' || (FOLDER_ID.test(v) && Number(v) <= 2_147_483_647), folderIdMessage)
      .transform((v): number | 'root' => (v === 'root' ? 'root' : Number(v)))
      .optional()
      .meta({ description: 'Only the codes in this folder; root: only those in no folder.' }),
    createdFrom: dateBoundParam('createdFrom', { end: false })
      .optional()
      .meta({ description: 'Only codes created at or after this date (ISO 8601 date or date-time).' }),
    createdTo: dateBoundParam('createdTo', { end: true })
      .optional()
      .meta({ description: 'Only codes created at or before this date (a date: up to its end, UTC).' }),
    verdict: enumParam('verdict', scanVerdicts)
      .optional()
      .meta({ description: 'Only codes whose last scan-safety check gave this verdict.' }),
  },
});
export type QrCodeListQuery = z.output<typeof qrCodeListQuery>;

export const folderSortKeys = ['name', 'created', 'qrCodeCount'] as const;
export type FolderSortKey = (typeof folderSortKeys)[number];

export const folderListQuery = pagedQuery({
  sort: folderSortKeys,
  defaultSort: 'name',
  // Folders have always come in name order, A to Z.
  defaultOrder: 'asc',
  searchIn: 'name',
});
export type FolderListQuery = z.output<typeof folderListQuery>;
