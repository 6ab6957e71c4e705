import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contentFieldsSchema,
  decodeContent,
  describeContent,
  emptyFields,
  encodeContent,
  PAYLOAD_MAX,
  validatePayload,
  type ContentFields,
} from './content';
import { contentFields, type FieldDef } from './content-fields';
import { qrTypes, type QrType } from './qr-types';

const RUNS = { numRuns: 200 };

/** The characters every payload format treats specially, plus accents, emoji, odd spaces and format prefixes. */
const awkwardUnit = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      ';',
      ',',
      ':',
      '\\',
      '"',
      '\n',
      '\r\n',
      '\r',
      ' ',
      '\t',
      '=',
      '&',
      '?',
      '#',
      '%',
      '%0A',
      '+',
      '@',
      '\\n',
      ';;',
      'é',
      'ß',
      'Ü',
      'ñ',
      '😀',
      '👍🏽',
      '👨‍👩‍👧',
      '\u00a0',
      '\u2028',
      '\uD800',
      'BEGIN:VCARD',
      'END:VEVENT',
      'WIFI:',
      'S:',
      'mailto:',
    ),
  },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 3 }) },
);
const awkward = (maxLength = 24) => fc.string({ unit: awkwardUnit, maxLength });

const spaces = fc.constantFrom('', ' ', '  ', '\t', '\n');
const padded = (arb: fc.Arbitrary<string>) =>
  fc.tuple(spaces, arb, spaces).map(([before, value, after]) => before + value + after);

