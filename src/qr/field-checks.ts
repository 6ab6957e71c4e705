import { z } from 'zod';

const emailSchema = z.email();

export const PHONE = /^[0-9A-Za-z+()\-./*#,; ]+$/;

/** An absolute http(s) URL without whitespace: never javascript:, data:, file: or any other scheme. */
export function isHttpUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (!/^https?:\/\/[^\s/?#]/i.test(value) || /[\s\u0000-\u001f\u007f]/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export function isEmailAddress(value: string): boolean {
  return emailSchema.safeParse(value).success;
}

/** Digits with the usual punctuation; letters for vanity numbers and extensions. Never `:` (SMSTO's separator). */
export function isPhoneNumber(value: string): boolean {
  return PHONE.test(value) && /\d/.test(value);
}
