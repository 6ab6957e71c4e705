import { z } from 'zod';
import { isHttpUrl } from './field-checks.js';

// Short domains (issue 35): an admin adds host names such as go.example.com and says which workspaces may
// use them; a dynamic code picks one of them or the app's own address (PUBLIC_URL/r/). A short domain
// answers root-level links (go.example.com/menu) for the codes of the workspaces it is available to; the
// app itself is not reachable there.

const bodyError = { error: 'Request body must be a JSON object' };

export const DOMAIN_MAX = 253;
export const DOMAIN_WORKSPACES_MAX = 1000;
const URL_MAX = 2048;

/** A DNS host name in lower case: labels of letters, digits and inner hyphens, a top-level label not all digits. */
const HOST_NAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?=[a-z0-9-]*[a-z])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const domainMessages = {
  required: 'Domain is required',
  hostName: 'Domain must be a host name such as go.example.com (no https://, port or path)',
  appAddress: "Domain must differ from the app's own address",
  taken: 'This domain is already added',
  inUse: (codes: number) =>
    `${codes} ${codes === 1 ? 'code uses' : 'codes use'} this domain: give ${codes === 1 ? 'it' : 'them'} another domain first`,
  notAvailable: 'This domain is not available in this workspace',
  renameInUse: (codes: number) =>
    `The name of a domain that codes use cannot change (${codes} ${codes === 1 ? 'code uses' : 'codes use'} it)`,
  moveNotAvailable:
    "This code's short domain is not available in that workspace: give it another domain first",
  notFound: 'Domain not found',
} as const;

/** Whether `value` (trimmed, in lower case) is a host name a short domain may have. */
export function isShortDomainName(value: string): boolean {
  return HOST_NAME.test(value);
}

const domainId = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a domain id` })
    .int(`${label} must be a domain id`)
    .positive(`${label} must be a domain id`)
    .max(2_147_483_647, `${label} must be a domain id`);

/** A domain id in a path: /api/admin/domains/{id}. */
export const shortDomainIdInput = z.object({ id: domainId('Domain id') });

const hostname = z
  .string({ error: (i) => (i.input === undefined ? domainMessages.required : 'Domain must be text') })
  .trim()
  .toLowerCase()
  .min(1, domainMessages.required)
  // A trailing dot names the same host.
  .transform((value) => value.replace(/\.$/, ''))
  .refine(isShortDomainName, domainMessages.hostName)
  .meta({
    description: 'The host name, in lower case (punycode for other scripts).',
    examples: ['go.example.com'],
  });

const optionalUrl = (label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(URL_MAX, `${label} must be at most ${URL_MAX} characters`)
    .refine(isHttpUrl, `${label} must be an http or https URL`)
    .nullable()
    .optional()
    .transform((value) => value ?? null);

export const shortDomainInput = z.object(
  {
    hostname,
    allWorkspaces: z
      .boolean({ error: 'allWorkspaces must be true or false' })
      .default(false)
      .meta({ description: 'Every workspace may use it (else only those of workspaceIds).' }),
    workspaceIds: z
      .array(
        z
          .number({ error: 'Workspaces must be workspace ids' })
          .int('Workspaces must be workspace ids')
          .positive('Workspaces must be workspace ids')
          .max(2_147_483_647, 'Workspaces must be workspace ids'),
        {
          error: 'Workspaces must be a list of workspace ids',
        },
      )
      .max(DOMAIN_WORKSPACES_MAX, `At most ${DOMAIN_WORKSPACES_MAX} workspaces`)
      .default([])
      .meta({
        description: 'The workspaces (team or personal) that may use it when allWorkspaces is false.',
      }),
    rootUrl: optionalUrl('Home page').meta({
      description: 'Where the domain itself (go.example.com/) sends a visitor; null: a "not found" page.',
    }),
    notFoundUrl: optionalUrl('Unknown links').meta({
      description: 'Where a link this domain does not know sends a visitor; null: a "not found" page.',
    }),
  },
  bodyError,
);
export type ShortDomainInput = z.input<typeof shortDomainInput>;

export const updateShortDomainInput = shortDomainInput.extend({ id: domainId('Domain id') });
export type UpdateShortDomainInput = z.input<typeof updateShortDomainInput>;

export const shortDomainSchema = z.object({
  id: z.number().int(),
  hostname: z.string(),
  /** `https://go.example.com/` (PUBLIC_URL's scheme): a code's short link is this and its slug. */
  shortLinkBase: z.string().meta({ format: 'uri', examples: ['https://go.example.com/'] }),
  allWorkspaces: z.boolean(),
  workspaces: z.array(z.object({ id: z.number().int(), name: z.string() })),
  rootUrl: z.string().nullable(),
  notFoundUrl: z.string().nullable(),
  codes: z.number().int().meta({ description: 'The codes whose short link uses this domain.' }),
  created: z.string().meta({ format: 'date-time' }),
});
export type ShortDomain = z.infer<typeof shortDomainSchema>;

export const shortDomainListSchema = z.object({ items: z.array(shortDomainSchema) });

/** GET /api/short-domains, qr.domains: what a code of the current workspace may use. */
export const availableDomainsSchema = z.object({
  /** The app's own short links: `PUBLIC_URL/r/`. */
  defaultBase: z.string().meta({ format: 'uri', examples: ['https://qr.example.com/r/'] }),
  items: z.array(shortDomainSchema.pick({ id: true, hostname: true, shortLinkBase: true })),
});
export type AvailableDomains = z.infer<typeof availableDomainsSchema>;

/** GET /api/short-domains/ask?domain=…: a reverse proxy's question before it gets a certificate. */
export const domainAskInput = z.object({
  domain: z
    .string({ error: (i) => (i.input === undefined ? 'domain is required' : 'domain must be text') })
    .trim()
    .toLowerCase()
    .min(1, 'domain is required')
    .max(DOMAIN_MAX + 1, 'domain is too long'),
});
