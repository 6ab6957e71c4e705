import { z } from 'zod';

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
export const TRANSPARENT = 'transparent';

const color = (label: string) =>
  z.string({ error: `${label} must be a colour` }).regex(HEX_COLOR, `${label} must be a colour like #1F2937`);

export const qrStyles = ['square', 'dots', 'rounded', 'classy'] as const;
export type QrStyle = (typeof qrStyles)[number];
export const frameStyles = ['rounded', 'square', 'minimal'] as const;
export const errorCorrectionLevels = ['L', 'M', 'Q', 'H'] as const;
export type ErrorCorrectionLevel = (typeof errorCorrectionLevels)[number];

/** Error correction with the share of the code that may be damaged. */
export const errorCorrectionInfo: Record<ErrorCorrectionLevel, { label: string; percent: number }> = {
  L: { label: 'Low', percent: 7 },
  M: { label: 'Medium', percent: 15 },
  Q: { label: 'Quartile', percent: 25 },
  H: { label: 'High', percent: 30 },
};

export const LOGO_SIZE = { min: 20, max: 80, step: 5, default: 40 } as const;
export const FRAME_TEXT_MAX = 30;

/**
 * A logo's URL: one of our own uploads (/api/uploads/…) or an http(s) address the browser draws.
 * Never javascript:, data: or file:.
 */
export const logoUrl = z
  .string()
  .trim()
  .max(2048, 'Logo URL is too long')
  .refine((v) => v === '' || v.startsWith('/api/uploads/') || /^https?:\/\/[^\s]+$/i.test(v), {
    message: 'Logo URL must be an http(s) address or an uploaded logo',
  });

export const customizationSchema = z
  .object({
    foregroundColor: color('Foreground colour').default('#000000'),
    backgroundColor: z
      .union([z.literal(TRANSPARENT), color('Background colour')], {
        error: 'Background colour must be a colour like #FFFFFF or transparent',
      })
      .default('#FFFFFF'),
    errorCorrectionLevel: z
      .enum(errorCorrectionLevels, { error: 'Error correction must be L, M, Q or H' })
      .default('M'),
    style: z.enum(qrStyles, { error: 'Style must be square, dots, rounded or classy' }).default('square'),
    logo: z
      .object({
        url: logoUrl,
        size: z
          .number({ error: 'Logo size must be a number' })
          .int('Logo size must be a whole number')
          .min(LOGO_SIZE.min, `Logo size must be at least ${LOGO_SIZE.min}`)
          .max(LOGO_SIZE.max, `Logo size must be at most ${LOGO_SIZE.max}`)
          .default(LOGO_SIZE.default),
      })
      .optional(),
    frame: z
      .object({
        enabled: z.boolean().default(false),
        text: z
          .string()
          .trim()
          .max(FRAME_TEXT_MAX, `Frame text must be at most ${FRAME_TEXT_MAX} characters`)
          .default('Scan Me'),
        style: z
          .enum(frameStyles, { error: 'Frame style must be rounded, square or minimal' })
          .default('rounded'),
        color: color('Frame colour').default('#000000'),
      })
      .optional(),
  })
  // Unknown keys are dropped, never stored.
  .strip();

export type Customization = z.output<typeof customizationSchema>;
export type CustomizationInput = z.input<typeof customizationSchema>;

export const defaultCustomization: Customization = customizationSchema.parse({});

/** Reads stored customization leniently: anything invalid falls back to its default. */
export function readCustomization(value: unknown): Customization {
  const parsed = customizationSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : defaultCustomization;
}

export interface Template {
  id: string;
  name: string;
  customization: Customization;
}

/** Eight presets, each distinct and each dark-on-light with enough contrast to scan. */
export const templates: Template[] = [
  {
    id: 'classic',
    name: 'Classic',
    customization: {
      foregroundColor: '#000000',
      backgroundColor: '#FFFFFF',
      errorCorrectionLevel: 'M',
      style: 'square',
    },
  },
  {
    id: 'blue-modern',
    name: 'Blue Modern',
    customization: {
      foregroundColor: '#1D4ED8',
      backgroundColor: '#FFFFFF',
      errorCorrectionLevel: 'Q',
      style: 'rounded',
    },
  },
  {
    id: 'framed-business',
    name: 'Framed Business',
    customization: {
      foregroundColor: '#1F2937',
      backgroundColor: '#FFFFFF',
      errorCorrectionLevel: 'Q',
      style: 'square',
      frame: { enabled: true, text: 'Contact Us', style: 'square', color: '#1F2937' },
    },
  },
  {
    id: 'green-eco',
    name: 'Green Eco',
    customization: {
      foregroundColor: '#047857',
      backgroundColor: '#ECFDF5',
      errorCorrectionLevel: 'M',
      style: 'rounded',
      frame: { enabled: true, text: 'Learn More', style: 'rounded', color: '#047857' },
    },
  },
  {
    id: 'purple-creative',
    name: 'Purple Creative',
    customization: {
      foregroundColor: '#6D28D9',
      backgroundColor: '#FFFFFF',
      errorCorrectionLevel: 'Q',
      style: 'dots',
    },
  },
  {
    id: 'red-alert',
    name: 'Red Alert',
    customization: {
      foregroundColor: '#B91C1C',
      backgroundColor: '#FFFFFF',
      errorCorrectionLevel: 'H',
      style: 'square',
      frame: { enabled: true, text: 'Scan Me', style: 'square', color: '#B91C1C' },
    },
  },
  {
    id: 'orange-event',
    name: 'Orange Event',
    customization: {
      foregroundColor: '#C2410C',
      backgroundColor: '#FFF7ED',
      errorCorrectionLevel: 'Q',
      style: 'classy',
      frame: { enabled: true, text: 'Get Offer', style: 'rounded', color: '#C2410C' },
    },
  },
  {
    id: 'minimalist',
    name: 'Minimalist',
    customization: {
      foregroundColor: '#374151',
      backgroundColor: '#FFFFFF',
      errorCorrectionLevel: 'L',
      style: 'square',
      frame: { enabled: true, text: 'Scan Me', style: 'minimal', color: '#374151' },
    },
  },
];

export const foregroundPalette = [
  { name: 'Blue', value: '#3B82F6' },
  { name: 'Green', value: '#10B981' },
  { name: 'Purple', value: '#8B5CF6' },
  { name: 'Black', value: '#1F2937' },
  { name: 'Gray', value: '#9CA3AF' },
  { name: 'Orange', value: '#F59E0B' },
  { name: 'Red', value: '#EF4444' },
] as const;

export const backgroundPalette = [
  { name: 'Transparent', value: TRANSPARENT },
  { name: 'White', value: '#FFFFFF' },
  { name: 'Light Gray', value: '#F3F4F6' },
  { name: 'Off White', value: '#FAFAF9' },
  { name: 'Light Blue', value: '#EFF6FF' },
  { name: 'Light Green', value: '#F0FDF4' },
  { name: 'Light Yellow', value: '#FEFCE8' },
  { name: 'Light Red', value: '#FEF2F2' },
] as const;

export const callToActionTexts = [
  'Scan Me',
  'Learn More',
  'Visit Us',
  'Get Offer',
  'Download App',
  'Contact Us',
] as const;