const httpUrl = fc.webUrl({ withQueryParameters: true, withFragments: true });
/** fc.emailAddress follows RFC 5322; most of its addresses are stricter than zod's, so mix in zod-shaped ones. */
const email = fc.oneof(
  fc.emailAddress(),
  fc.stringMatching(
    /^[A-Za-z0-9_+-]{1,10}(\.[A-Za-z0-9_'+-]{0,5}[A-Za-z0-9_+-])?@([a-z0-9][a-z0-9-]{0,8}\.){1,3}[a-z]{2,6}$/,
  ),
);
const phone = fc.string({ unit: fc.constantFrom(...'0123456789+-(). /*#,;xX'), minLength: 1, maxLength: 20 });

const isoDate = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => d.getTime());

/** The same instant written with a zone offset, to exercise the schema's normalisation to UTC. */
function withOffset(time: number, offsetMinutes: number): string {
  const local = new Date(time + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
const dateText = (time: number) =>
  fc.oneof(
    fc.constant(new Date(time).toISOString()),
    fc.integer({ min: -12 * 60, max: 14 * 60 }).map((offset) => withOffset(time, offset)),
  );

function fieldArbitrary(def: FieldDef): fc.Arbitrary<string> {
  switch (def.kind) {
    case 'url':
      return def.required ? padded(httpUrl) : fc.oneof(httpUrl, awkward());
    case 'email':
      return def.required ? padded(email) : fc.oneof(email, awkward());
    case 'tel':
      return def.required ? padded(phone) : fc.oneof(phone, awkward());
    case 'select':
      return fc.constantFrom(...(def.options ?? []).flatMap((o) => [o.value, o.value.toLowerCase()]));
    case 'datetime':
      return isoDate.chain(dateText);
    case 'textarea':
      return awkward(60);
    case 'text':
      return awkward();
  }
}

/** Raw form input for a type; the event's end is usually after its start so few inputs are filtered out. */
function rawFields(type: QrType): fc.Arbitrary<Record<string, unknown>> {
  const shape = Object.fromEntries(contentFields[type].map((def) => [def.name, fieldArbitrary(def)]));
  const base = fc.record({ ...shape, unknownKey: fc.constant('dropped') });
  if (type !== 'event') return base;
  return fc
    .tuple(base, isoDate, fc.option(fc.integer({ min: 0, max: 10 * 24 * 3600 }), { nil: undefined }))
    .chain(([fields, start, duration]) =>
      fc
        .tuple(dateText(start), duration === undefined ? fc.constant('') : dateText(start + duration * 1000))
        .map(([startDate, endDate]) => ({ ...fields, startDate, endDate })),
    );
}

/** Every x the schema outputs for the type. */
function validFields(type: QrType): fc.Arbitrary<ContentFields> {
  const schema = contentFieldsSchema(type);
  return rawFields(type)
    .map((raw) => schema.safeParse(raw))
    .filter((r) => r.success)
    .map((r) => r.data);
}

/** What the payload carries: pdf, video and image keep their title beside the payload, not in it. */
function carried(type: QrType, x: ContentFields): ContentFields {
  return type === 'pdf' || type === 'video' || type === 'image' ? { ...x, title: '' } : x;
}

describe('round trip: decodeContent(t, encodeContent(t, x)) = x', () => {
  it.each(qrTypes)('%s', (type) => {
    fc.assert(
      fc.property(validFields(type), (x) => {
        expect(decodeContent(type, encodeContent(type, x))).toEqual(carried(type, x));
      }),
      RUNS,
    );
  });
});

describe('the server accepts what the client encodes', () => {
  it.each(qrTypes)('%s: validatePayload(t, encodeContent(t, x)) answers x', (type) => {
    fc.assert(
      fc.property(validFields(type), (x) => {
        const payload = encodeContent(type, x);
        fc.pre(payload.length <= PAYLOAD_MAX);
        expect(validatePayload(type, payload)).toEqual({ ok: true, fields: carried(type, x) });
      }),
      RUNS,
    );
  });
});

describe('schema', () => {
  it.each(qrTypes)('%s: normalising twice changes nothing', (type) => {
    const schema = contentFieldsSchema(type);
    fc.assert(
      fc.property(validFields(type), (x) => {
        expect(schema.parse(x)).toEqual(x);
      }),
      RUNS,
    );
  });

  it.each(['url', 'social', 'pdf', 'video', 'image'] as const)(
    '%s: refuses every scheme but http(s)',
    (type) => {
      const other = fc.webUrl({
        validSchemes: ['javascript', 'data', 'file', 'ftp', 'vbscript', 'blob', 'httpx'],
      });
      fc.assert(
        fc.property(padded(other), (url) => {
          expect(validatePayload(type, url)).toEqual({
            ok: false,
            message: 'Must be a valid URL',
            field: 'url',
          });
        }),
        RUNS,
      );
    },
  );
});

describe('vCard and iCalendar framing', () => {
  it.each(['vcard', 'event'] as const)('%s: values never break a line', (type) => {
    fc.assert(
      fc.property(validFields(type), (x) => {
        const lines = encodeContent(type, x).split('\r\n');
        for (const line of lines) expect(line).not.toMatch(/[\r\n]/);
        expect(lines[0]).toBe(type === 'vcard' ? 'BEGIN:VCARD' : 'BEGIN:VCALENDAR');
        expect(lines.at(-1)).toBe(type === 'vcard' ? 'END:VCARD' : 'END:VCALENDAR');
      }),
      RUNS,
    );
  });
});

describe('any payload', () => {
  const anyPayload = fc.oneof(awkward(80), fc.string({ unit: 'binary', maxLength: 80 }));

  it.each(qrTypes)('%s: decodes to the type’s fields, never throws', (type) => {
    const keys = Object.keys(emptyFields(type)).sort();
    fc.assert(
      fc.property(anyPayload, (payload) => {
        const fields = decodeContent(type, payload);
        expect(Object.keys(fields).sort()).toEqual(keys);
        for (const value of Object.values(fields)) expect(typeof value).toBe('string');
        expect(describeContent(type, payload)).not.toMatch(/[\r\n]/);
        const check = validatePayload(type, payload);
        if (check.ok) expect(contentFieldsSchema(type).safeParse(check.fields).success).toBe(true);
      }),
      RUNS,
    );
  });
});
