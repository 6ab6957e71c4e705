import { sql } from 'kysely';
import {
  domainMessages,
  isShortDomainName,
  type AvailableDomains,
  type ShortDomain,
  type shortDomainInput,
} from '../../../src/qr/short-domain.schema.js';
import type { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { recordAudit, type AuditActor } from '../../audit.js';
import { toIso, type Db } from '../../db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/db-errors.js';
import { appError, refuse } from '../../errors.js';
import { availableTo, domainBaseOf, reloadShortDomains, shortLinksOf } from './short-domains.registry.js';

type DomainFields = z.output<typeof shortDomainInput>;

/** The app's own host (PUBLIC_URL's), which no short domain may be. */
function appHostOf(publicUrl: string): string {
  return new URL(publicUrl).hostname.toLowerCase();
}

const notFound = () => appError('NOT_FOUND', domainMessages.notFound);

/** Every short domain, newest first, with its workspaces' names and how many codes use it. */
export async function listShortDomains(deps: AppDeps): Promise<{ items: ShortDomain[] }> {
  return { items: await readDomains(deps) };
}

async function readDomains(deps: AppDeps, only?: number): Promise<ShortDomain[]> {
  const { db } = deps;
  let query = db
    .selectFrom('short_domains')
    .select(['id', 'hostname', 'all_workspaces', 'root_url', 'not_found_url', 'created'])
    .orderBy('id', 'desc');
  if (only !== undefined) query = query.where('id', '=', only);
  const domains = await query.execute();
  if (domains.length === 0) return [];
  const ids = domains.map((d) => d.id);
  const [workspaces, codes] = await Promise.all([
    db
      .selectFrom('short_domain_workspaces')
      .innerJoin('users', 'users.id', 'short_domain_workspaces.workspace_id')
      .select([
        'short_domain_workspaces.domain_id',
        'users.id',
        sql<string>`coalesce(nullif(users.name, ''), users.username)`.as('name'),
      ])
      .where('short_domain_workspaces.domain_id', 'in', ids)
      .orderBy('name')
      .execute(),
    db
      .selectFrom('qr_codes')
      .select(['domain_id', db.fn.countAll<number | string>().as('n')])
      .where('domain_id', 'in', ids)
      .groupBy('domain_id')
      .execute(),
  ]);
  return domains.map((d) => ({
    id: Number(d.id),
    hostname: d.hostname,
    shortLinkBase: domainBaseOf(deps.config.publicUrl, d.hostname),
    allWorkspaces: Boolean(d.all_workspaces),
    workspaces: workspaces
      .filter((w) => Number(w.domain_id) === Number(d.id))
      .map((w) => ({ id: Number(w.id), name: w.name })),
    rootUrl: d.root_url,
    notFoundUrl: d.not_found_url,
    codes: Number(codes.find((c) => Number(c.domain_id) === Number(d.id))?.n ?? 0),
    created: toIso(d.created),
  }));
}

/** The refusals of a domain's fields that its schema cannot know: the app's own host, unknown workspaces. */
async function checkFields(deps: AppDeps, db: Db, input: DomainFields): Promise<void> {
  if (input.hostname === appHostOf(deps.config.publicUrl))
    throw appError('BAD_REQUEST', domainMessages.appAddress, { field: 'hostname' });
  const ids = [...new Set(input.workspaceIds)];
  if (ids.length === 0) return;
  const found = await db.selectFrom('users').select('id').where('id', 'in', ids).execute();
  const known = new Set(found.map((r) => Number(r.id)));
  const missing = ids.find((id) => !known.has(id));
  if (missing !== undefined)
    throw appError('BAD_REQUEST', `Workspace ${missing} does not exist`, { field: 'workspaceIds' });
}

async function writeWorkspaces(db: Db, domainId: number, input: DomainFields): Promise<void> {
  await db.deleteFrom('short_domain_workspaces').where('domain_id', '=', domainId).execute();
  const ids = input.allWorkspaces ? [] : [...new Set(input.workspaceIds)];
  if (ids.length > 0)
    await db
      .insertInto('short_domain_workspaces')
      .values(ids.map((workspace_id) => ({ domain_id: domainId, workspace_id })))
      .execute();
}

const auditOf = (d: ShortDomain) => ({
  hostname: d.hostname,
  allWorkspaces: d.allWorkspaces,
  workspaces: d.workspaces.map((w) => w.name),
  rootUrl: d.rootUrl,
  notFoundUrl: d.notFoundUrl,
});

async function one(deps: AppDeps, id: number): Promise<ShortDomain> {
  const [domain] = await readDomains(deps, id);
  if (!domain) throw notFound();
  return domain;
}

/** Adds a short domain (admin). 409 DOMAIN_TAKEN when it is there already. */
export async function createShortDomain(
  deps: AppDeps,
  actor: AuditActor,
  input: DomainFields,
): Promise<ShortDomain> {
  const now = deps.clock.now();
  let id: number;
  try {
    id = await deps.db.transaction().execute(async (trx) => {
      await checkFields(deps, trx, input);
      const row = await trx
        .insertInto('short_domains')
        .values({
          hostname: input.hostname,
          all_workspaces: input.allWorkspaces,
          root_url: input.rootUrl,
          not_found_url: input.notFoundUrl,
          created: now.toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      await writeWorkspaces(trx, id, input);
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse('DOMAIN_TAKEN', domainMessages.taken, { field: 'hostname' });
    throw error;
  }
  await reloadShortDomains(deps.db);
  const domain = await one(deps, id);
  await recordAudit(deps.db, actor, now, {
    action: 'domain.create',
    targetType: 'domain',
    targetId: id,
    targetLabel: domain.hostname,
    after: auditOf(domain),
  });
  return domain;
}

/** Changes a short domain (admin): every field, as sent. */
export async function updateShortDomain(
  deps: AppDeps,
  actor: AuditActor,
  input: DomainFields & { id: number },
): Promise<ShortDomain> {
  const before = await one(deps, input.id);
  // Printed codes carry the name: a new one would leave them answering nowhere.
  if (input.hostname !== before.hostname && before.codes > 0)
    throw refuse('DOMAIN_IN_USE', domainMessages.renameInUse(before.codes), { field: 'hostname' });
  const now = deps.clock.now();
  try {
    await deps.db.transaction().execute(async (trx) => {
      await checkFields(deps, trx, input);
      await trx
        .updateTable('short_domains')
        .set({
          hostname: input.hostname,
          all_workspaces: input.allWorkspaces,
          root_url: input.rootUrl,
          not_found_url: input.notFoundUrl,
        })
        .where('id', '=', input.id)
        .execute();
      await writeWorkspaces(trx, input.id, input);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse('DOMAIN_TAKEN', domainMessages.taken, { field: 'hostname' });
    throw error;
  }
  await reloadShortDomains(deps.db);
  const after = await one(deps, input.id);
  await recordAudit(deps.db, actor, now, {
    action: 'domain.update',
    targetType: 'domain',
    targetId: input.id,
    targetLabel: after.hostname,
    before: auditOf(before),
    after: auditOf(after),
  });
  return after;
}

/** Deletes a short domain no code uses (admin): 409 DOMAIN_IN_USE otherwise, since their links would break. */
export async function deleteShortDomain(
  deps: AppDeps,
  actor: AuditActor,
  id: number,
): Promise<{ success: true }> {
  const before = await one(deps, id);
  if (before.codes > 0) throw refuse('DOMAIN_IN_USE', domainMessages.inUse(before.codes));
  try {
    await deps.db.deleteFrom('short_domains').where('id', '=', id).execute();
  } catch (error) {
    // A code took it meanwhile: the foreign key holds it.
    if (isForeignKeyViolation(error))
      throw refuse('DOMAIN_IN_USE', domainMessages.inUse(Math.max(1, (await one(deps, id)).codes)));
    throw error;
  }
  await reloadShortDomains(deps.db);
  await recordAudit(deps.db, actor, deps.clock.now(), {
    action: 'domain.delete',
    targetType: 'domain',
    targetId: id,
    targetLabel: before.hostname,
    before: auditOf(before),
  });
  return { success: true };
}

/** The domains a code of workspace `workspaceId` may use, read fresh (a list to choose from). */
export async function availableDomains(deps: AppDeps, workspaceId: number): Promise<AvailableDomains> {
  const registry = await reloadShortDomains(deps.db);
  const links = shortLinksOf(deps.db, deps.config.publicUrl);
  return {
    defaultBase: links.baseOf(null),
    items: registry
      .all()
      .filter((d) => availableTo(d, workspaceId))
      .sort((a, b) => a.hostname.localeCompare(b.hostname))
      .map((d) => ({ id: d.id, hostname: d.hostname, shortLinkBase: links.baseOf(d.id) })),
  };
}

/**
 * In the transaction that gives a code of `workspaceId` the domain `domainId`: refuses a domain that does
 * not exist or that the workspace may not use, read from the database (not the registry: another instance
 * may have just changed it). `keep`: the code's current domain, which it keeps even when its workspace has
 * lost it since.
 */
export async function checkCodeDomain(
  db: Db,
  workspaceId: number,
  domainId: number,
  keep?: number | null,
): Promise<void> {
  if (keep !== undefined && keep !== null && Number(keep) === domainId) return;
  if (!(await mayUseDomain(db, workspaceId, domainId)))
    throw appError('BAD_REQUEST', domainMessages.notAvailable, { field: 'domainId' });
}

/** Whether workspace `workspaceId` may use domain `domainId` (which exists), read from the database. */
export async function mayUseDomain(db: Db, workspaceId: number, domainId: number): Promise<boolean> {
  const row = await db
    .selectFrom('short_domains')
    .leftJoin('short_domain_workspaces', (join) =>
      join
        .onRef('short_domain_workspaces.domain_id', '=', 'short_domains.id')
        .on('short_domain_workspaces.workspace_id', '=', workspaceId),
    )
    .select(['short_domains.all_workspaces', 'short_domain_workspaces.workspace_id'])
    .where('short_domains.id', '=', domainId)
    .executeTakeFirst();
  return row !== undefined && (Boolean(row.all_workspaces) || row.workspace_id !== null);
}

/**
 * A reverse proxy's question before it gets a certificate for `domain` (Caddy's on-demand TLS `ask`):
 * yes for a short domain of this server, and for the app's own host.
 */
export async function answersForDomain(deps: AppDeps, domain: string): Promise<boolean> {
  const host = domain.replace(/\.$/, '');
  if (host === appHostOf(deps.config.publicUrl)) return true;
  if (!isShortDomainName(host)) return false;
  const row = await deps.db
    .selectFrom('short_domains')
    .select('id')
    .where('hostname', '=', host)
    .executeTakeFirst();
  return row !== undefined;
}
