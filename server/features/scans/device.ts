import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';
import type { DeviceCategory } from '../../../src/analytics/analytics.schema.js';

export { deviceCategories, type DeviceCategory } from '../../../src/analytics/analytics.schema.js';

/** Link previews fetch the short link when it is pasted in a chat; they are not people scanning. */
const LINK_PREVIEW =
  /WhatsApp|Slackbot|Slack-ImgProxy|Twitterbot|facebookexternalhit|Facebot|meta-externalagent|TelegramBot|Discordbot|LinkedInBot|SkypeUriPreview|redditbot|Iframely|Embedly|Pinterestbot|Applebot|bingbot/i;
const DESKTOP_OS =
  /^(Windows|Mac OS|macOS|Linux|Ubuntu|Debian|Fedora|Chromium OS|Chrome OS|FreeBSD|OpenBSD)/i;

const CACHE_MAX = 2000;
const cache = new Map<string, DeviceCategory>();

function classify(ua: string): DeviceCategory {
  if (LINK_PREVIEW.test(ua) || isbot(ua)) return 'Bot';
  const parser = new UAParser(ua);
  const type = parser.getDevice().type;
  if (type === 'mobile' || type === 'wearable') return 'Mobile';
  if (type === 'tablet') return 'Tablet';
  if (type === 'smarttv' || type === 'console' || type === 'embedded') return 'Unknown';
  return DESKTOP_OS.test(parser.getOS().name ?? '') ? 'Desktop' : 'Unknown';
}

/**
 * Decided once, when the scan is written. The same few user agents repeat endlessly, so parsed
 * results are cached (bounded; the oldest entry goes first).
 */
export function deviceCategory(userAgent: string | null | undefined): DeviceCategory {
  if (!userAgent) return 'Unknown';
  const hit = cache.get(userAgent);
  if (hit) return hit;
  const category = classify(userAgent);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(userAgent, category);
  return category;
}

const NAME_CACHE_MAX = 2000;
const deviceNames = new Map<string, string | null>();

/**
 * 'iPhone', 'Samsung SM-S928B', 'Chrome on Windows'… for the scan history's tooltip: worked out when
 * read, not stored, and cached like the categories (bounded; emptied when full).
 */
export function deviceNameOf(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const hit = deviceNames.get(userAgent);
  if (hit !== undefined) return hit;
  const ua = new UAParser(userAgent).getResult();
  const device = [ua.device.vendor, ua.device.model].filter(Boolean).join(' ');
  const browser =
    ua.browser.name && ua.os.name ? `${ua.browser.name} on ${ua.os.name}` : ua.browser.name || ua.os.name;
  const name = device || browser || null;
  if (deviceNames.size >= NAME_CACHE_MAX) deviceNames.clear();
  deviceNames.set(userAgent, name);
  return name;
}
