import { createHash } from 'node:crypto';
import type { DeviceCategory } from '../../../src/analytics/analytics.schema.js';
import type { AddressMode } from '../../../src/forwarding/forwarding.schema.js';
import type { ScanOutcome } from '../../../src/qr/scan-outcome.js';
import { inactiveReasons } from '../../../src/qr/smart-redirect.js';
import { anonymizeAddress } from '../scans/client-address.js';

/**
 * Each provider's request for a list of scans, exactly as its API documents it. Pure: the sender
 * (forwarding.sender.ts) posts what these make.
 *
 * - Matomo, Tracking HTTP API (https://developer.matomo.org/api-reference/tracking-api): bulk tracking,
 *   `POST <matomo>/matomo.php` with the JSON body `{ "requests": ["?idsite=…&rec=1&…", …], "token_auth"? }`,
 *   each request a query string of the documented parameters: `idsite`, `rec=1`, `apiv=1`, `url`,
 *   `action_name`, `_rcn` / `_rck` (campaign name / keyword), `ua`, `urlref`, `_id` (16 hexadecimal
 *   characters), `send_image=0`, the event parameters `e_c` / `e_a` / `e_n`; `cip` (the visitor's address)
 *   only with `token_auth`, and `cdt` (the time) with `token_auth`, or without it when less than 24 hours ago.
 * - Plausible, Events API (https://plausible.io/docs/events-api): `POST <plausible>/api/event`, one event
 *   per request, JSON `{ name, url, domain, referrer?, props }`, the visitor's `User-Agent` header and its
 *   address in `X-Forwarded-For`; UTM parameters in `url` become the source, medium and campaign.
 * - Google Analytics 4, Measurement Protocol (https://developers.google.com/analytics/devguides/collection/
 *   protocol/ga4/reference and …/sending-events): `POST /mp/collect?measurement_id=…&api_secret=…`, JSON
 *   `{ client_id, ip_override?, device: { category }, events: [{ name, timestamp_micros, params }] }`, at most
 *   25 events a request, events backdated at most 72 hours.
 */

/** A scan as the providers get it: what the feed read, with the code's link and the visitor's daily id. */
export interface ForwardedScan {
  /** The code's short link with utm_source=qr, utm_medium=qr and utm_campaign=<code name>. */
  url: string;
  /** The short link alone (the page Matomo and GA4 name). */
  link: string;
  campaign: string;
  userAgent: string | null;
  referrer: string | null;
  /** ms since the epoch. */
  at: number;
  /** The address to pass on (already reduced to the workspace's choice), or null for none. */
  address: string | null;
  /** A hex SHA-256 that changes every UTC day: the visitor's id for that day, never a stable one. */
  visitor: string;
  device: DeviceCategory;
  outcome: ScanOutcome;
}

export interface ProviderRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The scans this request carries. */
  scans: number;
}

export const CAMPAIGN_SOURCE = 'qr';
export const CAMPAIGN_MEDIUM = 'qr';
/** The event names of a refused scan (paused, not started, ended, over its limit): apart from the page views. */
export const REFUSED_EVENT = {
  plausible: 'QR scan refused',
  ga4: 'qr_scan_refused',
  matomo: 'Refused',
} as const;
/** GA4: "Requests can have a maximum of 25 events" (Measurement Protocol reference, limitations). */
export const GA4_MAX_EVENTS = 25;
/** Matomo bulk tracking: requests per POST, kept small so one answer stays quick. */
export const MATOMO_BULK_SIZE = 100;
const DAY_MS = 86_400_000;

export function isRefused(outcome: ScanOutcome): boolean {
  return (inactiveReasons as readonly string[]).includes(outcome.kind);
}

/** "default", "rule-2", "password", "paused", …: the outcome as one word for a prop. */
export function outcomeWord(outcome: ScanOutcome): string {
  return outcome.kind === 'rule' && outcome.rule !== null ? `rule-${outcome.rule}` : outcome.kind;
}

