// The admin's short domain form (issue 35, item 2): what the fields hold, what a save sends, which field a
// refusal belongs to, and the set-up text the page shows. The rules are the shared schema's
// (src/qr/short-domain.schema.ts), so the form refuses what the server would, in the same words.
import {
  shortDomainInput,
  type ShortDomain,
  type ShortDomainInput,
} from '../../../../src/qr/short-domain.schema';

/** A workspace the domain is available to, with the name its pill shows. */
export interface NamedWorkspace {
  id: number;
  name: string;
}

export interface DomainFormValues {
  hostname: string;
  allWorkspaces: boolean;
  workspaces: NamedWorkspace[];
  rootUrl: string;
  notFoundUrl: string;
}

export type DomainField = 'hostname' | 'workspaceIds' | 'rootUrl' | 'notFoundUrl';
export type DomainFieldErrors = Partial<Record<DomainField, string>>;

const fields: readonly DomainField[] = ['hostname', 'workspaceIds', 'rootUrl', 'notFoundUrl'];

/** The English of the form's own refusal; the form passes it in the user's language (localDomainErrors). */
export const noWorkspaceChosen = 'Choose at least one workspace, or make it available to all workspaces';

/** The form's values: a domain's as saved, or a new one's (available to all workspaces). */
export function formValuesOf(domain?: ShortDomain | null): DomainFormValues {
  return {
    hostname: domain?.hostname ?? '',
    allWorkspaces: domain?.allWorkspaces ?? true,
    workspaces: domain?.workspaces.map(({ id, name }) => ({ id, name })) ?? [],
    rootUrl: domain?.rootUrl ?? '',
    notFoundUrl: domain?.notFoundUrl ?? '',
  };
}

/** What a save sends: every field (an update replaces them all), an empty URL as null. */
export function domainInputOf(values: DomainFormValues): ShortDomainInput {
  return {
    hostname: values.hostname.trim(),
    allWorkspaces: values.allWorkspaces,
    workspaceIds: values.allWorkspaces ? [] : values.workspaces.map((w) => w.id),
    rootUrl: values.rootUrl.trim() || null,
    notFoundUrl: values.notFoundUrl.trim() || null,
  };
}

/** The field a validation issue's path (`hostname`, `workspaceIds.0`) names, or null. */
function fieldOfPath(path: unknown): DomainField | null {
  if (typeof path !== 'string') return null;
  const head = path.split('.')[0];
  return fields.find((f) => f === head) ?? null;
}

/**
 * What is wrong with the values before the server is asked, per field (the shared schema's words), and
 * `noWorkspace` (the form's own words, in the user's language) when only chosen workspaces may use it and
 * none is chosen.
 */
export function localDomainErrors(
  values: DomainFormValues,
  noWorkspace: string = noWorkspaceChosen,
): DomainFieldErrors {
  const errors: DomainFieldErrors = {};
  const parsed = shortDomainInput.safeParse(domainInputOf(values));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOfPath(issue.path.map(String).join('.'));
      if (field) errors[field] ??= issue.message;
    }
  }
  // The server takes a domain available to no workspace, but no code could use it: surely a slip.
  if (!values.allWorkspaces && values.workspaces.length === 0) errors.workspaceIds ??= noWorkspace;
  return errors;
}

/**
 * The field a refused save belongs to and its message: a validation issue naming the field (the host name,
 * a URL), the `field` extra of a refusal the schema cannot know (409 DOMAIN_TAKEN, the app's own address,
 * an unknown workspace); otherwise `field` null and the server's message.
 */
export function domainRefusalOf(
  error: unknown,
  fallback: string,
): { field: DomainField | null; message: string } {
  if (!(error instanceof Error)) return { field: null, message: fallback };
  const data = (
    error as Error & {
      data?: {
        issues?: readonly { path?: unknown; message?: unknown }[];
        extras?: Record<string, unknown> | null;
      } | null;
    }
  ).data;
  for (const issue of data?.issues ?? []) {
    const field = fieldOfPath(issue.path);
    if (field && typeof issue.message === 'string') return { field, message: issue.message };
  }
  const field = fieldOfPath(data?.extras?.field);
  const message = error.name === 'TRPCClientError' && error.message ? error.message : fallback;
  return { field, message };
}

/** What the table says of a domain for all workspaces, or for none: the page gives them in the user's language. */
export interface AvailableToWords {
  all: string;
  none: string;
}

/** Who may use the domain, as the table says it. */
export function availableToText(
  domain: Pick<ShortDomain, 'allWorkspaces' | 'workspaces'>,
  words: AvailableToWords = { all: 'All workspaces', none: 'No workspace' },
): string {
  if (domain.allWorkspaces) return words.all;
  if (domain.workspaces.length === 0) return words.none;
  return domain.workspaces.map((w) => w.name).join(', ');
}

/** The chosen workspaces first, then the ones found, each once: the multi-select's options. */
export function workspaceOptions(
  chosen: readonly NamedWorkspace[],
  found: readonly NamedWorkspace[],
): { value: number; label: string }[] {
  const seen = new Set<number>();
  const options: { value: number; label: string }[] = [];
  for (const w of [...chosen, ...found]) {
    if (seen.has(w.id)) continue;
    seen.add(w.id);
    options.push({ value: w.id, label: w.name });
  }
  return options;
}

/** The address Caddy asks before it gets a certificate on demand. */
export function askUrlOf(origin: string): string {
  return `${origin.replace(/\/+$/, '')}/api/short-domains/ask`;
}

/**
 * A Caddyfile that serves the app at its own address and gets certificates on demand for the domains this
 * server answers for. Caddy asks the app itself on its port (3000 here), over plain HTTP: asking over
 * HTTPS through Caddy would need a certificate first.
 */
export function caddyfileOf(origin: string): string {
  let host = 'qr.example.com';
  try {
    host = new URL(origin).host;
  } catch {
    // The example's host.
  }
  return [
    '{',
    '\ton_demand_tls {',
    `\t\task ${askUrlOf('http://127.0.0.1:3000')}`,
    '\t}',
    '}',
    '',
    `${host} {`,
    '\treverse_proxy 127.0.0.1:3000',
    '}',
    '',
    'https:// {',
    '\ttls {',
    '\t\ton_demand',
    '\t}',
    '\treverse_proxy 127.0.0.1:3000',
    '}',
  ].join('\n');
}
