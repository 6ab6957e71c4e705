import type { QrType } from './qr-types';

/** One input of a type's content form; `content.ts` builds the validation schema from these. */
export interface FieldDef {
  name: string;
  label: string;
  kind: 'text' | 'textarea' | 'email' | 'url' | 'tel' | 'datetime' | 'select';
  required: boolean;
  placeholder?: string;
  options?: { value: string; label: string }[];
  maxLength: number;
  /**
   * Not an input of the form: the app fills it (the event's time zone comes from the browser). Hidden fields
   * are optional, live in `hiddenContentFields` (not in `contentFields`, the form's inputs), and are left out
   * of the content when blank.
   */
  hidden?: boolean;
}

export const URL_MAX = 2048;
export const TEXT_MAX = 2000;
export const LONG_TEXT_MAX = 1000;
export const SHORT_TEXT_MAX = 200;
export const EMAIL_FIELD_MAX = 254;
/** The longest IANA zone name is about 30 characters. */
export const TIME_ZONE_MAX = 64;

/** Values as written in the WIFI: payload's T segment; the labels are what the form shows. */
export const wifiEncryptionOptions = [
  { value: 'WPA', label: 'WPA/WPA2' },
  { value: 'WEP', label: 'WEP' },
  { value: 'nopass', label: 'None' },
];
export const DEFAULT_WIFI_ENCRYPTION = 'WPA';

function linkFields(label: string, placeholder: string): FieldDef[] {
  return [
    { name: 'url', label, kind: 'url', required: true, placeholder, maxLength: URL_MAX },
    { name: 'title', label: 'Title', kind: 'text', required: false, maxLength: SHORT_TEXT_MAX },
  ];
}

/** The content form of each type (the product's form fields), with its required fields (its field rules). */
export const contentFields: Record<QrType, FieldDef[]> = {
  url: [
    {
      name: 'url',
      label: 'URL',
      kind: 'url',
      required: true,
      placeholder: 'https://example.com',
      maxLength: URL_MAX,
    },
  ],
  email: [
    {
      name: 'email',
      label: 'Email',
      kind: 'email',
      required: true,
      placeholder: 'name@example.com',
      maxLength: EMAIL_FIELD_MAX,
    },
    { name: 'subject', label: 'Subject', kind: 'text', required: false, maxLength: SHORT_TEXT_MAX },
    { name: 'body', label: 'Message', kind: 'textarea', required: false, maxLength: LONG_TEXT_MAX },
  ],
  text: [
    {
      name: 'text',
      label: 'Text',
      kind: 'textarea',
      required: true,
      placeholder: 'Enter your text',
      maxLength: TEXT_MAX,
    },
  ],
  sms: [
    {
      name: 'phone',
      label: 'Phone number',
      kind: 'tel',
      required: true,
      placeholder: '+1 555 123 4567',
      maxLength: SHORT_TEXT_MAX,
    },
    { name: 'message', label: 'Message', kind: 'textarea', required: false, maxLength: LONG_TEXT_MAX },
  ],
  wifi: [
    {
      name: 'ssid',
      label: 'Network name (SSID)',
      kind: 'text',
      required: true,
      placeholder: 'MyNetwork',
      maxLength: SHORT_TEXT_MAX,
    },
    { name: 'password', label: 'Password', kind: 'text', required: false, maxLength: SHORT_TEXT_MAX },
    {
      name: 'encryption',
      label: 'Security',
      kind: 'select',
      required: true,
      options: wifiEncryptionOptions,
      maxLength: SHORT_TEXT_MAX,
    },
  ],
  vcard: [
    { name: 'firstName', label: 'First name', kind: 'text', required: true, maxLength: SHORT_TEXT_MAX },
    { name: 'lastName', label: 'Last name', kind: 'text', required: false, maxLength: SHORT_TEXT_MAX },
    { name: 'email', label: 'Email', kind: 'email', required: false, maxLength: EMAIL_FIELD_MAX },
    { name: 'phone', label: 'Phone number', kind: 'tel', required: false, maxLength: SHORT_TEXT_MAX },
    { name: 'organization', label: 'Organization', kind: 'text', required: false, maxLength: SHORT_TEXT_MAX },
    { name: 'title', label: 'Job title', kind: 'text', required: false, maxLength: SHORT_TEXT_MAX },
    {
      name: 'website',
      label: 'Website',
      kind: 'url',
      required: false,
      placeholder: 'https://example.com',
      maxLength: URL_MAX,
    },
  ],
  event: [
    { name: 'title', label: 'Title', kind: 'text', required: true, maxLength: SHORT_TEXT_MAX },
    { name: 'location', label: 'Location', kind: 'text', required: false, maxLength: SHORT_TEXT_MAX },
    {
      name: 'description',
      label: 'Description',
      kind: 'textarea',
      required: false,
      maxLength: LONG_TEXT_MAX,
    },
    { name: 'startDate', label: 'Start date', kind: 'datetime', required: true, maxLength: SHORT_TEXT_MAX },
    { name: 'endDate', label: 'End date', kind: 'datetime', required: false, maxLength: SHORT_TEXT_MAX },
  ],
  social: [
    {
      name: 'url',
      label: 'Profile URL',
      kind: 'url',
      required: true,
      placeholder: 'https://instagram.com/yourname',
      maxLength: URL_MAX,
    },
  ],
  pdf: linkFields('PDF URL', 'https://example.com/file.pdf'),
  video: linkFields('Video URL', 'https://youtube.com/watch?v=…'),
  image: linkFields('Image URL', 'https://example.com/photo.jpg'),
  phone: [
    {
      name: 'phone',
      label: 'Phone number',
      kind: 'tel',
      required: true,
      placeholder: '+1 555 123 4567',
      maxLength: SHORT_TEXT_MAX,
    },
  ],
};

/**
 * The event's time zone: an IANA name ('Europe/Berlin'), written as the calendar's `X-WR-TIMEZONE`. The
 * designer fills it with the browser's zone; the landing page shows the event's times in it.
 */
export const eventTimeZoneField: FieldDef = {
  name: 'timeZone',
  label: 'Time zone',
  kind: 'text',
  required: false,
  hidden: true,
  placeholder: 'Europe/Berlin',
  maxLength: TIME_ZONE_MAX,
};

/** Fields the app fills rather than the user, kept by the schema and the payload but not shown as inputs. */
export const hiddenContentFields: Partial<Record<QrType, FieldDef[]>> = {
  event: [eventTimeZoneField],
};

/** Every field of a type: the form's inputs, then the hidden ones. */
export function allContentFields(type: QrType): FieldDef[] {
  return [...contentFields[type], ...(hiddenContentFields[type] ?? [])];
}
