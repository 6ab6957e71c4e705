import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import {
  IMPORT_MAX_LINKS,
  IMPORT_TTL_HOURS,
  importMessages,
  importSourceLabels,
  type CodeImport,
  type ImportLink,
  type ImportPreview,
  type ImportRowResult,
  type ImportRowsAnswer,
  type ImportSource,
  type importConnectInput,
  type importRowsInput,
} from '../../../src/imports/import.schema.js';
import { maxCodesFor } from '../../../src/plans.js';
import { bulkMessages } from '../../../src/qr/bulk.js';
import { qrMessages } from '../../../src/qr/qr-messages.js';
import {
  RESERVED_SLUGS,
  SHORT_LINK_SLUG,
  SLUG_MAX_LENGTH,
  normalizeSlug,
  slugMessages,
  slugProblem,
} from '../../../src/qr/slug.js';
import type { AppDeps } from '../../app-deps.js';
import { isUniqueViolation } from '../../db/db-errors.js';
import { toIso } from '../../db/database.js';
import { appError } from '../../errors.js';
import { reloadShortDomains, shortLinksFor, type ShortLinks } from '../domains/short-domains.registry.js';
import { checkCodeDomain } from '../domains/short-domains.service.js';
import { insertQrCodesOfOwner, type BulkCodeRow } from '../qr/bulk.repository.js';
import { countQrCodesOf, findQrCodeOf } from '../qr/qr.repository.js';
import { findFolderOf } from '../folders/folders.repository.js';
import { checkContent, planLimitMessage, updateQrCode } from '../qr/qr.service.js';
import { wakeScanChecks } from '../qr/scan-verdicts.js';
import { storedAddress } from '../scans/client-address.js';
import { deviceCategory } from '../scans/device.js';
import type { ScanToStore } from '../scans/rollup-model.js';
import { writeScansWithRollups } from '../scans/scan-rollups.js';
import { getInstanceSettings } from '../settings/instance-settings.js';
import { recordActivity } from '../workspaces/activity.js';
import { actorOf, type Owner } from '../workspaces/owner.js';
import { emitLimitReached, emitWebhookEvents, webhookCodeOf } from '../webhooks/webhooks.service.js';
import { connectSource } from './sources/connect.js';
import { readImportFile } from './sources/read-file.js';
import { SourceError, type SourceApi, type SourceLink, type SourceVisit } from './sources/source.js';
import {
  countImportRows,
  deleteExpiredImports,
  deleteImportOf,
  findCodeImport,
  findImportOf,
  findImportRows,
  findImportVisits,
  findSlugHolders,
  forgetImportKey,
  insertImport,
  saveImportRows,
  insertImportVisits,
  recordCodeImports,
  type CodeOrigin,
  type ImportRowResultRow,
} from './imports.repository.js';

/**
 * Link imports (issue 35, item 3): read a source into a preview kept for a day, then carry out the
 * caller's decisions a page of rows at a time (src/imports/import.schema.ts says why).
 */

type StoredImport = NonNullable<Awaited<ReturnType<typeof findImportOf>>>;
type ConnectInput = z.output<typeof importConnectInput>;
type RowsInput = z.output<typeof importRowsInput>;

/** Visits written per transaction: a long history does not hold the writer for long. */
const VISITS_PER_TRANSACTION = 2000;
/** Links whose visits are fetched from an API at once. */
const VISIT_FETCHES_AT_ONCE = 4;

const newImportId = () => randomBytes(12).toString('base64url');

/** A source's refusal as a 400 naming the field the user can change. */
function sourceRefusal(error: unknown, field: 'file' | 'url' | 'apiKey'): never {
  if (error instanceof SourceError) {
    const label = /refused the API key$/.test(error.message) ? 'apiKey' : field;
    throw appError('BAD_REQUEST', error.message, { field: label });
  }
  throw error;
}

function nowIso(deps: AppDeps): string {
  return deps.clock.now().toISOString();
}

/** A link as an import keeps it: as read, with how many visits the file held for it. */
type StoredLink = SourceLink & { history?: number };

