import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The sender; MAIL_FROM when absent. */
  from?: string;
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
export function createMailer(
  options: { smtpUrl: string | undefined; mailFrom: string; dataDir: string },
  log: Pick<FastifyBaseLogger, 'info'>,
): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ ...message, from: message.from ?? options.mailFrom });
        log.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
      async verify() {
        await transport.verify();
        return { transport: 'smtp' };
      },
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ ...message, from: message.from ?? options.mailFrom });
      await fs.mkdir(outbox, { recursive: true });
      const file = path.join(
        outbox,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`,
      );
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info({ to: message.to, subject: message.subject, file }, 'mail written to outbox');
    },
    async verify() {
      await fs.mkdir(outbox, { recursive: true });
      await fs.access(outbox, fs.constants.W_OK);
      return { transport: 'outbox' };
    },
  };
}
