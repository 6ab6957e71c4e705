import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { lazyRequire } from '../../lazy-require.js';
import type { FastifyBaseLogger } from 'fastify';
import { toIso, type Db } from '../../db/database.js';
import { insertMailLogEntry, listMailLogRows } from './mail.repository.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The sender; MAIL_FROM when absent. */
  from?: string;
  /**
   * When the mail stops being worth sending because its link expires (a reset link after an hour): a
   * failed mail is not tried again past it (mail-queue.service.ts). Absent: the whole retry schedule.
   */
  expiresAt?: Date;
  /** Mails with the same key replace each other while they wait ('verify:<user id>'). */
  replaces?: string;
  /**
   * false: a failed attempt is not queued; send() rejects and the caller reports it (the admin's test
   * mail, a link the user asked for and waits on, the queue's own retries).
   */
  queue?: false;
}

/** What the transport sends: the message without the queue's fields. */
function envelopeOf(message: MailMessage, mailFrom: string) {
  const { to, subject, text, html, from } = message;
  return { to, subject, text, ...(html === undefined ? {} : { html }), from: from ?? mailFrom };
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Checks the transport: connects and authenticates to the SMTP server, or finds the outbox writable. */
  verify(): Promise<{ transport: 'smtp' | 'outbox' }>;
}

/**
 * SMTP when SMTP_URL is set; otherwise every message is written as an .eml file to <dataDir>/outbox/
 * and logged, so a self-hosted instance without mail still shows what it would have sent.
 */
const loadNodemailer = lazyRequire<typeof nodemailer>('nodemailer');

/** An address as the log may show it: 'a***@example.com' (the log is not the mail log /admin shows). */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

export function createMailer(
  options: { smtpUrl: string | undefined; mailFrom: string; dataDir: string },
  log: Pick<FastifyBaseLogger, 'info'>,
): Mailer {
  if (options.smtpUrl) {
    const smtpUrl = options.smtpUrl;
    let smtp: Transporter | undefined;
    const transport = () => (smtp ??= loadNodemailer().createTransport(smtpUrl));
    return {
      async send(message) {
        await transport().sendMail(envelopeOf(message, options.mailFrom));
        log.info({ to: maskEmail(message.to), subject: message.subject }, 'mail sent');
      },
      async verify() {
        await transport().verify();
        return { transport: 'smtp' };
      },
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  let stream: Transporter | undefined;
  const transport = () =>
    (stream ??= loadNodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  return {
    async send(message) {
      const info = await transport().sendMail(envelopeOf(message, options.mailFrom));
      await fs.mkdir(outbox, { recursive: true, mode: 0o700 });
      const file = path.join(
        outbox,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`,
      );
      // Written aside and renamed: whoever reads the outbox (a person, a test) never sees half a mail.
      await fs.writeFile(`${file}.part`, info.message as Buffer, { mode: 0o600 });
      await fs.rename(`${file}.part`, file);
      log.info({ to: maskEmail(message.to), subject: message.subject, file }, 'mail written to outbox');
    },
    async verify() {
      await fs.mkdir(outbox, { recursive: true, mode: 0o700 });
      await fs.access(outbox, fs.constants.W_OK);
      return { transport: 'outbox' };
    },
  };
}

/**
 * Mail goes out in the background: the answer never waits on (or fails with) the mail server. A mail
 * that fails is queued by the app's mailer (withMailQueue), so an error here is one the queue could not
 * take either.
 */
export function sendInBackground(
  deps: { mailer: Mailer; log: Pick<FastifyBaseLogger, 'error'> },
  message: MailMessage,
): void {
  deps.mailer.send(message).catch((error: unknown) => deps.log.error({ err: error }, 'mail failed'));
}

/**
 * Every mail, sent or not, written to the mail log that /admin's Email Management shows: recipient,
 * subject, time, and whether it went through SMTP, into the outbox, or failed (with the error).
 */
export function withMailLog(mailer: Mailer, db: Db, transport: 'smtp' | 'outbox', now: () => Date): Mailer {
  const log = (message: MailMessage, status: string, error: string | null) =>
    insertMailLogEntry(db, {
      recipient: message.to,
      subject: message.subject.slice(0, 500),
      status,
      error: error?.slice(0, 1000) ?? null,
      created_at: now().toISOString(),
    })
      // The log is a convenience: a failure to write it never fails the mail.
      .catch(() => undefined);
  return {
    async send(message) {
      try {
        await mailer.send(message);
      } catch (error) {
        await log(message, 'failed', error instanceof Error ? error.message : String(error));
        throw error;
      }
      await log(message, transport === 'smtp' ? 'sent' : 'outbox', null);
    },
    verify: () => mailer.verify(),
  };
}

/** The newest mails first. */
export async function listMailLog(db: Db, limit: number) {
  const rows = await listMailLogRows(db, limit);
  return rows.map((r) => ({
    id: r.id,
    recipient: r.recipient,
    subject: r.subject,
    status: r.status as 'sent' | 'outbox' | 'failed',
    error: r.error,
    createdAt: toIso(r.created_at),
  }));
}