async function store(
  deps: AppDeps,
  owner: Owner,
  source: ImportSource,
  origin: string,
  links: SourceLink[],
  visits: Map<number, SourceVisit[]> | undefined,
  api: { url: string; key: string } | null,
): Promise<ImportPreview> {
  if (links.length === 0) throw appError('BAD_REQUEST', importMessages.empty, { field: 'file' });
  if (links.length > IMPORT_MAX_LINKS)
    throw appError('BAD_REQUEST', importMessages.tooMany, { field: 'file' });
  const now = deps.clock.now();
  await deleteExpiredImports(deps.db, now.toISOString());
  const id = newImportId();
  const stored: StoredLink[] = links.map((link, row) => {
    const history = visits?.get(row);
    return history ? { ...link, history: history.length } : link;
  });
  await deps.db.transaction().execute(async (trx) => {
    await insertImport(trx, {
      id,
      userId: owner.id,
      source,
      origin: origin.slice(0, 300),
      apiUrl: api?.url ?? null,
      apiKey: api?.key ?? null,
      links: JSON.stringify(stored),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + IMPORT_TTL_HOURS * 3_600_000).toISOString(),
    });
    if (visits && visits.size > 0) {
      const json = new Map([...visits].map(([row, list]) => [row, JSON.stringify(list)] as const));
      await insertImportVisits(trx, id, json);
    }
  });
  return getImportPreview(deps, owner, id);
}

/** Reads an export file (Shlink CSV, YOURLS SQL or CSV, Bitly CSV) into an import. */
export async function startFileImport(
  deps: AppDeps,
  owner: Owner,
  file: Buffer,
  fileName: string,
  source: 'auto' | 'shlink' | 'yourls' | 'bitly',
): Promise<ImportPreview> {
  let read;
  try {
    read = readImportFile(file, fileName, source);
  } catch (error) {
    sourceRefusal(error, 'file');
  }
  return store(deps, owner, read.source, fileName || 'file', read.links, read.visits, null);
}

function apiOf(deps: AppDeps, input: ConnectInput): SourceApi {
  return connectSource(deps.config.outbound, input);
}

/** Reads every link of a Shlink or Kutt server through its API into an import. */
export async function startApiImport(
  deps: AppDeps,
  owner: Owner,
  input: ConnectInput,
): Promise<ImportPreview> {
  let links: SourceLink[];
  try {
    links = await apiOf(deps, input).links();
  } catch (error) {
    sourceRefusal(error, 'url');
  }
  if (links.length === 0) throw appError('BAD_REQUEST', importMessages.empty, { field: 'url' });
  if (links.length > IMPORT_MAX_LINKS)
    throw appError('BAD_REQUEST', importMessages.tooMany, { field: 'url' });
  const visitsKept = input.source === 'shlink';
  return store(deps, owner, input.source, input.url, links, undefined, {
    url: input.url,
    // Kept only while rows remain to fetch visits for (Kutt keeps none: nothing to fetch later).
    key: visitsKept ? input.apiKey : '',
  });
}

async function getOrThrow(deps: AppDeps, owner: Owner, id: string): Promise<StoredImport> {
  const row = await findImportOf(deps.db, owner.id, id, nowIso(deps));
  if (!row) throw appError('NOT_FOUND', importMessages.notFound);
  return row;
}

function linksOf(row: StoredImport): StoredLink[] {
  return JSON.parse(row.links) as StoredLink[];
}

/** Whether an imported back-half can be a link here as it is: what a random one may be, never reserved. */
function importedSlugProblem(slug: string): string | null {
  if (slug.length > SLUG_MAX_LENGTH) return slugMessages.tooLong;
  if (!SHORT_LINK_SLUG.test(slug)) return slugMessages.characters;
  if (RESERVED_SLUGS.has(slug.toLowerCase())) return slugMessages.reserved;
  return null;
}

type Conflict = NonNullable<ImportLink['conflict']>;

/**
 * What stands in the way of each row, as things are now: its slug (invalid, held by another workspace's
 * code, held by one of this workspace's, or the same as an earlier row's), or its destination. Rows
 * already carried out (`done`) have none. `slugs` may give another slug for a row (a rename being
 * decided); rows `aside` (skipped, or failed and not sent again) claim no slug from the rows after them.
 */
