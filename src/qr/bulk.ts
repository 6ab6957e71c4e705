import { z } from 'zod';
import { safeFileName } from '../file-name.js';
import { withHttps } from './bare-url.js';
import { allContentFields, type FieldDef } from './content-fields.js';
import { contentFieldsSchema, emptyFields, encodeContent, validatePayload } from './content.js';
import { customizationSchema } from './customization.js';
import { canonicalDateTime, canonicalTimeZone, timeZoneOffset } from './dates.js';
import { qrIdSchema } from './qr-id.js';
import { qrTypeLabels, qrTypes, type QrType } from './qr-types.js';
import { createFolderInput, createQrCodeInput, qrImageInput } from './qr.schema.js';
import { suggestQrName } from './suggest-name.js';

/**
 * Bulk creation: a spreadsheet (CSV or XLSX) turned into many codes. The server parses the file into
 * rows of text (POST /api/qr-codes/bulk/parse); the browser maps columns to targets and checks every
 * row with `bulkRow` (the same content schema as the designer's form); the server creates them all in
 * one call (POST /api/qr-codes/bulk, `qr.bulkCreate`) and renders their images into one ZIP
 * (POST /api/qr-codes/archive).
 */

/** The most codes one call creates (and rows one file gives). */
export const BULK_MAX_ROWS = 5000;
/** The largest spreadsheet the parse path accepts. */
export const BULK_FILE_MAX_BYTES = 5 * 1024 * 1024;

/** What a column of the file becomes: nothing, the code's name, type, folder or kind, or a content field. */
export type BulkTarget = 'ignore' | 'name' | 'type' | 'folder' | 'dynamic' | `field:${string}`;

/** One row ready to be created (the shape of an item of `bulkCreateInput.codes`). */
export interface BulkCodeInput {
  name: string;
  type: QrType;
  content: string;
  isDynamic: boolean;
  /** A folder name (found case-insensitively among the user's folders, or created); null: `folderId`. */
  folder: string | null;
}

/** What a row takes when it has no column for it (or a blank cell). */
export interface BulkDefaults {
  type: QrType;
  isDynamic: boolean;
  folder: string | null;
}

export type BulkRowResult =
  { ok: true; code: BulkCodeInput } | { ok: false; errors: { field: string; message: string }[] };

export const bulkMessages = {
  unknownType: 'Type is not a known QR code type',
  dynamic: 'Dynamic must be yes or no (also true/false, 1/0, dynamic/static)',
  notAnObject: 'Each code must be an object { name, type, content }',
  /** A row left out when `allOrNothing` is false and the plan is full. */
  overLimit: (max: number) => `Over your plan's limit of ${max} QR codes`,
  /** The 403 of an all-or-nothing call whose rows do not all fit (the plan is not full yet). */
  doesNotFit: (rows: number, count: number, max: number) =>
    `These ${rows} QR codes do not fit: your plan allows ${max} QR codes and you have ${count}. ` +
    `Create at most ${Math.max(0, max - count)}, or upgrade to Pro.`,
} as const;

// ---------------------------------------------------------------------------------------------------------
// Column targets

const META_TARGETS: { value: BulkTarget; label: string }[] = [
  { value: 'ignore', label: 'Ignore' },
  { value: 'name', label: 'Name' },
  { value: 'type', label: 'Type' },
  { value: 'folder', label: 'Folder' },
  { value: 'dynamic', label: 'Dynamic' },
];

interface BulkField {
  def: FieldDef;
  label: string;
}

/** The fields of every type, once each by name, labelled by the label most types give it. */
function unionFields(): BulkField[] {
  const byName = new Map<string, { def: FieldDef; labels: Map<string, number>; firstType: QrType }>();
  for (const type of qrTypes) {
    for (const def of allContentFields(type)) {
      const entry = byName.get(def.name) ?? { def, labels: new Map(), firstType: type };
      entry.labels.set(def.label, (entry.labels.get(def.label) ?? 0) + 1);
      byName.set(def.name, entry);
    }
  }
  const fields = [...byName.values()].map(({ def, labels, firstType }) => {
    // The label most types give the field ('Title' rather than vCard's 'Job title'); ties: the first.
    let label = def.label;
    let best = 0;
    for (const [candidate, count] of labels) {
      if (count > best) [label, best] = [candidate, count];
    }
    return { def, label, firstType };
  });
  // Two fields that share a label (email's and SMS's 'Message') say whose they are.
  return fields.map(({ def, label, firstType }) => ({
    def,
    label:
      fields.filter((f) => f.label === label).length > 1 ? `${label} (${qrTypeLabels[firstType]})` : label,
  }));
}

