import { createHash } from 'node:crypto';
import { safeFileName } from '../../../../src/file-name.js';
import { decodeContent, encodeContent } from '../../../../src/qr/content.js';
import { compactUtc } from '../../../../src/qr/dates.js';

/**
 * The files behind the landing pages' 'Save contact' (`/r/<slug>/contact.vcf`) and 'Add to calendar'
 * (`/r/<slug>/event.ics`) buttons: the stored payload made into a file calendar and address-book apps
 * accept. Pure functions: the route sends what they return.
 */

export interface DownloadFile {
  body: string;
  /** Safe ASCII: `[a-z0-9-]+` and the extension, e.g. `ada-lovelace.vcf`. */
  filename: string;
}

export interface CalendarFileOptions {
  /** The code's slug: the event's UID is derived from it (stable across edits); otherwise from a content hash. */
  slug?: string;
  /** The DTSTAMP instant (default: now). */
  now?: Date;
}

const LINE_BREAK = /\r\n|\r|\n/;

function physicalLines(text: string): string[] {
  return text.split(LINE_BREAK).filter((line) => line.trim() !== '');
}

/**
 * vCard and iCalendar line folding: at most 75 octets a line (continuations start with a space), never
 * inside a character.
 */
function fold(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  let limit = 75;
  for (const ch of line) {
    const size = Buffer.byteLength(ch);
    if (octets + size > limit && current !== '') {
      parts.push(current);
      current = '';
      octets = 0;
      limit = 74; // after the leading space
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

function contentText(lines: string[]): string {
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

/**
 * Lower-case ASCII words joined by '-', at most 60 characters, invisible characters dropped first
 * (safeFileName); the fallback when nothing is left.
 */
function fileStem(value: string, fallback: string): string {
  const stem = safeFileName(value)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return stem || fallback;
}

function propertyName(line: string): string {
  const match = /^([^:;]*)/.exec(line);
  const name = match?.[1] ?? '';
  return name
    .slice(name.lastIndexOf('.') + 1)
    .trim()
    .toUpperCase();
}

function propertyValue(line: string): string {
  const colon = line.indexOf(':');
  return colon < 0
    ? ''
    : line
        .slice(colon + 1)
        .trim()
        .toUpperCase();
}

const isBegin = (line: string, component: string) =>
  propertyName(line) === 'BEGIN' && propertyValue(line) === component;

/**
 * The contact's `.vcf`: the stored vCard with CRLF line ends and folded lines (a payload that is not a vCard,
 * such as a MECARD, is rewritten as vCard 3.0). The file is named after the contact, e.g. `ada-lovelace.vcf`.
 */
export function contactFile(content: string): DownloadFile {
  let lines = physicalLines(content);
  if (!lines.some((line) => isBegin(line, 'VCARD'))) {
    lines = physicalLines(encodeContent('vcard', decodeContent('vcard', content)));
  }
  const body = contentText(lines);
  const f = decodeContent('vcard', body);
  const name = [f.firstName ?? '', f.lastName ?? ''].join(' ');
  return { body, filename: `${fileStem(name, 'contact')}.vcf` };
}

const PRODID = 'PRODID:-//QR Creator//Landing page//EN';

/** `YYYYMMDDTHHMMSSZ` of the instant (now when it has no such form, e.g. past the year 9999). */
function stampOf(now: Date): string {
  return compactUtc(now.toISOString()) ?? compactUtc(new Date().toISOString()) ?? '';
}

/**
 * The event's `.ics`: the stored VCALENDAR/VEVENT (a bare VEVENT is wrapped; anything else is rebuilt from
 * its decoded fields) with what calendar apps require: VERSION:2.0, PRODID and METHOD:PUBLISH on the calendar,
 * UID and DTSTAMP on each event that lacks them. CRLF line ends, folded lines. Named after the event's title,
 * e.g. `launch-party.ics`.
 */
export function calendarFile(content: string, options: CalendarFileOptions = {}): DownloadFile {
  let lines = physicalLines(content);
  if (!lines.some((line) => isBegin(line, 'VEVENT'))) {
    lines = physicalLines(encodeContent('event', decodeContent('event', content)));
  }
  if (!lines.some((line) => isBegin(line, 'VCALENDAR'))) {
    lines = ['BEGIN:VCALENDAR', ...lines, 'END:VCALENDAR'];
  }
  const slug = (options.slug ?? '').replace(/[^A-Za-z0-9_-]/g, '');
  const uidBase = slug || createHash('sha256').update(content).digest('hex').slice(0, 32);
  const stamp = stampOf(options.now ?? new Date());

  const out: string[] = [];
  const stack: { name: string; insertAt: number; uid: boolean; stamp: boolean }[] = [];
  let events = 0;
  let skipping = false;
  let done = false;

  const close = () => {
    const component = stack.pop();
    if (!component) return;
    if (component.name === 'VEVENT' && stack.length === 1) {
      const missing = [
        ...(component.uid ? [] : [`UID:${uidBase}${events > 0 ? `-${events + 1}` : ''}@qr-creator`]),
        ...(component.stamp ? [] : [`DTSTAMP:${stamp}`]),
      ];
      out.splice(component.insertAt, 0, ...missing);
      events++;
    }
    out.push(`END:${component.name}`);
    if (stack.length === 0) done = true;
  };

  for (const line of lines) {
    if (done) break;
    if (/^[ \t]/.test(line)) {
      if (!skipping && stack.length > 0) out.push(line);
      continue;
    }
    skipping = false;
    const name = propertyName(line);
    if (name === 'BEGIN') {
      const component = propertyValue(line);
      if (stack.length === 0 && component !== 'VCALENDAR') continue;
      out.push(`BEGIN:${component}`);
      stack.push({ name: component, insertAt: out.length, uid: false, stamp: false });
      if (stack.length === 1) out.push('VERSION:2.0', PRODID, 'METHOD:PUBLISH');
    } else if (name === 'END') {
      if (stack.length > 0) close();
    } else if (stack.length === 1 && ['VERSION', 'PRODID', 'METHOD'].includes(name)) {
      skipping = true; // ours replace them
    } else if (stack.length > 0) {
      const top = stack.at(-1)!;
      if (top.name === 'VEVENT' && name === 'UID') top.uid = true;
      if (top.name === 'VEVENT' && name === 'DTSTAMP') top.stamp = true;
      out.push(line);
    }
  }
  while (stack.length > 0) close();

  const body = contentText(out);
  return { body, filename: `${fileStem(decodeContent('event', body).title ?? '', 'event')}.ics` };
}