async function conflictsOf(
  deps: AppDeps,
  ownerId: number,
  links: readonly SourceLink[],
  done: ReadonlySet<number>,
  slugs: ReadonlyMap<number, string> = new Map(),
  aside: ReadonlySet<number> = new Set(),
): Promise<Map<number, Conflict>> {
  const conflicts = new Map<number, Conflict>();
  const slugOf = (i: number) => slugs.get(i) ?? links[i]!.slug;
  const keys = new Set<string>();
  links.forEach((_, i) => {
    if (!done.has(i)) keys.add(slugOf(i).toLowerCase());
  });
  const holders = await findSlugHolders(deps.db, [...keys]);
  const firstRow = new Map<string, number>();
  links.forEach((link, i) => {
    const key = slugOf(i).toLowerCase();
    const earlier = firstRow.get(key);
    if (earlier === undefined && !aside.has(i)) firstRow.set(key, i);
    if (done.has(i)) return;
    const problem = slugs.has(i) ? slugProblem(key) : importedSlugProblem(slugOf(i));
    if (problem) return conflicts.set(i, { kind: 'invalid', message: problem });
    try {
      checkContent(deps, 'url', link.destination, true);
    } catch {
      return conflicts.set(i, { kind: 'destination', message: importMessages.badDestination });
    }
    const holder = holders.get(key);
    if (holder && holder.userId === ownerId)
      return conflicts.set(i, {
        kind: 'yours',
        message: importMessages.yours(holder.name),
        codeId: holder.codeId,
      });
    if (holder) return conflicts.set(i, { kind: 'taken', message: importMessages.taken });
    if (earlier !== undefined)
      conflicts.set(i, { kind: 'repeated', message: importMessages.repeated(earlier + 1) });
  });
  return conflicts;
}

interface CodeLink {
  slug: string | null;
  domainId: number | null;
}

/** A row's result as answered: the code's link as it is now (its slug, on its domain). */
function resultOf(
  row: ImportRowResultRow,
  links: ShortLinks,
  codes: ReadonlyMap<number, CodeLink>,
): ImportRowResult {
  const result: ImportRowResult = { status: row.status as ImportRowResult['status'] };
  const code = row.code_id === null ? undefined : codes.get(Number(row.code_id));
  if (row.code_id !== null) result.codeId = Number(row.code_id);
  const slug = code?.slug ?? row.slug;
  if (slug !== null) result.slug = slug;
  if (code?.slug) result.shortUrl = links.shortUrl(code.slug, code.domainId);
  if (row.visits !== null) result.visits = Number(row.visits);
  if (row.message !== null) result.message = row.message;
  return result;
}