let unionCache: BulkField[] | undefined;

function bulkFields(type: QrType, typeFromColumn: boolean): BulkField[] {
  if (typeFromColumn) return (unionCache ??= unionFields());
  return allContentFields(type).map((def) => ({ def, label: def.label }));
}

/**
 * The choices for a column: Ignore, Name, Type, Folder, Dynamic, then the content fields of `type` with
 * their labels. When the type comes from a column (`typeFromColumn`), the fields of every type, once each
 * by name: a row uses those of its own type and leaves the others.
 */
export function bulkTargetOptions(
  type: QrType,
  typeFromColumn = false,
): { value: BulkTarget; label: string }[] {
  return [
    ...META_TARGETS,
    ...bulkFields(type, typeFromColumn).map((f) => ({
      value: `field:${f.def.name}` as BulkTarget,
      label: f.label,
    })),
  ];
}

/** A header as it is compared: lower case, letters and digits only ('E-mail' → 'email'). */
function headerKey(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

const META_HEADERS: Record<string, BulkTarget> = {
  name: 'name',
  codename: 'name',
  qrname: 'name',
  qrcodename: 'name',
  label: 'name',
  type: 'type',
  qrtype: 'type',
  codetype: 'type',
  kind: 'type',
  folder: 'folder',
  foldername: 'folder',
  dynamic: 'dynamic',
  isdynamic: 'dynamic',
  dynamiccode: 'dynamic',
};

/** Other words for a field's header, checked after the fields' own names and labels. */
const FIELD_SYNONYMS: Record<string, string[]> = {
  url: ['link', 'website', 'web', 'site', 'homepage', 'address', 'weblink', 'destination', 'target'],
  email: ['email', 'mail', 'emailaddress', 'mailaddress'],
  phone: ['phone', 'tel', 'telephone', 'mobile', 'cell', 'phonenumber', 'number', 'mobilenumber'],
  body: ['body', 'message', 'text'],
  message: ['message', 'text', 'body', 'sms'],
  text: ['text', 'content', 'message'],
  ssid: ['ssid', 'network', 'wifi', 'wifiname', 'networkname'],
  password: ['password', 'pass', 'passphrase', 'key', 'wifipassword'],
  encryption: ['encryption', 'security', 'auth', 'authentication'],
  firstName: ['firstname', 'first', 'givenname', 'forename'],
  lastName: ['lastname', 'last', 'surname', 'familyname'],
  organization: ['organization', 'organisation', 'company', 'org'],
  title: ['jobtitle', 'position', 'role'],
  website: ['website', 'web', 'homepage', 'url', 'link'],
  location: ['location', 'place', 'venue', 'where'],
  description: ['description', 'details', 'notes'],
  startDate: ['start', 'startdate', 'starttime', 'begin', 'from', 'date', 'when'],
  endDate: ['end', 'enddate', 'endtime', 'until'],
  timeZone: ['timezone', 'tz', 'zone'],
  subject: ['subject', 'topic'],
};

/**
 * One target per column, guessed from its header (case, spaces, underscores and dashes do not matter):
 * name, type, folder and dynamic; then the fields of `type` by name or label ('URL', 'ssid', 'Network name
 * (SSID)'); then common words ('link' or 'website' → url, 'e-mail' → email, 'phone'/'mobile' → phone…).
 * 'title' is the name unless the type has a title field. A column with a 'type' header makes the fields of
 * every type candidates. Unknown headers → 'ignore'; no target is given twice (the first column wins).
 */
export function guessBulkMapping(columns: string[], type: QrType): BulkTarget[] {
  const keys = columns.map(headerKey);
  const typeFromColumn = keys.some((k) => META_HEADERS[k] === 'type');
  const fields = bulkFields(type, typeFromColumn);
  const fieldNames = new Set(fields.map((f) => f.def.name));
  const used = new Set<BulkTarget>();

  const guess = (key: string): BulkTarget[] => {
    const candidates: BulkTarget[] = [];
    if (key === '') return candidates;
    const meta = META_HEADERS[key];
    if (meta) candidates.push(meta);
    for (const f of fields) {
      if (headerKey(f.def.name) === key || headerKey(f.label) === key || headerKey(f.def.label) === key)
        candidates.push(`field:${f.def.name}`);
    }
    for (const [name, words] of Object.entries(FIELD_SYNONYMS)) {
      if (fieldNames.has(name) && words.includes(key)) candidates.push(`field:${name}`);
    }
    if (key === 'title' || key === 'codetitle') candidates.push('name');
    return candidates;
  };

  return keys.map((key) => {
    const target = guess(key).find((t) => !used.has(t));
    if (!target) return 'ignore';
    used.add(target);
    return target;
  });
}

// ---------------------------------------------------------------------------------------------------------
// One row

const TYPE_WORDS: Record<string, QrType> = Object.fromEntries([
  ...qrTypes.map((t) => [headerKey(t), t] as const),
  ...qrTypes.map((t) => [headerKey(qrTypeLabels[t]), t] as const),
  ['link', 'url'],
  ['website', 'url'],
  ['mail', 'email'],
  ['calendar', 'event'],
  ['contact', 'vcard'],
  ['tel', 'phone'],
  ['call', 'phone'],
]);

/** A type as a cell writes it: its name or label, any case ('Wi-Fi', 'VCARD', 'url'); null when unknown. */
export function bulkTypeOf(cell: string): QrType | null {
  return TYPE_WORDS[headerKey(cell)] ?? null;
}

const DYNAMIC_WORDS: Record<string, boolean> = {
  yes: true,
  y: true,
  true: true,
  '1': true,
  dynamic: true,
  no: false,
  n: false,
  false: false,
  '0': false,
  static: false,
};

/** Values a spreadsheet writes for Wi-Fi security besides the form's own (WPA, WEP, nopass and labels). */
const SELECT_ALIASES: Record<string, string> = {
  wpa2: 'WPA',
  wpa3: 'WPA',
  wpa2wpa3: 'WPA',
  wpawpa2: 'WPA',
  wpa2personal: 'WPA',
  open: 'nopass',
  none: 'nopass',
  nopassword: 'nopass',
};

function selectValue(def: FieldDef, cell: string): string {
  const key = headerKey(cell);
  const option = def.options?.find((o) => headerKey(o.value) === key || headerKey(o.label) === key);
  if (option) return option.value;
  const alias = SELECT_ALIASES[key];
  return alias && def.options?.some((o) => o.value === alias) ? alias : cell;
}

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;

/**
 * A spreadsheet's date-time: an ISO form with a zone is kept; one without a zone ('2026-12-24 18:00',
 * '2026-12-24', what the parse gives for an Excel date) is a wall time in the row's time zone, else UTC.
 */
function dateTimeValue(cell: string, timeZone: string | null): string {
  const value = cell.trim();
  if (value === '' || canonicalDateTime(value)) return value;
  const m = WALL_TIME.exec(value);
  if (!m) return value;
  const [year, month, day, hour = '0', minute = '0', second = '0'] = m.slice(1).map((p) => p ?? undefined);
  const wall = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
  );
  const wallIso = new Date(wall).toISOString();
  // Rolled over (30 February): leave it for the schema to refuse.
  if (wallIso.slice(0, 10) !== `${year}-${month}-${day}`) return value;
  if (!timeZone) return wallIso;
  // The zone's offset at that wall time; again at the instant found, for a day when clocks change.
  const guess = timeZoneOffset(new Date(wall), timeZone) ?? 0;
  const offset = timeZoneOffset(new Date(wall - guess), timeZone) ?? guess;
  return new Date(wall - offset).toISOString();
}

