// The designer's form values and their validation, shared by the Create and Edit pages.
import { t } from '@lingui/core/macro';
import { schemaResolver } from '@mantine/form';
import { withHttps } from '../../../src/qr/bare-url';
import { contentFieldsSchema, emptyFields, encodeContent } from '../../../src/qr/content';
import { canonicalTimeZone } from '../../../src/qr/dates';
import { contentFields, hiddenContentFields } from '../../../src/qr/content-fields';
import { customizationSchema, defaultCustomization, type Customization } from '../../../src/qr/customization';
import type { QrType } from '../../../src/qr/qr-types';
import { createQrCodeInput } from '../../../src/qr/qr.schema';
import { translateShared } from '../../i18n/shared-messages';
import { localSlugProblem } from './short-link';
import {
  checkSmart,
  initialSmartValues,
  smartRedirectApplies,
  type SmartRedirectValues,
} from './smart-values';

export type ContentValues = Record<string, string>;

export interface DesignerValues {
  name: string;
  type: QrType;
  isDynamic: boolean;
  fields: ContentValues;
  customization: Customization;
  /** null: the root ('No folder'). */
  folderId: number | null;
  /** Rules, schedule, password and tracking of a dynamic link code (smart-values.ts, SmartRedirectSection.tsx). */
  smart: SmartRedirectValues;
  /**
   * Dynamic codes: the Short link field's text, the end of `<origin>/r/` (short-link.ts). Creating, empty
   * means a random one; editing, it starts as the saved back-half.
   */
  slug: string;
  /** Dynamic codes: the short domain of the link (short-link.ts); null: the app's own address. */
  domainId: number | null;
}

export const DEFAULT_TYPE: QrType = 'url';

/** Selecting a type sets the name to the upper-cased type plus ' QR Code' ('WIFI QR Code'). */
export function defaultNameFor(type: QrType) {
  return `${type.toUpperCase()} QR Code`;
}

/** This device's time zone, in the form an event stores it; null when the browser gives none we know. */
export function deviceTimeZone(): string | null {
  return canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
}

/**
 * The type's empty fields, overlaid with whatever string values `source` has for them. Fields no input
 * shows (an event's time zone) are kept from `source`; a new event takes this device's time zone, so its
 * page shows the times where they were entered.
 */
export function fieldsFor(type: QrType, source?: Record<string, unknown>): ContentValues {
  const fields: ContentValues = { ...emptyFields(type) };
  for (const def of contentFields[type]) {
    if (!(def.name in fields)) fields[def.name] = '';
    const value = source?.[def.name];
    if (typeof value === 'string') fields[def.name] = value;
  }
  for (const def of hiddenContentFields[type] ?? []) {
    const value = source?.[def.name];
    if (typeof value === 'string' && value.trim() !== '') fields[def.name] = value;
  }
  if (type === 'event' && !fields.timeZone) {
    const zone = deviceTimeZone();
    if (zone) fields.timeZone = zone;
  }
  return fields;
}

export function cloneCustomization(c: Customization): Customization {
  return structuredClone(c);
}

export function initialCreateValues(type: QrType = DEFAULT_TYPE): DesignerValues {
  return {
    name: defaultNameFor(type),
    type,
    isDynamic: true,
    fields: fieldsFor(type),
    customization: cloneCustomization(defaultCustomization),
    folderId: null,
    smart: initialSmartValues(),
    slug: '',
    domainId: null,
  };
}

const nameSchema = createQrCodeInput.shape.name;

