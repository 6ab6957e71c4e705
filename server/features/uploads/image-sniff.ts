import { createRequire } from 'node:module';
import type createDOMPurifyType from 'dompurify';
import type * as JsdomModule from 'jsdom';
import { appError } from '../../errors.js';

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export type ImageMime = 'image/png' | 'image/jpeg' | 'image/svg+xml';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const startsWith = (bytes: Buffer, magic: number[]) => magic.every((b, i) => bytes[i] === b);
const SVG_START = /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i;

/** Decides the type from the bytes alone: the file name and the declared type are never trusted. */
export function sniffImage(bytes: Buffer): ImageMime | null {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  const head = bytes.subarray(0, 4096).toString('utf8');
  if (SVG_START.test(head) || /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?<!DOCTYPE svg/i.test(head))
    return 'image/svg+xml';
  return null;
}

let purifier: ReturnType<typeof createDOMPurifyType> | undefined;

function svgPurifier() {
  if (purifier) return purifier;
  // Loaded on the first SVG upload, not at start-up (jsdom is large).
  const require = createRequire(import.meta.url);
  const { JSDOM } = require('jsdom') as typeof JsdomModule;
  const createDOMPurify = require('dompurify') as typeof createDOMPurifyType;
  const { window } = new JSDOM('');
  purifier = createDOMPurify(window);
  purifier.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    const value = data.attrValue.trim();
    // Only references inside the document itself: no external images, fonts or scripts.
    if ((name === 'href' || name === 'xlink:href') && !value.startsWith('#')) data.keepAttr = false;
    // CSS escapes (u\rl) and white space cannot hide a url(): strip both before looking.
    if (/url\(['"]?(?!#)/i.test(value.replace(/\\/g, '').replace(/\s+/g, ''))) data.keepAttr = false;
  });
  return purifier;
}

/**
 * Keeps the drawing, drops everything active: scripts, event handlers, foreignObject, style sheets,
 * external references. A DOCTYPE (entities, the "billion laughs") is refused outright.
 */
export function sanitizeSvg(bytes: Buffer): Buffer {
  const text = bytes.toString('utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
    throw appError('UNSUPPORTED_MEDIA_TYPE', 'SVG files with a DOCTYPE or entities are not allowed');
  }
  const clean = svgPurifier().sanitize(text, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ['foreignObject', 'script', 'style', 'a', 'use'],
    FORBID_ATTR: ['style'],
  });
  if (!/^\s*<svg[\s>]/i.test(clean)) {
    throw appError('UNSUPPORTED_MEDIA_TYPE', 'Only JPG, PNG and SVG files are allowed');
  }
  return Buffer.from(clean, 'utf8');
}
