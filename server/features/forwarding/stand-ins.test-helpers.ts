import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the three analytics APIs (node:http on 127.0.0.1): each records every request and
 * checks it field by field against the format its provider documents, listing what is wrong in
 * `problems` (a test expects none), and answers as the provider does unless a test says otherwise.
 *
 * - Matomo, Tracking HTTP API, bulk tracking (developer.matomo.org/api-reference/tracking-api): POST to
 *   matomo.php, JSON { requests: ["?idsite=…&rec=1&…"], token_auth? }; `cip` and a `cdt` older than 24 hours
 *   need token_auth; answers 200 { status: 'success', tracked, invalid }.
 * - Plausible, Events API (plausible.io/docs/events-api): POST /api/event, JSON { name, url, domain,
 *   referrer?, props?, revenue?, interactive? }, a User-Agent header; answers 202 "ok".
 * - GA4, Measurement Protocol (developers.google.com/analytics/devguides/collection/protocol/ga4/reference):
 *   POST /mp/collect?measurement_id=&api_secret=, JSON { client_id, events: [{ name, params }] (1–25), … };
 *   event names letters, digits and underscores, starting with a letter, at most 40; at most 25 params;
 *   answers 204.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: unknown;
  problems: string[];
}

export interface StandInAnswer {
  status: number;
  body?: string;
  /** Wait before answering (a provider that is slow or down). */
  delayMs?: number;
}

export interface AnalyticsStandIn {
  url: string;
  requests: RecordedRequest[];
  /** Decides the answer of each request; unset: the provider's own success. */
  respond: ((req: RecordedRequest) => StandInAnswer) | null;
  close(): Promise<void>;
}

const MATOMO_PARAMS = new Set([
  'idsite',
  'rec',
  'apiv',
  'url',
  'action_name',
  '_rcn',
  '_rck',
  'ua',
  'urlref',
  '_id',
  'cdt',
  'cip',
  'send_image',
  'e_c',
  'e_a',
  'e_n',
  'e_v',
  'rand',
]);
const PLAUSIBLE_FIELDS = new Set(['name', 'url', 'domain', 'referrer', 'props', 'revenue', 'interactive']);
const GA4_FIELDS = new Set([
  'client_id',
  'user_id',
  'timestamp_micros',
  'user_properties',
  'user_data',
  'consent',
  'non_personalized_ads',
  'user_location',
  'ip_override',
  'device',
  'events',
  'validation_behavior',
]);
const DAY_MS = 86_400_000;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isHttpUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\/[^\s]+$/.test(v);

export function checkMatomo(req: RecordedRequest): string[] {
  const problems: string[] = [];
  if (req.method !== 'POST') problems.push('bulk tracking is a POST');
  if (!/\/(matomo|piwik)\.php$/.test(req.path)) problems.push(`not the tracker: ${req.path}`);
  if (!String(req.headers['content-type']).startsWith('application/json')) problems.push('not JSON');
  const body = req.json;
  if (!isObject(body) || !Array.isArray(body.requests)) return [...problems, 'no requests array'];
  const keys = Object.keys(body).filter((k) => k !== 'requests' && k !== 'token_auth');
  if (keys.length > 0) problems.push(`unknown body fields: ${keys.join(', ')}`);
  const token = body.token_auth;
  if (token !== undefined && typeof token !== 'string') problems.push('token_auth not a string');
  for (const entry of body.requests) {
    if (typeof entry !== 'string' || !entry.startsWith('?')) {
      problems.push('a request is not a query string');
      continue;
    }
    const q = new URLSearchParams(entry.slice(1));
    for (const key of q.keys()) if (!MATOMO_PARAMS.has(key)) problems.push(`undocumented parameter ${key}`);
    if (!/^\d+$/.test(q.get('idsite') ?? '')) problems.push('idsite missing');
    if (q.get('rec') !== '1') problems.push('rec is not 1');
    if (!isHttpUrl(q.get('url'))) problems.push('url missing');
    if (!q.get('action_name') && !(q.get('e_c') && q.get('e_a')))
      problems.push('neither a page view nor an event');
    const id = q.get('_id');
    if (id !== null && !/^[0-9a-f]{16}$/.test(id)) problems.push('_id is not 16 hexadecimal characters');
    if (q.has('cip') && !token) problems.push('cip without token_auth');
    const cdt = q.get('cdt');
    if (cdt !== null) {
      if (!/^\d+$/.test(cdt)) problems.push('cdt is not a UNIX timestamp');
      else if (!token && Date.now() - Number(cdt) * 1000 > DAY_MS)
        problems.push('old cdt without token_auth');
    }
  }
  return problems;
}