// Date-time fields: the form holds what <input type="datetime-local"> shows (the browser's local time,
// 'YYYY-MM-DDTHH:mm'); the content schema and the payload take an ISO instant with a zone.
const LOCAL_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** 'YYYY-MM-DDTHH:mm' in local time → ISO UTC; anything else unchanged (the schema judges it). */
export function localToIso(value: string): string {
  if (!LOCAL_DATETIME.test(value.trim())) return value;
  const date = new Date(value.trim());
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** An ISO instant → 'YYYY-MM-DDTHH:mm' in local time; anything else unchanged. */
export function isoToLocal(value: string): string {
  if (value.trim() === '' || LOCAL_DATETIME.test(value.trim())) return value;
  const date = new Date(value.trim());
  if (Number.isNaN(date.getTime())) return value;
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

function mapDateTimes(type: QrType, fields: ContentValues, convert: (v: string) => string): ContentValues {
  const out = { ...fields };
  for (const def of contentFields[type]) {
    const value = out[def.name];
    if (def.kind === 'datetime' && typeof value === 'string') out[def.name] = convert(value);
  }
  return out;
}

/** A bare domain typed in a URL field ('example.com') is read as https://example.com. */
function completeUrls(type: QrType, fields: ContentValues): ContentValues {
  const out = { ...fields };
  for (const def of contentFields[type]) {
    const value = out[def.name];
    if (def.kind === 'url' && typeof value === 'string') out[def.name] = withHttps(value);
  }
  return out;
}

/** Form fields → what the content schema reads. */
export const toSchemaFields = (type: QrType, fields: ContentValues) =>
  completeUrls(type, mapDateTimes(type, fields, localToIso));

/** Decoded payload fields → form fields. */
export const toFormFields = (type: QrType, fields: ContentValues) =>
  fieldsFor(type, mapDateTimes(type, fields, isoToLocal));

/**
 * Inline errors: `name`, `fields.<field>` (the content rules of the selected type), the smart-redirect
 * settings and `slug` (what the text itself breaks; whether it is taken is the live check's, QrDesigner).
 * `savedSlug`: editing, the saved back-half, which is left alone while untouched.
 */
export function validateDesigner(values: DesignerValues, savedSlug?: string | null): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = nameSchema.safeParse(values.name);
  if (!name.success) errors.name = name.error.issues[0]?.message ?? t`Name is required`;
  // In the order of the form, so a failed save focuses the first one on screen.
  const slugError = values.isDynamic ? localSlugProblem(values.slug, savedSlug) : null;
  if (slugError) errors.slug = slugError;
  const fieldErrors = schemaResolver(contentFieldsSchema(values.type), { sync: true })(
    toSchemaFields(values.type, values.fields),
  );
  for (const [path, message] of Object.entries(fieldErrors)) {
    if (typeof message === 'string' && message) errors[`fields.${path}`] = message;
  }
  if (smartRedirectApplies(values.type, values.isDynamic)) {
    Object.assign(errors, checkSmart(values.smart).errors);
  }
  return errors;
}

/** Why the content makes no code yet: the sentence, and whether a field is wrong (not just missing). */
export interface ContentProblem {
  text: string;
  /** A field holds something wrong ('Check the URL: …'), shown in red; false for a missing field. */
  invalid: boolean;
}

/**
 * Why the content makes no code yet, for the preview: the first field that is missing or wrong ('SSID is
 * required to see your QR code.', 'Check the URL: Must be a valid URL.'); null when it is complete, or
 * when nothing has been typed at all.
 */
export function contentProblem(type: QrType, fields: ContentValues): ContentProblem | null {
  if (Object.values(fields).every((v) => typeof v !== 'string' || v.trim() === '')) return null;
  const errors = validateDesigner({
    name: 'x',
    type,
    isDynamic: false,
    fields,
    customization: defaultCustomization,
    folderId: null,
    smart: initialSmartValues('UTC'),
    slug: '',
    domainId: null,
  });
  for (const def of contentFields[type]) {
    const english = errors[`fields.${def.name}`];
    if (english) {
      // The field's name and message are src/'s English: told apart in English, said in the app's language.
      const label = translateShared(def.label);
      const message = translateShared(english);
      // The field's message starts with its name when it is missing ('SSID is required').
      return english.startsWith(def.label)
        ? {
            text: t({
              message: `${message} to see your QR code.`,
              comment: 'message: a missing field, "SSID is required"',
            }),
            invalid: false,
          }
        : { text: t`Check the ${label}: ${message}.`, invalid: true };
    }
  }
  return null;
}

/** The payload the code holds, or null while the content is incomplete or invalid. */
export function payloadOf(type: QrType, fields: ContentValues): string | null {
  const parsed = contentFieldsSchema(type).safeParse(toSchemaFields(type, fields));
  if (!parsed.success) return null;
  const payload = encodeContent(type, parsed.data);
  return payload.trim() === '' ? null : payload;
}

/** The first problem of a customization the server would refuse, or null. */
export function customizationProblem(c: Customization): string | null {
  const parsed = customizationSchema.safeParse(c);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? t`The design has an invalid value`);
}
