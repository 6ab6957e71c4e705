import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MailQueue } from '../../../src/admin/admin.schema.js';
import type { User } from '../../../src/auth/auth.schema.js';
import type { Config } from '../../config.js';
import { insertTestUser } from '../../test/fixtures.js';
import { RESET_TTL_MS, recoveryMessages } from '../auth/recovery.service.js';
import { sendDueMails } from './mail-queue.service.js';
import { startSmtpCapture, linkIn, type SmtpCapture } from '../../test/smtp-capture.js';
import { call, expectRestError, signedInUser, useTestApp } from '../../test/test-app.js';
import { describeOnSqlite } from '../../test/test-db.js';

/** Every mail the product sends: one layout, a text and an HTML part, links to PUBLIC_URL only. */
function expectHouseLayout(mail: ParsedMail, publicUrl: string) {
  expect(mail.text).toBeTruthy();
  expect(typeof mail.html).toBe('string');
  const links = [
    ...(mail.text ?? '').matchAll(/https?:\/\/[^\s"<>]+/g),
    ...String(mail.html).matchAll(/href="([^"]+)"/g),
  ]
    .map((m) => m[1] ?? m[0])
    .map((l) => l.replace(/&amp;/g, '&'));
  for (const link of links) expect(link.startsWith(publicUrl), link).toBe(true);
}

describe('mail through a real SMTP server', () => {
  let smtp: SmtpCapture;
  const config: Partial<Config> = {};
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    config.smtpUrl = smtp.url;
  });
  afterAll(() => smtp.close());
  beforeEach(() => {
    smtp.mails.length = 0;
    smtp.refuseSenders.clear();
    smtp.down = false;
  });

  describeOnSqlite('account mails', (getDb) => {
    const t = useTestApp(getDb, { config });
    const publicUrl = () => t().config.publicUrl;

    it('a changed address gets a working verification link and the old one a notice, both escaped', async () => {
      const { cookie } = await signedInUser(t(), 'mover');
      await call(t().app, 'PUT', '/api/user/profile', {
        cookie,
        json: { name: 'Mo <script>alert(1)</script>', email: 'new@example.com' },
      });
      const mails = await smtp.waitFor(2);
      const verification = mails.find((m) => m.subject === 'Verify your QR Creator e-mail address')!;
      const notice = mails.find((m) => m.subject === 'Your QR Creator e-mail address was changed')!;
      expect(verification.to).toMatchObject({ text: 'new@example.com' });
      expect(notice.to).toMatchObject({ text: 'mover@example.com' });
      for (const mail of [verification, notice]) {
        expectHouseLayout(mail, publicUrl());
        expect(mail.html).toContain('Hello Mo &lt;script&gt;alert(1)&lt;/script&gt;,');
        expect(mail.html).not.toContain('<script>');
      }

      const link = new URL(linkIn(verification, publicUrl(), '/verify-email#token='));
      const verify = await call(
        t().app,
        'GET',
        `/api/email/verify-token?token=${new URLSearchParams(link.hash.slice(1)).get('token')}`,
      );
      expect(verify.json()).toEqual({ success: true, message: 'Email verified successfully!' });
      const me = await call(t().app, 'GET', '/api/user', { cookie });
      expect(me.json<User>()).toMatchObject({ email: 'new@example.com', emailVerified: true });
    });

    it('a password reset mail leads to a reset that works', async () => {
      await insertTestUser(t().db, { username: 'resetter', email: 'resetter@example.com' });
      await call(t().app, 'POST', '/api/password-reset/request', { json: { email: 'resetter@example.com' } });
      const [mail] = await smtp.waitFor(1);
      expect(mail!.subject).toBe('Reset your QR Creator password');
      expectHouseLayout(mail!, publicUrl());
      const token = new URLSearchParams(
        new URL(linkIn(mail!, publicUrl(), '/reset-password#token=')).hash.slice(1),
      ).get('token');
      const reset = await call(t().app, 'POST', '/api/password-reset/reset', {
        json: { token, password: 'a-new-secret' },
      });
      expect(reset.statusCode).toBe(200);
      const login = await call(t().app, 'POST', '/api/login', {
        json: { username: 'resetter', password: 'a-new-secret' },
      });
      expect(login.statusCode).toBe(200);
      // The owner is told, in the same layout: sessions ended and API tokens revoked.
      const [, told] = await smtp.waitFor(2);
      expect(told!.subject).toBe('Your QR Creator password was changed');
      expect(told!.text).toContain('every API token revoked');
      expectHouseLayout(told!, publicUrl());
    });

    it('with the mail server down, a reset request answers as always and its mail goes out once the server is back', async () => {
      await insertTestUser(t().db, { username: 'patient', email: 'patient@example.com' });
      const { cookie } = await signedInUser(t(), 'admin0', { isAdmin: true });
      smtp.down = true;
      const asked = t().clock.now().getTime();
      const res = await call(t().app, 'POST', '/api/password-reset/request', {
        json: { email: 'patient@example.com' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: recoveryMessages.resetRequested });
      // The admin sees it waiting, with the server's answer.
      const queued = await vi.waitFor(async () => {
        const queue = (await call(t().app, 'GET', '/api/admin/mail-queue', { cookie })).json<MailQueue>();
        expect(queue.waiting).toBe(1);
        return queue.mails[0]!;
      });
      expect(queued).toMatchObject({
        recipient: 'patient@example.com',
        subject: 'Reset your QR Creator password',
        status: 'waiting',
        attempts: 1,
        nextAttemptAt: new Date(asked + 60_000).toISOString(),
        expiresAt: new Date(asked + RESET_TTL_MS).toISOString(),
      });
      expect(queued.lastError).toMatch(/421/);

      // Back a minute later: the retrier sends it, and its link works.
      smtp.down = false;
      t().clock.advance(60_000);
      expect(await sendDueMails(t().deps, t().app.log)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
      const [mail] = await smtp.waitFor(1);
      expect(mail!.subject).toBe('Reset your QR Creator password');
      const token = new URLSearchParams(
        new URL(linkIn(mail!, publicUrl(), '/reset-password#token=')).hash.slice(1),
      ).get('token');
      const reset = await call(t().app, 'POST', '/api/password-reset/reset', {
        json: { token, password: 'a-new-secret' },
      });
      expect(reset.statusCode).toBe(200);
      const [, told] = await smtp.waitFor(2);
      expect(told!.subject).toBe('Your QR Creator password was changed');
      const queue = (await call(t().app, 'GET', '/api/admin/mail-queue', { cookie })).json<MailQueue>();
      expect(queue).toEqual({ waiting: 0, givenUp: 0, mails: [] });
    });

    it("the admin's check reaches the SMTP server, and a test mail arrives in the layout", async () => {
      const { cookie } = await signedInUser(t(), 'admin1', { isAdmin: true });
      const check = await call(t().app, 'GET', '/api/email/verify', { cookie });
      expect(check.json()).toEqual({
        success: true,
        message: 'Email service is working: the SMTP server accepted the connection.',
      });
      const sent = await call(t().app, 'POST', '/api/email/test', {
        cookie,
        json: { to: 'ops@example.com', subject: 'Ping', message: 'Line one\nLine <two>' },
      });
      expect(sent.json()).toEqual({ success: true, message: 'Test email sent to ops@example.com' });
      const [mail] = await smtp.waitFor(1);
      expect(mail!.subject).toBe('Ping');
      expect(mail!.text).toContain('Line one\nLine <two>');
      expect(mail!.html).toContain('Line one<br>Line &lt;two&gt;');
      expectHouseLayout(mail!, publicUrl());
    });

    it('a refused sender answers 502 with the senders to verify', async () => {
      const { cookie } = await signedInUser(t(), 'admin2', { isAdmin: true });
      smtp.refuseSenders.add('unverified@example.com');
      const res = await call(t().app, 'POST', '/api/email/test', {
        cookie,
        json: { to: 'ops@example.com', subject: 'Ping', message: 'Hello', from: 'unverified@example.com' },
      });
      const body = expectRestError(res, 502);
      expect(body).toMatchObject({
        senderRejected: true,
        senders: [expect.stringMatching(/^no-reply@/), expect.stringMatching(/^support@/)],
      });
      expect(body.message).toMatch(/^Failed to send email: /);
      expect(smtp.mails).toHaveLength(0);
    });
  });
});
