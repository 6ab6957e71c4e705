import { z } from 'zod';
import { allContentFields, contentFields, type FieldDef } from './content-fields';
import { isEmailAddress, isHttpUrl, isPhoneNumber } from './field-checks';
import { canonicalDateTime } from './dates';
import { normalizeQrType, qrTypeLabels, type QrType } from './qr-types';
import { unixNewlines, wellFormed } from './text';
import type { ContentFields, FieldRefinement, FieldsIn } from './types/codec';
import { qrTypeCodecs } from './types/registry';

// Each type's field rules, payload format and summary live in its codec (`./types/<type>.ts`); this module
// holds the rules every field shares and dispatches to the codec of the type.

/** The content of one code, by field name; see its definition for the round-trip rule. */
export type { ContentFields } from './types/codec';

/** The longest payload the server stores (a QR code holds less than 3 kB anyway). */
export const PAYLOAD_MAX = 4000;

export type PayloadCheck =
  { ok: true; fields: ContentFields } | { ok: false; message: string; field?: string };

function orList(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

function fieldSchema(def: FieldDef, refinement: FieldRefinement = {}): z.ZodType<string> {
  const { label } = def;
  return z.preprocess(
    (input) => (input === undefined || input === null ? '' : input),
    z.string({ error: `${label} must be text` }).transform((input, ctx) => {
      const fail = (message: string) => {
        ctx.addIssue({ code: 'custom', message, input });
        return z.NEVER;
      };
      const value = refinement.verbatim ? wellFormed(input) : unixNewlines(wellFormed(input)).trim();
      if (value.trim() === '') return def.required ? fail(`${label} is required`) : value;
      if (value.length > def.maxLength) return fail(`${label} must be at most ${def.maxLength} characters`);
      if (refinement.check) {
        const outcome = refinement.check(value, label);
        return 'value' in outcome ? outcome.value : fail(outcome.message);
      }
      if (def.kind === 'datetime') return canonicalDateTime(value) ?? fail(`${label} must be a valid date`);
      if (def.kind === 'select') {
        const options = def.options ?? [];
        const option = options.find((o) => o.value.toLowerCase() === value.toLowerCase());
        return option ? option.value : fail(`${label} must be ${orList(options.map((o) => o.label))}`);
      }
      // The product's field rules: optional fields are not checked beyond their length.
      if (!def.required) return value;
      if (def.kind === 'url' && !isHttpUrl(value)) return fail('Must be a valid URL');
      if (def.kind === 'email' && !isEmailAddress(value)) return fail('Must be a valid email address');
      if (def.kind === 'tel' && !isPhoneNumber(value)) return fail('Must be a valid phone number');
      return value;
    }),
  );
}

function buildSchema(type: QrType): z.ZodType<ContentFields> {
  const codec = qrTypeCodecs[type];
  const shape: Record<string, z.ZodType<string>> = {};
  for (const def of allContentFields(type)) shape[def.name] = fieldSchema(def, codec.fields?.[def.name]);
  const object = z.object(shape);
  const refined = codec.refine ? codec.refine(object) : object;
  // Hidden fields are optional and left out of the content when blank.
  const hidden = allContentFields(type).filter((def) => def.hidden);
  if (hidden.length === 0) return refined;
  return refined.transform((value) => {
    const out = { ...value };
    for (const { name } of hidden) if (out[name] === '') delete out[name];
    return out;
  });
}

const schemas = new Map<QrType, z.ZodType<ContentFields>>();

/**
 * The content form of a type (unknown → url). Required fields must be non-blank ('{label} is required');
 * required url fields absolute http(s) ('Must be a valid URL'), required e-mail fields valid ('Must be a valid
 * email address'), required phone fields phone-like ('Must be a valid phone number'); optional fields are only
 * length-checked. Output: every field present, trimmed, line breaks as `\n`, datetimes canonical UTC at whole
 * seconds; Wi-Fi SSID and password untrimmed, and no password for an open network. Unknown keys are dropped.
 * Hidden fields: the event's optional `timeZone` must be a known IANA zone ('Time zone must be a known IANA
 * time zone, such as Europe/Berlin'), comes out in the zone's own spelling, and is left out when blank.
 */
export function contentFieldsSchema(type: string): z.ZodType<ContentFields> {
  const t = normalizeQrType(type);
  let schema = schemas.get(t);
  if (!schema) {
    schema = buildSchema(t);
    schemas.set(t, schema);
  }
  return schema;
}

/** A blank form of the type: every input field '', except Wi-Fi security 'WPA' (no hidden fields). */
export function emptyFields(type: string): ContentFields {
  const t = normalizeQrType(type);
  const defaults = qrTypeCodecs[t].formDefaults ?? {};
  return Object.fromEntries(contentFields[t].map((def) => [def.name, defaults[def.name] ?? '']));
}

/**
 * The payload a phone camera understands: the plain url or text; `mailto:` (RFC 6068); `SMSTO:phone:message`;
 * `WIFI:T:…;S:…;P:…;;`; vCard 3.0; an iCalendar VEVENT (UTC times, the event's `timeZone` as the calendar's
 * `X-WR-TIMEZONE`); `tel:`. Values are used as given (validate first).
 * Unknown type → url.
 */
export function encodeContent(type: string, fields: FieldsIn): string {
  return qrTypeCodecs[normalizeQrType(type)].encode(fields);
}

/**
 * The fields of a payload, every input field of the type present; a hidden field (the event's `timeZone`,
 * from `X-WR-TIMEZONE`) only when the payload has it. Reads other generators' payloads too (any WIFI
 * segment order, quoted values; `mailto:` with cc/to; `MATMSG:`; `SMSTO:`, `SMS:`, `sms:…?body=`; vCard 2.1–4
 * with extra lines, groups, folding and quoted-printable; `MECARD:`; bare VEVENTs; any prefix case). A payload
 * that is not of the type gives a best effort (the whole payload in the main field) for the schema to judge.
 */
export function decodeContent(type: string, payload: string): ContentFields {
  return qrTypeCodecs[normalizeQrType(type)].decode(payload);
}

/**
 * The server's check of a stored payload: at most PAYLOAD_MAX characters, then decoded and validated with
 * the type's schema (so url-like types refuse javascript:, data:, file: and any non-http(s) URL).
 * `fields` is the normalised content; `field` names the failing field when there is one.
 */
export function validatePayload(type: string, payload: string): PayloadCheck {
  if (payload.length > PAYLOAD_MAX) {
    return { ok: false, message: `Content must be at most ${PAYLOAD_MAX} characters` };
  }
  const result = contentFieldsSchema(type).safeParse(decodeContent(type, payload));
  if (result.success) return { ok: true, fields: result.data };
  const issue = result.error.issues[0];
  const field = issue?.path[0];
  return {
    ok: false,
    message: issue?.message ?? 'Content is invalid',
    ...(typeof field === 'string' ? { field } : {}),
  };
}

const SUMMARY_MAX = 80;

function oneLine(value: string): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length > SUMMARY_MAX ? `${chars.slice(0, SUMMARY_MAX - 1).join('')}…` : flat;
}

/** A one-line summary for lists, e.g. 'Wi-Fi: MyNet (WPA)', 'Email: a@b.c — Hello'. */
export function describeContent(type: string, payload: string): string {
  const t = normalizeQrType(type);
  const summary = qrTypeCodecs[t].describe(decodeContent(t, payload));
  return `${qrTypeLabels[t]}: ${oneLine(summary) || '(empty)'}`;
}
