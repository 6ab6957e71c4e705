// A code's design: its constants, colour palettes and call-to-action texts, without zod (customization.ts
// has the schema and re-exports all of this), so the designer's first screen can use them before any
// check is loaded.
export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
export const TRANSPARENT = 'transparent';

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