/** A cell as the field takes it: bare URLs get https://, selects their value, dates their ISO form. */
function fieldValue(def: FieldDef, cell: string, timeZone: string | null): string {
  if (def.kind === 'url') return withHttps(cell);
  if (def.kind === 'select') return selectValue(def, cell);
  if (def.kind === 'datetime') return dateTimeValue(cell, timeZone);
  return cell;
}

const nameSchema = createQrCodeInput.shape.name;
const folderNameSchema = createFolderInput.shape.name;

function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid value';
}

/**
 * One spreadsheet row as a code, or why it cannot be one. Content fields come from the mapped cells
 * (a column of another type's field is left out of a row) and are checked with the designer's own schema
 * (`contentFieldsSchema`), then encoded (`encodeContent`). The name: its cell (same rules as the create
 * form: required, at most 100 characters), or one suggested from the content when there is no name column
 * or the cell is blank. The type cell: a type's name or label; dynamic: yes/no, true/false, 1/0,
 * dynamic/static; folder: trimmed, at most FOLDER_NAME_MAX characters. A blank cell takes the default. Each error
 * names its target ('url', 'name', 'type', 'dynamic', 'folder') with the schema's own message.
 */
export function bulkRow(cells: string[], mapping: BulkTarget[], defaults: BulkDefaults): BulkRowResult {
  const errors: { field: string; message: string }[] = [];
  const cellOf = (target: BulkTarget): string | undefined => {
    const index = mapping.indexOf(target);
    return index < 0 ? undefined : String(cells[index] ?? '');
  };
  const blank = (value: string | undefined): value is undefined => value === undefined || value.trim() === '';

  let type: QrType | null = defaults.type;
  const typeCell = cellOf('type');
  if (!blank(typeCell)) {
    type = bulkTypeOf(typeCell);
    if (!type) errors.push({ field: 'type', message: bulkMessages.unknownType });
  }

  let content = '';
  let fields: Record<string, string> = {};
  if (type) {
    const defs = allContentFields(type);
    const raw: Record<string, string> = emptyFields(type);
    const zoneCell = cellOf('field:timeZone');
    const timeZone =
      defs.some((d) => d.name === 'timeZone') && !blank(zoneCell) ? canonicalTimeZone(zoneCell) : null;
    for (const def of defs) {
      const cell = cellOf(`field:${def.name}`);
      // A blank cell keeps the form's default (Wi-Fi security: WPA).
      if (!blank(cell)) raw[def.name] = fieldValue(def, cell, timeZone);
    }
    const parsed = contentFieldsSchema(type).safeParse(raw);
    if (parsed.success) {
      fields = parsed.data;
      content = encodeContent(type, fields);
      // What the server checks (the payload's length, its decoded fields): never accepted here and refused there.
      const check = validatePayload(type, content);
      if (!check.ok) errors.push({ field: check.field ?? 'content', message: check.message });
    } else {
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        const field = typeof issue.path[0] === 'string' ? issue.path[0] : 'content';
        if (seen.has(field)) continue;
        seen.add(field);
        errors.push({ field, message: issue.message });
      }
    }
  }

  let name = cellOf('name');
  if (blank(name))
    name = (type && suggestQrName(type, fields)) ?? `${qrTypeLabels[type ?? defaults.type]} code`;
  const checkedName = nameSchema.safeParse(name);
  if (!checkedName.success) errors.push({ field: 'name', message: firstMessage(checkedName.error) });

  let isDynamic = defaults.isDynamic;
  const dynamicCell = cellOf('dynamic');
  if (!blank(dynamicCell)) {
    const value = DYNAMIC_WORDS[dynamicCell.trim().toLowerCase()];
    if (value === undefined) errors.push({ field: 'dynamic', message: bulkMessages.dynamic });
    else isDynamic = value;
  }

  let folder = defaults.folder;
  const folderCell = cellOf('folder');
  if (!blank(folderCell)) {
    const checked = folderNameSchema.safeParse(folderCell);
    if (checked.success) folder = checked.data;
    else errors.push({ field: 'folder', message: firstMessage(checked.error) });
  }

  if (errors.length > 0 || !type || !checkedName.success) return { ok: false, errors };
  return { ok: true, code: { name: checkedName.data, type, content, isDynamic, folder } };
}