export function checkPlausible(req: RecordedRequest): string[] {
  const problems: string[] = [];
  if (req.method !== 'POST' || !req.path.endsWith('/api/event'))
    problems.push(`not POST /api/event: ${req.path}`);
  if (!String(req.headers['content-type']).startsWith('application/json')) problems.push('not JSON');
  if (!req.headers['user-agent']) problems.push('no User-Agent');
  const xff = req.headers['x-forwarded-for'];
  if (xff !== undefined && !/^[0-9a-f.:]+$/i.test(String(xff)))
    problems.push('X-Forwarded-For is no address');
  const body = req.json;
  if (!isObject(body)) return [...problems, 'body is not an object'];
  for (const key of Object.keys(body)) if (!PLAUSIBLE_FIELDS.has(key)) problems.push(`unknown field ${key}`);
  if (typeof body.name !== 'string' || !body.name) problems.push('name missing');
  if (!isHttpUrl(body.url)) problems.push('url missing');
  if (typeof body.domain !== 'string' || !body.domain) problems.push('domain missing');
  if (body.referrer !== undefined && typeof body.referrer !== 'string')
    problems.push('referrer not a string');
  if (body.props !== undefined) {
    if (!isObject(body.props)) problems.push('props not an object');
    else {
      const entries = Object.entries(body.props);
      if (entries.length > 30) problems.push('more than 30 props');
      for (const [, v] of entries)
        if (!['string', 'number', 'boolean'].includes(typeof v)) problems.push('a prop is not scalar');
    }
  }
  return problems;
}

export function checkGa4(req: RecordedRequest): string[] {
  const problems: string[] = [];
  if (req.method !== 'POST' || !req.path.endsWith('/mp/collect'))
    problems.push(`not POST /mp/collect: ${req.path}`);
  if (!req.query.get('measurement_id')) problems.push('measurement_id missing');
  if (!req.query.get('api_secret')) problems.push('api_secret missing');
  const body = req.json;
  if (!isObject(body)) return [...problems, 'body is not an object'];
  for (const key of Object.keys(body)) if (!GA4_FIELDS.has(key)) problems.push(`unknown field ${key}`);
  if (typeof body.client_id !== 'string' || !body.client_id) problems.push('client_id missing');
  if (!Array.isArray(body.events) || body.events.length === 0) return [...problems, 'no events'];
  if (body.events.length > 25) problems.push('more than 25 events');
  for (const event of body.events as unknown[]) {
    if (!isObject(event)) {
      problems.push('an event is not an object');
      continue;
    }
    if (typeof event.name !== 'string' || !/^[a-zA-Z][a-zA-Z0-9_]{0,39}$/.test(event.name))
      problems.push(`bad event name ${String(event.name)}`);
    if (event.timestamp_micros !== undefined) {
      const micros = Number(event.timestamp_micros);
      if (!Number.isInteger(micros) || Date.now() - micros / 1000 > 72 * 3_600_000)
        problems.push('timestamp_micros not within 72 hours');
    }
    if (event.params !== undefined) {
      if (!isObject(event.params)) problems.push('params not an object');
      else if (Object.keys(event.params).length > 25) problems.push('more than 25 params');
      else
        for (const v of Object.values(event.params))
          if (typeof v === 'string' && v.length > 500) problems.push('a param value is too long');
    }
  }
  if (body.device !== undefined && (!isObject(body.device) || typeof body.device.category !== 'string'))
    problems.push('device without category');
  return problems;
}

const checks = { matomo: checkMatomo, plausible: checkPlausible, ga4: checkGa4 };
const answers: Record<keyof typeof checks, (req: RecordedRequest) => StandInAnswer> = {
  matomo: (req) => {
    const n = isObject(req.json) && Array.isArray(req.json.requests) ? req.json.requests.length : 0;
    return { status: 200, body: JSON.stringify({ status: 'success', tracked: n, invalid: 0 }) };
  },
  plausible: () => ({ status: 202, body: 'ok' }),
  ga4: () => ({ status: 204 }),
};

export async function startAnalyticsStandIn(kind: keyof typeof checks): Promise<AnalyticsStandIn> {
  const standIn: AnalyticsStandIn = {
    url: '',
    requests: [],
    respond: null,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = null;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        json,
        problems: [],
      };
      recorded.problems = checks[kind](recorded);
      standIn.requests.push(recorded);
      const answer = (standIn.respond ?? answers[kind])(recorded);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
