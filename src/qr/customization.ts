import { z } from 'zod';
import {
  errorCorrectionLevels,
  FRAME_TEXT_MAX,
  frameStyles,
  LOGO_SIZE,
  qrStyles,
  TRANSPARENT,
  HEX_COLOR,
} from './customization-values.js';

// The constants, palettes and texts load without zod (the designer's first screen needs them before any
// check); re-exported here for the server and the rest of the app.
export * from './customization-values.js';

const color = (label: string) =>
  z.string({ error: `${label} must be a colour` }).regex(HEX_COLOR, `${label} must be a colour like #1F2937`);

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