/**
 * A content field's message as a sentence that names the field: 'Must be a valid URL' → 'URL must be a
 * valid URL'; messages that already name it are kept ('URL is required').
 */
export function fieldMessage(type: QrType, field: string, message: string): string {
  const def = allContentFields(type).find((d) => d.name === field);
  if (!def || !/^Must be /.test(message)) return message;
  return `${def.label} must be ${message.slice('Must be '.length)}`;
}

// ---------------------------------------------------------------------------------------------------------
// The create call

const bodyError = { error: 'Request body must be a JSON object' };

/** One code of the create call: the fields of POST /api/qr-codes, with a folder by name. */
export const bulkCodeInput = z.object(
  {
    name: createQrCodeInput.shape.name,
    type: createQrCodeInput.shape.type,
    content: createQrCodeInput.shape.content,
    isDynamic: createQrCodeInput.shape.isDynamic,
    folder: z
      .preprocess(
        (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
        folderNameSchema.nullable(),
      )
      .optional()
      .meta({ description: "A folder's name: found among the caller's folders (any case) or created." }),
  },
  { error: bulkMessages.notAnObject },
);

const bulkCodeJsonSchema = (() => {
  const schema = z.toJSONSchema(bulkCodeInput, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete schema.$schema;
  return schema;
})();

/**
 * The codes, each checked with `bulkCodeInput`; a refused one's messages start with its row number
 * ('Row 4: Name is required', path codes.3.name), so a caller knows which line of the file to fix.
 */
const bulkCodes = z
  .array(z.custom<z.input<typeof bulkCodeInput>>(), {
    error: (issue) => (issue.input === undefined ? 'codes is required' : 'codes must be an array of codes'),
  })
  .min(1, 'codes must hold at least one code')
  .max(BULK_MAX_ROWS, `At most ${BULK_MAX_ROWS} codes can be created at once`)
  .meta({ items: bulkCodeJsonSchema })
  .transform((rows, ctx) => {
    const codes: z.output<typeof bulkCodeInput>[] = [];
    rows.forEach((row, i) => {
      const parsed = bulkCodeInput.safeParse(row);
      if (parsed.success) {
        codes.push(parsed.data);
        return;
      }
      for (const issue of parsed.error.issues) {
        ctx.addIssue({
          code: 'custom',
          path: [i, ...issue.path],
          message: `Row ${i + 1}: ${issue.message}`,
          input: row,
        });
      }
    });
    return codes;
  });

/**
 * What the create call does with a repeat (a row whose name, type and content are those of a code the
 * caller has). The default, 'create', is what the call did before repeats were looked for, so API callers
 * that do not send the field see no change; the app sends 'skip' unless the user chose 'Create anyway'.
 */
export const bulkRepeatsChoice = z
  .enum(['skip', 'create'], { error: 'repeats must be "skip" or "create"' })
  .default('create')
  .meta({
    description:
      'What to do with rows whose name, type and content repeat a code you already have: skip leaves them out (listed in repeated), create creates them anyway (the default).',
  });
export type BulkRepeatsChoice = z.output<typeof bulkRepeatsChoice>;

export const repeatedRows = z
  .array(
    z.object({
      row: z.number().int().meta({ description: 'The index of the code in `codes` (0-based).' }),
      id: z.number().int().meta({ description: 'The id of the code it repeats (the oldest such code).' }),
    }),
  )
  .meta({ description: 'Rows that repeat a code you already have (same name, type and content).' });

export const bulkCreateInput = z
  .object(
    {
      codes: bulkCodes,
      customization: customizationSchema.prefault({}),
      folderId: createQrCodeInput.shape.folderId.meta({
        description: 'Where codes without a folder go (null: the root).',
      }),
      allOrNothing: z.boolean({ error: 'allOrNothing must be true or false' }).default(true).meta({
        description:
          'true: a call whose codes do not all fit the plan creates none (403). false: the first that fit are created, the rest are listed in skipped.',
      }),
      repeats: bulkRepeatsChoice,
      domainId: createQrCodeInput.shape.domainId.meta({
        description:
          "The short domain of the dynamic codes' links (GET /api/short-domains); null or absent: the app's own address. Static codes have no link.",
      }),
    },
    bodyError,
  )
  .meta({
    examples: [
      {
        codes: [
          {
            name: 'Menu',
            type: 'url',
            content: 'https://example.com/menu',
            isDynamic: true,
            folder: 'Posters',
          },
          { name: 'Guest Wi-Fi', type: 'wifi', content: 'WIFI:T:WPA;S:Guests;P:welcome123;;' },
        ],
        customization: { foregroundColor: '#1A237E' },
        allOrNothing: true,
      },
    ],
  });
export type BulkCreateInput = z.input<typeof bulkCreateInput>;

export const bulkCreateAnswer = z.object({
  created: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      type: z.enum(qrTypes),
      isDynamic: z.boolean(),
      folderId: z.number().int().nullable(),
      shortUrl: z.string().nullable().meta({ format: 'uri' }),
      row: z.number().int().meta({ description: 'The index of the code in `codes` (0-based).' }),
    }),
  ),
  skipped: z
    .array(z.object({ row: z.number().int(), message: z.string() }))
    .meta({ description: 'Codes over the plan limit, left out when allOrNothing is false.' }),
  repeated: repeatedRows.meta({
    description: 'Rows left out as repeats of a code you already have (empty unless repeats is "skip").',
  }),
  currentCount: z.number().int(),
  maxCount: z.number().int().nullable().meta({ description: 'null: unlimited.' }),
});
export type BulkCreateAnswer = z.infer<typeof bulkCreateAnswer>;