/** The slug and domain of these codes (those deleted since are missing). */
async function codeLinksOf(
  deps: AppDeps,
  rows: Iterable<ImportRowResultRow>,
): Promise<Map<number, CodeLink>> {
  const ids = [...rows].flatMap((r) => (r.code_id === null ? [] : [Number(r.code_id)]));
  const map = new Map<number, CodeLink>();
  for (let i = 0; i < ids.length; i += 500) {
    const found = await deps.db
      .selectFrom('qr_codes')
      .select(['id', 'slug', 'domain_id'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of found)
      map.set(r.id, { slug: r.slug, domainId: r.domain_id === null ? null : Number(r.domain_id) });
  }
  return map;
}

/** A row carried out for good: a code made or overwritten. A skipped or failed row may be decided again. */
const isFinal = (r: ImportRowResultRow) => r.status === 'created' || r.status === 'overwritten';

function rowsWhere(
  results: ReadonlyMap<number, ImportRowResultRow>,
  test: (r: ImportRowResultRow) => boolean,
) {
  return new Set([...results].flatMap(([row, r]) => (test(r) ? [row] : [])));
}

/**
 * The import as the caller reviews it: every link with its conflict now (rows skipped or failed before
 * have theirs again, as they may be decided again), and the result of every row sent.
 */
export async function getImportPreview(deps: AppDeps, owner: Owner, id: string): Promise<ImportPreview> {
  const stored = await getOrThrow(deps, owner, id);
  const links = linksOf(stored);
  const results = new Map((await findImportRows(deps.db, id)).map((r) => [Number(r.row), r]));
  const done = rowsWhere(results, isFinal);
  const conflicts = await conflictsOf(
    deps,
    owner.id,
    links,
    done,
    new Map(),
    rowsWhere(results, (r) => !isFinal(r)),
  );
  const source = stored.source as ImportSource;
  const apiVisits = source === 'shlink' && stored.api_url !== null;
  const codes = await codeLinksOf(deps, results.values());
  const shortLinks = await shortLinksFor(
    deps,
    [...codes.values()].map((c) => c.domainId),
  );
  let visits = 0;
  const items = links.map((link, row): ImportLink => {
    const history = link.history;
    const visitHistory = history !== undefined || apiVisits;
    visits += history ?? (apiVisits ? (link.visitCount ?? 0) : 0);
    const done = results.get(row);
    return {
      row,
      slug: link.slug,
      destination: link.destination,
      title: link.title,
      createdAt: link.createdAt === null ? null : new Date(link.createdAt).toISOString(),
      tags: link.tags,
      sourceDomain: link.domain,
      visits: link.visitCount ?? history ?? null,
      visitHistory,
      conflict: conflicts.get(row) ?? null,
      result: done ? resultOf(done, shortLinks, codes) : null,
    };
  });
  return {
    id,
    source,
    sourceLabel: importSourceLabels[source],
    origin: stored.origin,
    createdAt: toIso(stored.created_at),
    expiresAt: toIso(stored.expires_at),
    links: items,
    totals: { links: links.length, visits, conflicts: conflicts.size, done: done.size },
  };
}

export async function discardImport(deps: AppDeps, owner: Owner, id: string): Promise<{ success: true }> {
  if (!(await deleteImportOf(deps.db, owner.id, id))) throw appError('NOT_FOUND', importMessages.notFound);
  return { success: true };
}

/** The name a code gets: the link's title, else where it was (`s.example.com/menu`, `Shlink/menu`). */
function nameOf(link: SourceLink, source: ImportSource): string {
  const title = link.title?.trim();
  if (title) return title.slice(0, 100);
  return `${link.domain ?? importSourceLabels[source]}/${link.slug}`.slice(0, 100);
}

/** A source's visits as scans of code `codeId`, owned by the workspace. */
function scansOf(
  deps: AppDeps,
  codeId: number,
  ownerId: number,
  visits: readonly SourceVisit[],
): ScanToStore[] {
  return visits.map((v) => ({
    qr_code_id: codeId,
    owner_id: ownerId,
    timestamp: v.at,
    user_agent: v.userAgent,
    referrer: v.referrer,
    location: v.location ?? 'Unknown',
    ip_address: v.ipAddress ? storedAddress(deps.config, v.ipAddress) : null,
    device: v.bot ? 'Bot' : deviceCategory(v.userAgent),
  }));
}

async function writeVisits(deps: AppDeps, scans: readonly ScanToStore[]): Promise<void> {
  for (let i = 0; i < scans.length; i += VISITS_PER_TRANSACTION) {
    const part = scans.slice(i, i + VISITS_PER_TRANSACTION);
    await deps.db.transaction().execute((trx) => writeScansWithRollups(trx, part));
  }
}

/** Runs `work` over `items`, at most `limit` at once. */
async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

interface Planned {
  row: number;
  link: StoredLink;
  slug: string;
  /** overwrite: the code whose destination becomes the link's. */
  codeId?: number;
}

/**
 * Carries out up to IMPORT_ROWS_PER_CALL decisions: rows to create (as they are or under another slug)
 * become dynamic URL codes of the workspace in one transaction (the plan's limit holds: rows over it
 * fail, the others are made); a row overwriting one of the workspace's codes gives that code the link's
 * destination (a new version in its history). Each made or overwritten code gets the row's visits (from
 * the file, or fetched from Shlink now) and a note of where it came from. A row made or overwritten before
 * answers that result again; a skipped or failed row is decided anew; a decision that cannot be carried
 * out (a conflict since) fails alone.
 */
export async function runImportRows(
  deps: AppDeps,
  owner: Owner,
  input: RowsInput,
): Promise<ImportRowsAnswer> {
  const stored = await getOrThrow(deps, owner, input.id);
  const links = linksOf(stored);
  const source = stored.source as ImportSource;
  // Structural mistakes refuse the whole call, before anything changes.
  const seen = new Set<number>();
  input.rows.forEach((d, i) => {
    if (d.row >= links.length || seen.has(d.row))
      throw appError('BAD_REQUEST', importMessages.unknownRow(d.row), { field: `rows.${i}.row` });
    seen.add(d.row);
    if (d.action === 'rename' && !d.slug?.trim())
      throw appError('BAD_REQUEST', importMessages.renameNeedsSlug, { field: `rows.${i}.slug` });
  });
  const domainId = input.domainId ?? null;
  if (domainId !== null) {
    await checkCodeDomain(deps.db, owner.id, domainId);
    await reloadShortDomains(deps.db);
  }
  if (input.folderId != null && !(await findFolderOf(deps.db, owner.id, input.folderId)))
    throw appError('NOT_FOUND', qrMessages.folderNotFound, { field: 'folderId' });

  const storedRows = new Map((await findImportRows(deps.db, stored.id)).map((r) => [Number(r.row), r]));
  const previous = new Map([...storedRows].filter(([, r]) => isFinal(r)));
  const pending = input.rows.filter((d) => !previous.has(d.row));
  const sentNow = new Set(pending.map((d) => d.row));
  // Rows that take no slug now: skipped in this call, or skipped or failed before and not sent again.
  const aside = new Set([
    ...pending.filter((d) => d.action === 'skip').map((d) => d.row),
    ...[...storedRows].flatMap(([row, r]) => (!isFinal(r) && !sentNow.has(row) ? [row] : [])),
  ]);
  const renames = new Map(
    pending.flatMap((d) =>
      d.action === 'rename' && d.slug ? [[d.row, normalizeSlug(d.slug)] as const] : [],
    ),
  );
  const outcomes = new Map<number, ImportRowResultRow>();
  const fail = (row: number, message: string, status: 'failed' | 'skipped' = 'failed') =>
    outcomes.set(row, { row, status, code_id: null, slug: null, visits: null, message });

  const toCreate: Planned[] = [];
  const toOverwrite: Planned[] = [];
  const conflicts = await conflictsOf(deps, owner.id, links, new Set(previous.keys()), renames, aside);
  for (const d of pending) {
    const link = links[d.row]!;
    const conflict = conflicts.get(d.row);
    if (d.action === 'skip') {
      fail(d.row, 'Skipped', 'skipped');
    } else if (d.action === 'overwrite') {
      if (conflict?.kind === 'yours')
        toOverwrite.push({ row: d.row, link, slug: link.slug, codeId: conflict.codeId! });
      else fail(d.row, importMessages.overwriteNotYours);
    } else if (conflict) {
      fail(
        d.row,
        conflict.kind === 'destination'
          ? conflict.message
          : `${conflict.message}: ${importMessages.cannotCreate.toLowerCase()}`,
      );
    } else {
      toCreate.push({ row: d.row, link, slug: renames.get(d.row) ?? link.slug });
    }
  }

  const settings = await getInstanceSettings(deps);
  const max = maxCodesFor(owner, settings.freePlanLimit, deps.clock.now());
  let currentCount = 0;
  const made: { planned: Planned; codeId: number }[] = [];
  if (toCreate.length > 0) {
    const rows: BulkCodeRow[] = toCreate.map((p) => ({
      name: nameOf(p.link, source),
      type: 'url',
      content: p.link.destination,
      isDynamic: true,
      slug: p.slug,
      folderName: null,
      domainId,
    }));
    const now = nowIso(deps);
    try {
      const result = await insertQrCodesOfOwner(
        deps.db,
        {
          userId: owner.id,
          actorId: actorOf(owner).id,
          folderId: input.folderId ?? null,
          customization: JSON.stringify({}),
          now,
        },
        rows,
        ({ count, rows: wanted }) => {
          currentCount = count;
          return max === null ? wanted : Math.max(0, Math.min(wanted, max - count));
        },
        {
          // The workspace's webhooks hear of every code made, in the same transaction (as of a bulk creation).
          afterInsert: (trx, inserted) =>
            emitWebhookEvents(
              trx,
              deps.clock.now(),
              owner.id,
              'code.created',
              inserted.map((row) => ({ code: webhookCodeOf(deps, row) })),
            ),
        },
      );
      // Rows the plan left out: the workspace's webhooks hear that its limit was reached.
      if (result.overLimit.length > 0 && max !== null) await emitLimitReached(deps, owner.id, max);
      result.rows.forEach((code, i) => made.push({ planned: toCreate[result.taken[i]!]!, codeId: code.id }));
      currentCount = result.countBefore + result.rows.length;
      for (const i of result.overLimit) {
        const message =
          max === null ? bulkMessages.overLimit(0) : planLimitMessage(owner, max, deps.clock.now());
        fail(toCreate[i]!.row, message);
      }
    } catch (error) {
      // Another call took one of these slugs since the check: nothing was made; each row says so.
      if (!isUniqueViolation(error)) throw error;
      for (const p of toCreate) fail(p.row, importMessages.taken);
    }
  }

  for (const p of toOverwrite) {
    try {
      await updateQrCode(deps, owner, { id: p.codeId!, content: p.link.destination });
      made.push({ planned: p, codeId: p.codeId! });
    } catch (error) {
      fail(p.row, error instanceof Error ? error.message : String(error));
    }
  }

  // Visits: from the file, or fetched now from the source's API (outside any transaction).
  const fileVisits = await findImportVisits(
    deps.db,
    stored.id,
    made.map((m) => m.planned.row),
  );
  const api =
    source === 'shlink' && stored.api_url && stored.api_key
      ? connectSource(deps.config.outbound, { source: 'shlink', url: stored.api_url, apiKey: stored.api_key })
      : null;
  const importedAt = nowIso(deps);
  const scans: ScanToStore[] = [];
  const origins: CodeOrigin[] = [];
  await inParallel(made, VISIT_FETCHES_AT_ONCE, async ({ planned, codeId }) => {
    const kept = fileVisits.get(planned.row);
    let visits: SourceVisit[] = kept ? (JSON.parse(kept) as SourceVisit[]) : [];
    let message: string | null = null;
    if (api?.visits) {
      try {
        visits = await api.visits(planned.link);
      } catch (error) {
        message = `The visits could not be read: ${error instanceof Error ? error.message : String(error)}`;
        visits = [];
      }
    }
    scans.push(...scansOf(deps, codeId, owner.id, visits));
    origins.push({ codeId, source, sourceLink: planned.link.shortUrl, visits: visits.length, importedAt });
    outcomes.set(planned.row, {
      row: planned.row,
      status: planned.codeId === undefined ? 'created' : 'overwritten',
      code_id: codeId,
      slug: planned.codeId === undefined ? planned.slug : planned.link.slug,
      visits: visits.length,
      message,
    });
  });
  // All the page's visits in a few transactions, and each code's origin in one statement.
  await writeVisits(deps, scans);
  await recordCodeImports(deps.db, origins);

  await saveImportRows(deps.db, stored.id, [...outcomes.values()]);
  const created = made.filter((m) => m.planned.codeId === undefined).length;
  if (made.length > 0) {
    wakeScanChecks(deps);
    await recordActivity(deps.db, owner.id, actorOf(owner), deps.clock.now(), {
      action: 'code.created',
      targetType: 'codes',
      targetLabel: `${created} QR codes (import from ${importSourceLabels[source]})`,
      details: { count: created },
    });
  }
  const done = await countImportRows(deps.db, stored.id);
  if (done >= links.length && stored.api_key) await forgetImportKey(deps.db, stored.id);
  if (toCreate.length === 0) currentCount = await countQrCodesOf(deps.db, owner.id);

  const answered = new Map([...previous, ...outcomes]);
  const codes = await codeLinksOf(
    deps,
    input.rows.map((d) => answered.get(d.row)!),
  );
  const shortLinks = await shortLinksFor(
    deps,
    [...codes.values()].map((c) => c.domainId),
  );
  return {
    results: input.rows.map((d) => ({ row: d.row, ...resultOf(answered.get(d.row)!, shortLinks, codes) })),
    done,
    currentCount,
    maxCount: max,
  };
}

/** Where one of the workspace's codes came from, or null when it was made here. */
export async function codeImportOf(deps: AppDeps, owner: Owner, codeId: number): Promise<CodeImport | null> {
  const code = await findQrCodeOf(deps.db, owner.id, codeId);
  if (!code) throw appError('NOT_FOUND', qrMessages.notFound);
  const row = await findCodeImport(deps.db, codeId);
  if (!row) return null;
  const source = row.source as ImportSource;
  return {
    source,
    sourceLabel: importSourceLabels[source],
    sourceLink: row.source_link,
    visits: Number(row.visits),
    importedAt: toIso(row.imported_at),
  };
}
