import { z } from 'zod';
import {
  availableDomainsSchema,
  domainAskInput,
  shortDomainIdInput,
  shortDomainInput,
  shortDomainSchema,
} from '../../../src/qr/short-domain.schema.js';
import { appError } from '../../errors.js';
import { defineRoute } from '../../rest/rest-kit.js';
import { answersForDomain } from './short-domains.service.js';

const deleted = z.object({ success: z.literal(true) });

/** Short domains (issue 35): the admin's list, a workspace's choice, and a reverse proxy's question. */
export const shortDomainRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/short-domains',
    tokens: 'read',
    summary:
      "The short domains a dynamic code of the current workspace may use → { defaultBase (PUBLIC_URL/r/), items: [{ id, hostname, shortLinkBase }] }; a code's domainId picks one.",
    access: 'user',
    role: 'viewer',
    answer: availableDomainsSchema,
    handler: ({ caller }) => caller.qr.domains(),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/short-domains/ask',
    summary:
      "Whether this server answers for ?domain (a short domain, or the app's own host): 200 { domain, allowed: true }, else 404. For a reverse proxy's on-demand certificates (Caddy's on_demand_tls ask).",
    access: 'public',
    query: domainAskInput,
    answer: z.object({ domain: z.string(), allowed: z.literal(true) }),
    handler: async ({ ctx, query }) => {
      if (!(await answersForDomain(ctx, query.domain)))
        throw appError('NOT_FOUND', `Not a domain of this server: ${query.domain.slice(0, 254)}`);
      return { domain: query.domain, allowed: true as const };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/domains',
    tokens: 'read',
    summary:
      'Every short domain, newest first → { items: [{ id, hostname, shortLinkBase, allWorkspaces, workspaces, rootUrl, notFoundUrl, codes, created }] }.',
    access: 'admin',
    answer: z.object({ items: z.array(shortDomainSchema) }),
    handler: ({ caller }) => caller.admin.domains(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/domains',
    tokens: 'write',
    status: 201,
    summary:
      '{ hostname, allWorkspaces, workspaceIds, rootUrl, notFoundUrl } → the new short domain; 409 DOMAIN_TAKEN when it is there already.',
    access: 'admin',
    body: shortDomainInput,
    answer: shortDomainSchema,
    handler: ({ caller, body }) => caller.admin.createDomain(body),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/admin/domains/:id',
    tokens: 'write',
    summary:
      "Replaces a short domain's fields ({ hostname, allWorkspaces, workspaceIds, rootUrl, notFoundUrl }) → the domain; its name cannot change while codes use it (409 DOMAIN_IN_USE). A code keeps answering on the domain it uses, whatever its workspaces.",
    access: 'admin',
    object: 'shortDomain',
    params: shortDomainIdInput,
    body: shortDomainInput,
    answer: shortDomainSchema,
    handler: ({ caller, params, body }) => caller.admin.updateDomain({ ...body, id: params.id }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/admin/domains/:id',
    tokens: 'write',
    summary: 'Deletes a short domain no code uses → { success: true }; 409 DOMAIN_IN_USE otherwise.',
    access: 'admin',
    object: 'shortDomain',
    params: shortDomainIdInput,
    answer: deleted,
    handler: ({ caller, params }) => caller.admin.deleteDomain(params),
  }),
];
