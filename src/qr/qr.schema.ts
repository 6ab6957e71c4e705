import { z } from 'zod';
import { withStrictVariant } from '../api/strict.js';
import { customizationSchema } from './customization.js';
import { qrIdSchema } from './qr-id.js';
import { FOLDER_NAME_MAX, QR_CONTENT_MAX, QR_NAME_MAX } from './qr-limits.js';
import { qrTypes } from './qr-types.js';
import { scanVerdicts } from './scan-safety.js';
import { RESERVED_SLUGS, SLUG_CHARACTERS, SLUG_MAX_LENGTH, SLUG_MIN_LENGTH, slugMessages } from './slug.js';
import { codePasswordSchema, smartRedirectSchema } from './smart-redirect.js';

const bodyError = { error: 'Request body must be a JSON object' };

// The limits and imageDataOf load without zod (qr-limits.ts); re-exported for the server and the app.
export { FOLDER_NAME_MAX, imageDataOf, QR_CONTENT_MAX, QR_NAME_MAX } from './qr-limits.js';

export { QR_ID_MAX, qrIdFromText, qrIdSchema } from './qr-id.js';

export const idInput = z.object({ id: qrIdSchema }, bodyError);

const name = z
  .string({ error: (i) => (i.input === undefined ? 'Name is required' : 'Name must be text') })
  .trim()
  .min(1, 'Name is required')
  .max(QR_NAME_MAX, `Name must be at most ${QR_NAME_MAX} characters`);

const content = z
  .string({ error: (i) => (i.input === undefined ? 'Content is required' : 'Content must be text') })
  .trim()
  .min(1, 'Content is required')
  .max(QR_CONTENT_MAX, `Content must be at most ${QR_CONTENT_MAX} characters`);

const folderId = z
  .number({ error: 'Folder must be a folder id or null' })
  .int('Folder must be a folder id or null')
  .positive('Folder must be a folder id or null')
  .nullable();

const type = withStrictVariant(
  z
    .string({ error: (i) => (i.input === undefined ? 'Type is required' : 'Type must be text') })
    .trim()
    .min(1, 'Type is required')
    .max(20, 'Type is not a known QR code type'),
  // /api/v1: one of the known types, never read as url.
  z.enum(qrTypes, {
    error: (i) => (i.input === undefined ? 'Type is required' : `Type must be one of: ${qrTypes.join(', ')}`),
  }),
);

/** A chosen back-half (src/qr/slug.ts): stored in lower case; whether it is taken is the server's to say. */
const slug = z
  .string({ error: 'Short link must be text' })
  .trim()
  .toLowerCase()
  .min(SLUG_MIN_LENGTH, slugMessages.tooShort)
  .max(SLUG_MAX_LENGTH, slugMessages.tooLong)
  .regex(SLUG_CHARACTERS, slugMessages.characters)
  .refine((value) => !RESERVED_SLUGS.has(value), slugMessages.reserved)
  .meta({
    description:
      `Dynamic codes only: the short link's own back-half (letters, digits, - and _, ${SLUG_MIN_LENGTH}–${SLUG_MAX_LENGTH}), ` +
      'matched without regard to case and kept in lower case.',
    examples: ['menu'],
  });

/** The short domain a dynamic code's link uses (src/qr/short-domain.schema.ts). */
const domainIdField = z
  .number({ error: 'Domain must be a domain id or null' })
  .int('Domain must be a domain id or null')
  .positive('Domain must be a domain id or null')
  .max(2_147_483_647, 'Domain must be a domain id or null');

export const createQrCodeInput = z
  .object(
    {
      name,
      type,
      content,
      isDynamic: z.boolean({ error: 'isDynamic must be true or false' }).default(false),
      customization: customizationSchema.prefault({}),
      folderId: folderId.optional().default(null),
      redirectOptions: smartRedirectSchema.nullable().optional().meta({
        description:
          'Dynamic codes only: rules, schedule, scan limit, pause, fallback, UTM and query forwarding (null: none).',
      }),
      password: codePasswordSchema.nullable().optional().meta({
        description: 'Dynamic codes only: the short link asks for this password (null: none).',
      }),
      slug: slug.nullable().optional().meta({
        description:
          'Dynamic codes only: your own back-half of the short link (null or absent: a random one). 409 SLUG_TAKEN when another link has it.',
      }),
      domainId: domainIdField.nullable().optional().meta({
        description:
          "Dynamic codes only: the short domain of its link (GET /api/short-domains); null or absent: the app's own address.",
      }),
    },
    bodyError,
  )
  .meta({
    examples: [
      {
        name: 'Menu',
        type: 'url',
        content: 'https://example.com/menu',
        isDynamic: true,
        customization: { foregroundColor: '#1A237E' },
      },
    ],
  });
export type CreateQrCodeInput = z.input<typeof createQrCodeInput>;

/** PUT takes the create body; the edit screen sends name, content and customization. */
export const updateQrCodeInput = z.object(
  {
    id: qrIdSchema,
    name: name.optional(),
    type: type.optional(),
    content: content.optional(),
    isDynamic: z.boolean({ error: 'isDynamic must be true or false' }).optional(),
    customization: customizationSchema.optional(),
    folderId: folderId.optional(),
    redirectOptions: smartRedirectSchema.nullable().optional(),
    /** A new password; null removes it; absent keeps it. */
    password: codePasswordSchema.nullable().optional(),
    slug: slug.optional().meta({
      description:
        'A new back-half of the short link (absent: unchanged). A code that has scans keeps answering at its old one too.',
    }),
    domainId: domainIdField.nullable().optional().meta({
      description: "The short domain of its link (null: the app's own address; absent: unchanged).",
    }),
  },
  bodyError,
);
export type UpdateQrCodeInput = z.input<typeof updateQrCodeInput>;

