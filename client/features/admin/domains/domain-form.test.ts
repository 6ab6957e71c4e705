import { describe, expect, it } from 'vitest';
import { domainMessages, type ShortDomain } from '../../../../src/qr/short-domain.schema';
import {
  askUrlOf,
  availableToText,
  caddyfileOf,
  domainInputOf,
  domainRefusalOf,
  formValuesOf,
  localDomainErrors,
  noWorkspaceChosen,
  workspaceOptions,
} from './domain-form';
import { clientError as anyClientError } from '../../../lib/trpc-error.test-helpers';

/** A refusal of admin.createDomain. */
const clientError = (
  message: string,
  httpStatus: number,
  issues?: { path: string; message: string }[],
  extras?: Record<string, unknown>,
) => anyClientError(message, httpStatus, issues, extras, 'admin.createDomain');

const saved: ShortDomain = {
  id: 7,
  hostname: 'go.example.com',
  shortLinkBase: 'https://go.example.com/',
  allWorkspaces: false,
  workspaces: [
    { id: 3, name: 'Bistro' },
    { id: 9, name: 'Kitchen' },
  ],
  rootUrl: 'https://example.com',
  notFoundUrl: null,
  codes: 2,
  created: '2026-12-07T09:00:00.000Z',
};

describe('formValuesOf / domainInputOf', () => {
  it('a new domain starts empty and available to all workspaces', () => {
    const values = formValuesOf(null);
    expect(values).toEqual({
      hostname: '',
      allWorkspaces: true,
      workspaces: [],
      rootUrl: '',
      notFoundUrl: '',
    });
  });

  it('sends every field: trimmed, empty URLs as null, no workspaces when all may use it', () => {
    const values = formValuesOf(saved);
    expect(domainInputOf(values)).toEqual({
      hostname: 'go.example.com',
      allWorkspaces: false,
      workspaceIds: [3, 9],
      rootUrl: 'https://example.com',
      notFoundUrl: null,
    });
    expect(
      domainInputOf({ ...values, hostname: ' Go.Example.com ', allWorkspaces: true, rootUrl: '  ' }),
    ).toEqual({
      hostname: 'Go.Example.com',
      allWorkspaces: true,
      workspaceIds: [],
      rootUrl: null,
      notFoundUrl: null,
    });
  });
});

describe('localDomainErrors', () => {
  const good = { ...formValuesOf(null), hostname: 'go.example.com' };

  it('takes a good domain', () => {
    expect(localDomainErrors(good)).toEqual({});
    expect(localDomainErrors({ ...good, hostname: 'GO.Example.com.' })).toEqual({});
  });

  it("refuses what the server would, on the field, in the shared schema's words", () => {
    expect(localDomainErrors({ ...good, hostname: '' }).hostname).toBe(domainMessages.required);
    for (const bad of ['https://go.example.com', 'go.example.com:8080', 'go.example.com/menu', 'localhost']) {
      expect(localDomainErrors({ ...good, hostname: bad }).hostname, bad).toBe(domainMessages.hostName);
    }
    const urls = localDomainErrors({ ...good, rootUrl: 'example.com', notFoundUrl: 'javascript:alert(1)' });
    expect(urls.rootUrl).toBe('Home page must be an http or https URL');
    expect(urls.notFoundUrl).toBe('Unknown links must be an http or https URL');
  });

  it('asks for a workspace when only chosen ones may use it', () => {
    expect(localDomainErrors({ ...good, allWorkspaces: false }).workspaceIds).toBe(noWorkspaceChosen);
    expect(localDomainErrors({ ...good, allWorkspaces: false, workspaces: [{ id: 1, name: 'A' }] })).toEqual(
      {},
    );
  });
});

describe('domainRefusalOf', () => {
  it('puts a validation issue on the field its path names', () => {
    expect(
      domainRefusalOf(
        clientError(domainMessages.hostName, 400, [{ path: 'hostname', message: domainMessages.hostName }]),
        'x',
      ),
    ).toEqual({ field: 'hostname', message: domainMessages.hostName });
    expect(
      domainRefusalOf(
        clientError('bad', 400, [{ path: 'workspaceIds.0', message: 'Workspaces must be workspace ids' }]),
        'x',
      ),
    ).toEqual({ field: 'workspaceIds', message: 'Workspaces must be workspace ids' });
  });

  it('puts a refusal with a field extra on that field (DOMAIN_TAKEN, the app address)', () => {
    expect(
      domainRefusalOf(clientError(domainMessages.taken, 409, undefined, { field: 'hostname' }), 'x'),
    ).toEqual({ field: 'hostname', message: domainMessages.taken });
    expect(
      domainRefusalOf(clientError(domainMessages.appAddress, 400, undefined, { field: 'hostname' }), 'x'),
    ).toEqual({ field: 'hostname', message: domainMessages.appAddress });
  });

  it("says anything else without a field: the server's message, else the fallback", () => {
    expect(domainRefusalOf(clientError(domainMessages.inUse(3), 409), 'x')).toEqual({
      field: null,
      message: '3 codes use this domain: give them another domain first',
    });
    expect(domainRefusalOf(new TypeError('Failed to fetch'), 'Not saved')).toEqual({
      field: null,
      message: 'Not saved',
    });
    expect(domainRefusalOf('nope', 'Not saved')).toEqual({ field: null, message: 'Not saved' });
  });
});

describe('the table and the workspace options', () => {
  it('says who may use a domain', () => {
    expect(availableToText({ allWorkspaces: true, workspaces: [] })).toBe('All workspaces');
    expect(availableToText(saved)).toBe('Bistro, Kitchen');
    expect(availableToText({ allWorkspaces: false, workspaces: [] })).toBe('No workspace');
  });

  it('lists the chosen workspaces and the ones found, each once', () => {
    expect(
      workspaceOptions(
        [{ id: 3, name: 'Bistro' }],
        [
          { id: 5, name: 'Bakery' },
          { id: 3, name: 'Bistro' },
        ],
      ),
    ).toEqual([
      { value: 3, label: 'Bistro' },
      { value: 5, label: 'Bakery' },
    ]);
  });
});

describe('the set-up text', () => {
  it("gives Caddy this server's ask URL", () => {
    expect(askUrlOf('https://qr.example.com')).toBe('https://qr.example.com/api/short-domains/ask');
    expect(askUrlOf('https://qr.example.com/')).toBe('https://qr.example.com/api/short-domains/ask');
    const caddyfile = caddyfileOf('https://qr.example.com');
    expect(caddyfile).toContain('on_demand_tls {\n\t\task http://127.0.0.1:3000/api/short-domains/ask\n\t}');
    expect(caddyfile).toContain('qr.example.com {\n\treverse_proxy 127.0.0.1:3000\n}');
    expect(caddyfile).toContain('https:// {\n\ttls {\n\t\ton_demand\n\t}\n\treverse_proxy 127.0.0.1:3000\n}');
  });
});