/** The address passed on: none; masked (IPv4 /24, IPv6 /48); or as stored (itself masked with ANONYMIZE_IPS). */
export function addressToSend(stored: string | null, mode: AddressMode): string | null {
  if (mode === 'none' || !stored) return null;
  const masked = anonymizeAddress(stored);
  // Not an address at all ('unknown'): nothing to pass on.
  if (masked === null) return null;
  return mode === 'masked' ? masked : stored.replace(/^::ffff:(?=\d+\.)/i, '');
}

/**
 * The visitor's id of one UTC day: SHA-256 of the workspace's own salt, the day, the stored address and
 * the user agent. It changes every day, so the provider cannot follow anyone across days; the salt is
 * never sent, so it cannot be computed back from an address.
 */
export function dailyVisitor(
  salt: string,
  at: number,
  stored: string | null,
  userAgent: string | null,
): string {
  return createHash('sha256')
    .update(`${salt}\u0000${Math.floor(at / DAY_MS)}\u0000${stored ?? ''}\u0000${userAgent ?? ''}`)
    .digest('hex');
}

/** The short link with the campaign in UTM parameters (what Plausible reads the campaign from). */
export function campaignUrl(link: string, campaign: string): string {
  const url = new URL(link);
  url.searchParams.set('utm_source', CAMPAIGN_SOURCE);
  url.searchParams.set('utm_medium', CAMPAIGN_MEDIUM);
  url.searchParams.set('utm_campaign', campaign);
  return url.href;
}

// ---- Matomo ----

export interface MatomoTarget {
  /** The tracker: `<matomo>/matomo.php`. */
  trackerUrl: string;
  siteId: number;
  tokenAuth: string | null;
}

/** `https://matomo.example.com` or `…/matomo.php` (or the older `piwik.php`) → the tracker's address. */
export function matomoTrackerUrl(url: string): string {
  const parsed = new URL(url);
  if (/\.php$/i.test(parsed.pathname)) return parsed.href;
  parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/matomo.php`;
  return parsed.href;
}

/** One scan as a tracking request's query string (`?idsite=…`), as bulk tracking takes it. */
export function matomoQuery(target: MatomoTarget, scan: ForwardedScan, now: number): string {
  const p = new URLSearchParams();
  p.set('idsite', String(target.siteId));
  p.set('rec', '1');
  p.set('apiv', '1');
  p.set('url', scan.url);
  if (isRefused(scan.outcome)) {
    // A refused scan is an event, not a page view: it led nowhere.
    p.set('e_c', 'QR scan');
    p.set('e_a', REFUSED_EVENT.matomo);
    p.set('e_n', `${scan.campaign} (${outcomeWord(scan.outcome)})`);
  } else {
    p.set('action_name', `QR scan / ${scan.campaign}`);
  }
  p.set('_rcn', scan.campaign);
  p.set('_rck', CAMPAIGN_SOURCE);
  if (scan.userAgent) p.set('ua', scan.userAgent);
  if (scan.referrer) p.set('urlref', scan.referrer);
  p.set('_id', scan.visitor.slice(0, 16));
  // Without token_auth Matomo takes a time only from the last 24 hours (and never an address).
  if (target.tokenAuth !== null || now - scan.at < DAY_MS - 3_600_000) {
    p.set('cdt', String(Math.floor(scan.at / 1000)));
  }
  if (target.tokenAuth !== null && scan.address) p.set('cip', scan.address);
  p.set('send_image', '0');
  return `?${p.toString()}`;
}

export function matomoRequests(
  target: MatomoTarget,
  scans: readonly ForwardedScan[],
  now: number,
): ProviderRequest[] {
  const out: ProviderRequest[] = [];
  for (let i = 0; i < scans.length; i += MATOMO_BULK_SIZE) {
    const chunk = scans.slice(i, i + MATOMO_BULK_SIZE);
    const body = {
      requests: chunk.map((scan) => matomoQuery(target, scan, now)),
      ...(target.tokenAuth !== null ? { token_auth: target.tokenAuth } : {}),
    };
    out.push({
      url: target.trackerUrl,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      scans: chunk.length,
    });
  }
  return out;
}

// ---- Plausible ----

export interface PlausibleTarget {
  /** The Plausible server: `https://plausible.io` or a self-hosted one. */
  url: string;
  domain: string;
}

