/** Every content type a code can have. An unknown type read from storage is treated as url. */
export const qrTypes = [
  'url',
  'email',
  'text',
  'sms',
  'wifi',
  'vcard',
  'event',
  'social',
  'pdf',
  'video',
  'image',
  'phone',
] as const;
export type QrType = (typeof qrTypes)[number];

export function normalizeQrType(type: string): QrType {
  return (qrTypes as readonly string[]).includes(type) ? (type as QrType) : 'url';
}

/** The eight tiles of the Create picker; More opens the rest. */
export const primaryQrTypes = ['url', 'email', 'text', 'sms', 'wifi', 'vcard', 'event'] as const;
export const moreQrTypes = ['social', 'pdf', 'video', 'image', 'phone'] as const;

export const qrTypeLabels: Record<QrType, string> = {
  url: 'URL',
  email: 'Email',
  text: 'Text',
  sms: 'SMS',
  wifi: 'Wi-Fi',
  vcard: 'vCard',
  event: 'Event',
  social: 'Social',
  pdf: 'PDF',
  video: 'Video',
  image: 'Image',
  phone: 'Phone',
};

/** Types whose dynamic short link redirects (302) instead of showing a landing page. */
export const redirectingQrTypes: readonly QrType[] = ['url', 'social', 'pdf', 'video', 'image'];
