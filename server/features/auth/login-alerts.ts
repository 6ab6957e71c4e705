import { UAParser } from 'ua-parser-js';
import { maskIp } from '../../../src/analytics/mask-ip.js';
import type { RequestDeps } from '../../app-deps.js';
import type { UserRow } from '../../db/database.js';
import { composeMail, greetingFor } from '../mail/layout.js';
import { countKnownDevices, rememberDevices } from './known-devices.repository.js';
import { storedAddress } from '../scans/client-address.js';
import { hashToken } from './tokens.js';

/** 'Chrome on Windows': the browser family and OS, not their versions (an update is not a new browser). */
export function browserOf(userAgent: string | null): string {
  const parser = new UAParser(userAgent ?? '');
  return `${parser.getBrowser().name ?? 'Unknown browser'} on ${parser.getOS().name ?? 'unknown OS'}`;
}

/**
 * After every successful sign-in: remembers the browser and the address, and — when the user has login
 * alerts on and either was not seen before — mails the user. The very first sign-in only remembers. Runs
 * in the background: it never delays or fails the sign-in.
 */
export function afterSignIn(ctx: RequestDeps, row: UserRow): void {
  void (async () => {
    const browser = browserOf(ctx.userAgent);
    const hadDevices = (await countKnownDevices(ctx.db, row.id)) > 0;
    const now = ctx.clock.now();
    const fresh = await rememberDevices(
      ctx.db,
      row.id,
      [`browser:${browser}`, `address:${hashToken(storedAddress(ctx.config, ctx.ip))}`],
      now.toISOString(),
    );
    if (!hadDevices || fresh.length === 0 || !row.login_alerts || !row.email) return;
    await ctx.mailer.send(
      composeMail(
        {
          to: row.email,
          subject: 'New sign-in to your QR Creator account',
          greeting: greetingFor(row),
          paragraphs: [
            `Your account ${row.username} was just signed in to from a browser or address it had not used before.`,
            `When: ${now.toISOString().replace('T', ' ').slice(0, 16)} UTC\nBrowser: ${browser}\nAddress: ${maskIp(ctx.ip)}`,
            'If this was you, there is nothing to do. If not, change your password now and sign out every other session in Settings → Security.',
          ],
          action: { label: 'Review your sessions', url: `${ctx.config.publicUrl}/settings` },
          footer: 'You get this mail because login alerts are on in Settings → Security.',
        },
        ctx.config.publicUrl,
      ),
    );
  })().catch((error: unknown) => ctx.log.error({ err: error }, 'login alert failed'));
}
