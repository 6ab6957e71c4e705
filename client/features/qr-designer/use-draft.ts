// The Create page's draft: kept in this browser's localStorage, one per signed-in user. No server call.
import { useCallback, useMemo } from 'react';
import { z } from 'zod';
import { readCustomization } from '../../../src/qr/customization';
import { normalizeQrType } from '../../../src/qr/qr-types';
import { QR_NAME_MAX } from '../../../src/qr/qr-limits';
import { trpc } from '../../lib/trpc';
import { smartDraftOf, smartValuesFromDraft } from './smart-values';
import { fieldsFor, type DesignerValues } from './designer-values';

const STORAGE_PREFIX = 'qr-creator:create-draft';

export interface StoredDraft extends DesignerValues {
  /** ISO time the draft was saved. */
  savedAt: string;
}

const storedDraftSchema = z.object({
  name: z.string().max(QR_NAME_MAX).catch(''),
  type: z.string().catch('url'),
  isDynamic: z.boolean().catch(true),
  fields: z.record(z.string(), z.unknown()).catch({}),
  customization: z.unknown(),
  folderId: z.number().int().positive().nullable().catch(null),
  smart: z.unknown(),
  slug: z.string().max(200).catch(''),
  // A domain taken from the workspace since is dropped when the draft is used (QrDesigner).
  domainId: z.number().int().positive().nullable().catch(null),
  savedAt: z.string().catch(''),
});

/** Reads a stored draft leniently: anything unusable falls back to its default, garbage to null. */
export function parseDraft(raw: string | null): StoredDraft | null {
  if (!raw) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = storedDraftSchema.safeParse(json);
  if (!parsed.success) return null;
  const d = parsed.data;
  const type = normalizeQrType(d.type);
  return {
    name: d.name,
    type,
    isDynamic: d.isDynamic,
    fields: fieldsFor(type, d.fields),
    customization: readCustomization(d.customization),
    folderId: d.folderId,
    smart: smartValuesFromDraft(d.smart),
    slug: d.slug,
    domainId: d.domainId,
    savedAt: d.savedAt,
  };
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage can be disabled (privacy mode, sandboxed frames).
    return null;
  }
}

export function draftKey(userId: number | null | undefined) {
  return userId == null ? STORAGE_PREFIX : `${STORAGE_PREFIX}:${userId}`;
}

export interface DraftStore {
  load: () => StoredDraft | null;
  /** Returns false when the browser refused to store it. */
  save: (values: DesignerValues) => boolean;
  clear: () => void;
}

/** The draft of the signed-in user (one key per user, so a shared browser never mixes drafts). */
export function useDraft(): DraftStore {
  const userId = trpc.auth.me.useQuery().data?.id;
  const key = draftKey(userId);

  const load = useCallback(() => parseDraft(storage()?.getItem(key) ?? null), [key]);
  const save = useCallback(
    (values: DesignerValues) => {
      const store = storage();
      if (!store) return false;
      // A typed password never goes into localStorage.
      const draft: StoredDraft = {
        ...values,
        smart: smartDraftOf(values.smart),
        savedAt: new Date().toISOString(),
      };
      try {
        store.setItem(key, JSON.stringify(draft));
        return true;
      } catch {
        return false;
      }
    },
    [key],
  );
  const clear = useCallback(() => {
    try {
      storage()?.removeItem(key);
    } catch {
      // Nothing to do: the draft simply stays.
    }
  }, [key]);

  return useMemo(() => ({ load, save, clear }), [load, save, clear]);
}