// ---------------------------------------------------------------------------------------------------------
// The archive and the parse

/** POST /api/qr-codes/archive: the caller's codes as one ZIP of images and codes.csv. */
export const bulkArchiveInput = z
  .object(
    {
      ids: z
        .array(qrIdSchema, {
          error: (issue) =>
            issue.input === undefined ? 'ids is required' : 'ids must be an array of QR code ids',
        })
        .min(1, 'ids must hold at least one QR code id')
        .max(BULK_MAX_ROWS, `At most ${BULK_MAX_ROWS} QR codes fit in one archive`),
      format: qrImageInput.shape.format,
      size: qrImageInput.shape.size,
    },
    bodyError,
  )
  .meta({ examples: [{ ids: [12, 13, 14], format: 'png', size: 512 }] });
export type BulkArchiveInput = z.output<typeof bulkArchiveInput>;

/** POST /api/qr-codes/bulk/parse: the file's first sheet as text. */
export const bulkParseAnswer = z.object({
  fileName: z.string(),
  columns: z.array(z.string()).meta({ description: 'The header row.' }),
  rows: z.array(z.array(z.string())).meta({ description: 'The data rows, each as long as columns.' }),
  truncated: z
    .boolean()
    .meta({ description: `true: the file had more than ${BULK_MAX_ROWS} rows; the first are given.` }),
});
export type BulkParseAnswer = z.infer<typeof bulkParseAnswer>;

