import type { Db } from '../../db/database.js';

/** A short domain as the redirect route and the short links read it, from memory. */
export interface ShortDomainEntry {
  id: number;
  hostname: string;
  allWorkspaces: boolean;
  /** The workspaces (their accounts' ids) that may use it when not every one may. */
  workspaceIds: ReadonlySet<number>;
  rootUrl: string | null;
  notFoundUrl: string | null;
}

/**
 * The host of a `Host` header, as a short domain is stored: lower case, without the port or a trailing
 * dot. An IPv6 literal keeps its brackets (never a short domain).
 */
export function hostOf(header: string | undefined): string {
  if (!header) return '';
  let host = header;
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    host = end < 0 ? host : host.slice(0, end + 1);
  } else {
    const colon = host.indexOf(':');
    if (colon >= 0) host = host.slice(0, colon);
  }
  host = host.toLowerCase();
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/**
 * Every short domain of the database, held in memory: the redirect route decides a request's domain by
 * its `Host` without a read, and a code's short link is written without one. Loaded at start-up, again
 * after every change made here, and every REFRESH_MS for the changes other instances make.
 */
export class ShortDomainRegistry {
  private byHost = new Map<string, ShortDomainEntry>();
  private byId = new Map<number, ShortDomainEntry>();
  /** Goes up when the set of host names changes: what was worked out from them is stale. */
  hostsVersion = 0;
  /** Reads started and the newest applied: a read that started before one already applied is dropped. */
  readsStarted = 0;
  readApplied = 0;

  /** Whether `host` (lower case, no port) is one of the short domains. */
  readonly isShortDomain = (host: string): boolean => this.byHost.has(host);

  /** How many domains there are (0: every request is the app's, as without the feature). */
  get size(): number {
    return this.byHost.size;
  }

  /** The domain a request's `Host` header names, if it is one. */
  forHost(header: string | undefined): ShortDomainEntry | undefined {
    return this.byHost.size === 0 ? undefined : this.byHost.get(hostOf(header));
  }

  get(id: number): ShortDomainEntry | undefined {
    return this.byId.get(id);
  }

  all(): ShortDomainEntry[] {
    return [...this.byId.values()];
  }

  replace(entries: readonly ShortDomainEntry[]): void {
    const hosts = entries.map((e) => e.hostname).sort();
    if (hosts.join(' ') !== [...this.byHost.keys()].sort().join(' ')) this.hostsVersion += 1;
    this.byHost = new Map(entries.map((e) => [e.hostname, e]));
    this.byId = new Map(entries.map((e) => [e.id, e]));
  }
}

/** Whether the workspace `workspaceId` may use `domain` (and its codes answer there). */
export function availableTo(domain: ShortDomainEntry, workspaceId: number): boolean {
  return domain.allWorkspaces || domain.workspaceIds.has(workspaceId);
}

export const REFRESH_MS = 30_000;

const registries = new WeakMap<Db, ShortDomainRegistry>();

/** The registry of this database's domains (empty until loaded). */
export function shortDomainsOf(db: Db): ShortDomainRegistry {
  let registry = registries.get(db);
  if (!registry) registries.set(db, (registry = new ShortDomainRegistry()));
  return registry;
}

/** Reads every domain with its workspaces into the database's registry. */
export async function reloadShortDomains(db: Db): Promise<ShortDomainRegistry> {
  const registry = shortDomainsOf(db);
  const read = ++registry.readsStarted;
  const [domains, listed] = await Promise.all([
    db
      .selectFrom('short_domains')
      .select(['id', 'hostname', 'all_workspaces', 'root_url', 'not_found_url'])
      .execute(),
    db.selectFrom('short_domain_workspaces').select(['domain_id', 'workspace_id']).execute(),
  ]);
  const workspaces = new Map<number, Set<number>>();
  for (const row of listed) {
    const domainId = Number(row.domain_id);
    let set = workspaces.get(domainId);
    if (!set) workspaces.set(domainId, (set = new Set()));
    set.add(Number(row.workspace_id));
  }
  // A refresh that started before a change's own read, and ends after it, must not bring the old back.
  if (read < registry.readApplied) return registry;
  registry.readApplied = read;
  registry.replace(
    domains.map((row) => ({
      id: Number(row.id),
      hostname: row.hostname,
      allWorkspaces: Boolean(row.all_workspaces),
      workspaceIds: workspaces.get(Number(row.id)) ?? new Set(),
      rootUrl: row.root_url,
      notFoundUrl: row.not_found_url,
    })),
  );
  return registry;
}

/** How a code's short link is written: on its domain, or under PUBLIC_URL/r/. */
export interface ShortLinks {
  /** `https://go.example.com/` or `PUBLIC_URL/r/`. */
  baseOf(domainId: number | null | undefined): string;
  shortUrl(slug: string, domainId: number | null | undefined): string;
}

/** A short domain's links start: `https://go.example.com/`, in PUBLIC_URL's scheme. */
export function domainBaseOf(publicUrl: string, hostname: string): string {
  return `${publicUrl.startsWith('https:') ? 'https:' : 'http:'}//${hostname}/`;
}

/** The short links of this database's codes, from the registry as it is. */
export function shortLinksOf(db: Db, publicUrl: string): ShortLinks {
  const registry = shortDomainsOf(db);
  const own = `${publicUrl}/r/`;
  const baseOf = (domainId: number | null | undefined) => {
    if (domainId === null || domainId === undefined) return own;
    const domain = registry.get(Number(domainId));
    return domain ? domainBaseOf(publicUrl, domain.hostname) : own;
  };
  return { baseOf, shortUrl: (slug, domainId) => `${baseOf(domainId)}${slug}` };
}

/**
 * The short links for codes using `domainIds`: the registry read again first when one of them is not in
 * it yet (added by another instance since the last refresh), so no link is written on the wrong address.
 */
export async function shortLinksFor(
  deps: { db: Db; config: { publicUrl: string } },
  domainIds: Iterable<number | null | undefined>,
): Promise<ShortLinks> {
  const registry = shortDomainsOf(deps.db);
  for (const id of domainIds) {
    if (id !== null && id !== undefined && !registry.get(Number(id))) {
      await reloadShortDomains(deps.db);
      break;
    }
  }
  return shortLinksOf(deps.db, deps.config.publicUrl);
}

/** Links for a snapshot or a test: every code under `publicUrl/r/`. */
export const ownShortLinks = (publicUrl: string): ShortLinks => ({
  baseOf: () => `${publicUrl}/r/`,
  shortUrl: (slug) => `${publicUrl}/r/${slug}`,
});
