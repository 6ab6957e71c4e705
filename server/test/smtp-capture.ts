import fs from 'node:fs/promises';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server in the test process: it receives every mail the app sends and parses it. */
export interface SmtpCapture {
  /** `smtp://127.0.0.1:<port>` for SMTP_URL. */
  url: string;
  mails: ParsedMail[];
  /** Resolves once `count` mails in all have arrived (they are sent in the background). */
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  /** Senders the server refuses, as a provider refuses an unverified sender (550 at MAIL FROM). */
  refuseSenders: Set<string>;
  /** While true, every connection is refused with 421, as a mail server that is down for maintenance. */
  down: boolean;
  close(): Promise<void>;
}

export async function startSmtpCapture(): Promise<SmtpCapture> {
  const mails: ParsedMail[] = [];
  const refuseSenders = new Set<string>();
  const waiters: { count: number; resolve: () => void }[] = [];
  const state = { down: false };
  const server = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      if (!state.down) return callback();
      const error = new Error('Service not available, try again later') as Error & { responseCode: number };
      error.responseCode = 421;
      callback(error);
    },
    onMailFrom(address, _session, callback) {
      if (refuseSenders.has(address.address.toLowerCase())) {
        const error = new Error('Sender address rejected: not verified') as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          for (const w of waiters.filter((w) => mails.length >= w.count)) w.resolve();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refuseSenders,
    get down() {
      return state.down;
    },
    set down(value: boolean) {
      state.down = value;
    },
    waitFor(count, timeoutMs = 5000) {
      if (mails.length >= count) return Promise.resolve(mails);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} mails, received ${mails.length}`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(mails);
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The one link of a mail's text part that leads to `publicUrl` with `path`. */
export function linkIn(mail: ParsedMail, publicUrl: string, path: string): string {
  const links = (mail.text ?? '').match(/https?:\/\/\S+/g) ?? [];
  const link = links.find((l) => l.startsWith(`${publicUrl}${path}`));
  if (!link) throw new Error(`no ${path} link in: ${mail.text}`);
  return link;
}

/** The outbox's mails (no SMTP_URL), parsed: subject and text decoded as a mail client would. */
export async function readParsedOutbox(outbox: string): Promise<ParsedMail[]> {
  let files: string[];
  try {
    files = (await fs.readdir(outbox)).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(files.map(async (f) => simpleParser(await fs.readFile(path.join(outbox, f)))));
}
