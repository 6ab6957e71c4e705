import type { z } from 'zod';
import { pagedQuery } from '../api/paging.js';

/** GET /api/user/sessions: the most recently seen first, as the settings page shows them. */
export const sessionSortKeys = ['lastSeen', 'created'] as const;
export type SessionSortKey = (typeof sessionSortKeys)[number];

export const sessionListQuery = pagedQuery({
  sort: sessionSortKeys,
  defaultSort: 'lastSeen',
  searchIn: 'user agent (the browser and system as the browser names them)',
});
export type SessionListQuery = z.output<typeof sessionListQuery>;