/** GET /api/qr-codes/slug-availability, qr.slugAvailability: whether a back-half could be this code's. */
export const slugAvailabilityInput = z.object(
  {
    slug: z
      .string({ error: (i) => (i.input === undefined ? 'slug is required' : 'slug must be text') })
      .max(200, 'slug is too long'),
    /** The code being edited: its own back-half, and the old ones it still answers at, are available to it. */
    id: z.optional(qrIdSchema),
  },
  bodyError,
);

export const slugAvailabilitySchema = z.object({
  slug: z.string().meta({ description: 'The back-half as it would be stored (trimmed, lower case).' }),
  status: z.enum(['available', 'taken', 'reserved', 'invalid']),
  message: z.string().meta({ examples: ['Available', 'This short link is taken'] }),
});

export const moveQrCodeInput = z.object(
  {
    id: qrIdSchema,
    folderId: z
      .number({
        error: (i) =>
          i.input === undefined
            ? 'folderId is required (null for the root)'
            : 'Folder must be a folder id or null',
      })
      .int('Folder must be a folder id or null')
      .positive('Folder must be a folder id or null')
      .nullable(),
  },
  bodyError,
);

export const createFolderInput = z
  .object(
    {
      name: z
        .string({
          error: (i) => (i.input === undefined ? 'Folder name is required' : 'Folder name must be text'),
        })
        .trim()
        .min(1, 'Folder name is required')
        .max(FOLDER_NAME_MAX, `Folder name must be at most ${FOLDER_NAME_MAX} characters`),
    },
    bodyError,
  )
  .meta({ examples: [{ name: 'Posters' }] });

// ---- Answers ----

export const qrCodeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(qrTypes),
  content: z.string().meta({ description: 'The encoded payload (mailto:, WIFI:, vCard…).' }),
  isDynamic: z.boolean(),
  customization: customizationSchema,
  userId: z.number().int(),
  folderId: z.number().int().nullable(),
  slug: z.string().nullable().meta({ description: "Dynamic codes only: the short link's path segment." }),
  shortUrl: z
    .string()
    .nullable()
    .meta({ format: 'uri', description: 'Dynamic codes only: the short link, which the image encodes.' }),
  domainId: z
    .number()
    .int()
    .nullable()
    .meta({ description: "Dynamic codes: the short domain of its link; null: the app's own address." }),
  created: z.string().meta({ format: 'date-time' }),
  updated: z.string().meta({ format: 'date-time' }),
  scannable: z
    .object({ verdict: z.enum(scanVerdicts), reason: z.string() })
    .nullable()
    .meta({
      description:
        "The server's scan-safety check of the code's image, made when it is saved: scannable, risky or " +
        'unscannable, with the main reason. null while the check is pending.',
    }),
  redirectOptions: smartRedirectSchema.nullable().meta({
    description: 'Dynamic codes: smart-redirect options (src/qr/smart-redirect.ts); null: none.',
  }),
  hasPassword: z.boolean().meta({ description: 'Dynamic codes: the short link asks for a password.' }),
});
export type QrCode = z.infer<typeof qrCodeSchema>;

/** GET /api/qr-codes/{id}/scan: what a scan of the owner's code reads. */
export const qrScanAnswer = qrCodeSchema.pick({ type: true, content: true });

export const folderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created: z.string().meta({ format: 'date-time' }),
  qrCodeCount: z.number().int(),
});
export type Folder = z.infer<typeof folderSchema>;

export const qrLimitSchema = z.object({
  currentCount: z.number().int(),
  maxCount: z.number().int().nullable().meta({ description: 'null: unlimited.' }),
});
export type QrLimitInfo = z.infer<typeof qrLimitSchema>;

/** POST /api/qr-codes at the plan limit: a 403 that says how full the plan is. */
export const qrLimitReachedAnswer = qrLimitSchema.extend({
  message: z.string(),
  code: z.literal('LIMIT_REACHED'),
  limitReached: z.literal(true),
});

/** POST /api/upload/logo: where the stored image is served. */
export const uploadAnswer = z.object({ url: z.string().meta({ examples: ['/api/uploads/3f9c…'] }) });

export const QR_IMAGE_SIZE = { min: 64, max: 2048, default: 512 } as const;

/** GET /api/qr-codes/{id}/image?format=png|svg&size=64..2048 */
export const qrImageInput = z.object({
  id: qrIdSchema,
  format: z.enum(['png', 'svg'], { error: 'format must be png or svg' }).default('png'),
  size: z.coerce
    .number({ error: 'size must be a number' })
    .int('size must be a whole number')
    .min(QR_IMAGE_SIZE.min, `size must be at least ${QR_IMAGE_SIZE.min}`)
    .max(QR_IMAGE_SIZE.max, `size must be at most ${QR_IMAGE_SIZE.max}`)
    .default(QR_IMAGE_SIZE.default),
});
/** The checked image request (defaults filled in). */
export type QrImageInput = z.output<typeof qrImageInput>;
