import { UAParser } from 'ua-parser-js';
import { maskIp } from '../../../src/analytics/mask-ip.js';
import type { RequestDeps } from '../../app-deps.js';
import type { UserRow } from '../../db/database.js';
import { negotiateLocale } from '../../../src/i18n/locales.js';
import { composeMailFor, mailLocaleOf } from '../mail/layout.js';
import { formatters, mailMessages } from '../mail/messages/index.js';
import { countKnownDevices, rememberDevices } from './known-devices.repository.js';
import { storedAddress } from '../scans/client-address.js';
import { setBrowserLanguage } from '../users/users.repository.js';
import { hashToken } from './tokens.js';

/** The browser family and OS, not their versions (an update is not a new browser); null when unknown. */
function browserParts(userAgent: string | null): { browser: string | null; os: string | null } {
  const parser = new UAParser(userAgent ?? '');
  return { browser: parser.getBrowser().name ?? null, os: parser.getOS().name ?? null };
}

/** 'Chrome on Windows': the key a browser is remembered by. */
const browserKey = ({ browser, os }: { browser: string | null; os: string | null }) =>
  `${browser ?? 'Unknown browser'} on ${os ?? 'unknown OS'}`;

/**
 * After every successful sign-in: remembers the browser and the address, and — when the user has login
 * alerts on and either was not seen before — mails the user. The very first sign-in only remembers. Runs
 * in the background: it never delays or fails the sign-in. Before that, the language the browser asks
 * for is kept (when it is one of ours and changed): the person's mails are written in it unless they
 * chose one in Settings.
 */
export async function afterSignIn(ctx: RequestDeps, row: UserRow): Promise<void> {
  const language = negotiateLocale(ctx.acceptLanguage);
  if (language && language !== row.browser_language) {
    await setBrowserLanguage(ctx.db, row.id, language);
    row = { ...row, browser_language: language };
  }
  void (async () => {
    const parts = browserParts(ctx.userAgent);
    const browser = browserKey(parts);
    const hadDevices = (await countKnownDevices(ctx.db, row.id)) > 0;
    const now = ctx.clock.now();
    const fresh = await rememberDevices(
      ctx.db,
      row.id,
      [`browser:${browser}`, `address:${hashToken(storedAddress(ctx.config, ctx.ip))}`],
      now.toISOString(),
    );
    if (!hadDevices || fresh.length === 0 || !row.login_alerts || !row.email) return;
    const locale = mailLocaleOf(row);
    await ctx.mailer.send(
      composeMailFor(
        { to: row.email, locale, name: row },
        mailMessages(locale).newSignIn({
          username: row.username,
          when: formatters(locale).dateTime(now, row.time_zone),
          ...parts,
          address: maskIp(ctx.ip),
        }),
        `${ctx.config.publicUrl}/settings`,
        ctx.config.publicUrl,
      ),
    );
  })().catch((error: unknown) => ctx.log.error({ err: error }, 'login alert failed'));
}