const RESERVED = /[<>:"|?*]/g;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)$/i;
const ARCHIVE_NAME_MAX = 80;

/**
 * A name safe on every file system: no separators, control, format (bidi, zero-width) or reserved
 * characters, at most 80 characters.
 */
function safeStem(name: string): string {
  let stem = safeFileName(name.normalize('NFC'))
    .replace(/[/\\]+/g, '-')
    .replace(RESERVED, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  if (stem.length > ARCHIVE_NAME_MAX) {
    // Never half of a surrogate pair.
    stem = stem
      .slice(0, ARCHIVE_NAME_MAX)
      .replace(/[\uD800-\uDBFF]$/, '')
      .replace(/[\s.]+$/, '');
  }
  return WINDOWS_DEVICE.test(stem) ? '' : stem;
}

/**
 * The archive's file names, one per code in order: the code's name made safe (path separators become '-',
 * control, format and reserved characters go (safeFileName), trimmed, at most 80 characters; `qrcode-<id>`
 * when nothing is left),
 * then the extension; names equal but for case get ' (2)', ' (3)'.
 */
export function archiveFileNames(codes: { id: number; name: string }[], ext: 'png' | 'svg'): string[] {
  const taken = new Set<string>();
  return codes.map((code) => {
    const stem = safeStem(code.name) || `qrcode-${code.id}`;
    let file = `${stem}.${ext}`;
    for (let n = 2; taken.has(file.toLowerCase()); n++) file = `${stem} (${n}).${ext}`;
    taken.add(file.toLowerCase());
    return file;
  });
}