export function plausibleEventUrl(base: string): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/api/event`;
  url.search = '';
  return url.href;
}

export function plausibleRequest(target: PlausibleTarget, scan: ForwardedScan): ProviderRequest {
  const body = {
    name: isRefused(scan.outcome) ? REFUSED_EVENT.plausible : 'pageview',
    url: scan.url,
    domain: target.domain,
    ...(scan.referrer ? { referrer: scan.referrer } : {}),
    props: { qr_code: scan.campaign, device: scan.device, outcome: outcomeWord(scan.outcome) },
  };
  return {
    url: plausibleEventUrl(target.url),
    headers: {
      'content-type': 'application/json',
      // "The raw value of User-Agent … is used to detect the visitor's browser" (and to count visitors).
      'user-agent': scan.userAgent ?? 'Unknown',
      ...(scan.address ? { 'x-forwarded-for': scan.address } : {}),
    },
    body: JSON.stringify(body),
    scans: 1,
  };
}

// ---- Google Analytics 4 ----

export interface Ga4Target {
  /** GA4_COLLECT_URL. */
  collectUrl: string;
  measurementId: string;
  apiSecret: string;
}

/** GA4's `device.category` values (Measurement Protocol reference: "desktop", "tablet", "mobile"). */
const GA4_DEVICE: Partial<Record<DeviceCategory, string>> = {
  Mobile: 'mobile',
  Tablet: 'tablet',
  Desktop: 'desktop',
};

/** A client_id in gtag's form (two numbers and a dot) from the daily visitor id: no cookie, no stable id. */
export function ga4ClientId(visitor: string): string {
  return `${Number.parseInt(visitor.slice(0, 8), 16)}.${Number.parseInt(visitor.slice(8, 16), 16)}`;
}

function ga4Event(scan: ForwardedScan) {
  return {
    name: isRefused(scan.outcome) ? REFUSED_EVENT.ga4 : 'page_view',
    timestamp_micros: scan.at * 1000,
    params: {
      page_location: scan.url,
      page_title: scan.campaign.slice(0, 100),
      ...(scan.referrer ? { page_referrer: scan.referrer.slice(0, 420) } : {}),
      // The campaign parameters of the documented `campaign_details` event.
      campaign: scan.campaign.slice(0, 100),
      source: CAMPAIGN_SOURCE,
      medium: CAMPAIGN_MEDIUM,
      session_id: String(Number.parseInt(scan.visitor.slice(16, 24), 16)),
      qr_device: scan.device,
      qr_outcome: outcomeWord(scan.outcome),
    },
  };
}

/** Scans grouped by visitor (client_id and address are per request), at most 25 events a request. */
export function ga4Requests(target: Ga4Target, scans: readonly ForwardedScan[]): ProviderRequest[] {
  const groups = new Map<string, ForwardedScan[]>();
  for (const scan of scans) {
    const key = `${ga4ClientId(scan.visitor)}\u0000${scan.address ?? ''}\u0000${scan.device}`;
    const list = groups.get(key) ?? [];
    list.push(scan);
    groups.set(key, list);
  }
  const url = new URL(target.collectUrl);
  url.searchParams.set('measurement_id', target.measurementId);
  url.searchParams.set('api_secret', target.apiSecret);
  const out: ProviderRequest[] = [];
  for (const list of groups.values()) {
    const first = list[0]!;
    for (let i = 0; i < list.length; i += GA4_MAX_EVENTS) {
      const chunk = list.slice(i, i + GA4_MAX_EVENTS);
      const category = GA4_DEVICE[first.device];
      const body = {
        client_id: ga4ClientId(first.visitor),
        ...(first.address ? { ip_override: first.address } : {}),
        ...(category ? { device: { category } } : {}),
        events: chunk.map(ga4Event),
      };
      out.push({
        url: url.href,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        scans: chunk.length,
      });
    }
  }
  return out;
}
