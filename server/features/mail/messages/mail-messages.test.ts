import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '../../../../src/i18n/locales.js';
import { composeMail, greetingFor, mailLocaleOf } from '../layout.js';
import { formatters, MAIL_LOCALES, mailMessages, type MailMessages, type MailText } from './index.js';

/**
 * Every mail of every language with values no language would write (⟦…⟧, distinct numbers): each value
 * must come out in the mail's words, none may be empty, and a language must not be left in English.
 */
type Sample = {
  [K in Exclude<keyof MailMessages, 'locale' | 'layout' | 'testMailFooter'>]: {
    args: Parameters<MailMessages[K]>[0];
    /** What the mail must show of its values. */
    shows: string[];
  };
};

const samples = (f: ReturnType<typeof formatters>): Sample => ({
  destinationDown: {
    args: {
      codeName: '⟦Menu⟧',
      team: false,
      which: { kind: 'rule', rule: 7 },
      url: 'https://⟦url⟧.example',
      problem: { kind: 'http', status: 503 },
    },
    shows: ['⟦Menu⟧', '7', 'https://⟦url⟧.example', '503'],
  },
  twoFactorLocked: {
    args: { username: '⟦ada⟧', failures: 5, address: '⟦203.0.113.0⟧', minutes: 15 },
    shows: ['⟦ada⟧', '5', '⟦203.0.113.0⟧', '15'],
  },
  passwordReset: { args: { username: '⟦ada⟧', hours: 1 }, shows: ['⟦ada⟧'] },
  passwordChanged: {
    args: { username: '⟦ada⟧', how: 'admin', sessions: 3, tokens: 4 },
    shows: ['⟦ada⟧', '3', '4'],
  },
  verifyEmail: { args: { hours: 24 }, shows: ['24'] },
  newSignIn: {
    args: {
      username: '⟦ada⟧',
      when: '⟦when⟧',
      browser: '⟦Firefox⟧',
      os: '⟦Linux⟧',
      address: '⟦198.51.100.0⟧',
    },
    shows: ['⟦ada⟧', '⟦when⟧', '⟦Firefox⟧', '⟦Linux⟧', '⟦198.51.100.0⟧'],
  },
  registrationAttempt: { args: undefined, shows: [] },
  invitation: {
    args: { inviter: '⟦Grace⟧', workspace: '⟦Café⟧', role: 'editor', days: 14 },
    shows: ['⟦Grace⟧', '⟦Café⟧', '14'],
  },
  emailChanged: {
    args: { username: '⟦ada⟧', newEmail: '⟦new@example.com⟧', resetStillHere: true, days: 7 },
    shows: ['⟦ada⟧', '⟦new@example.com⟧', '7'],
  },
  scanDigest: {
    args: {
      total: 1234,
      day: '⟦day⟧',
      timeZone: '⟦Europe/Berlin⟧',
      sections: [
        { team: null, codes: [{ name: '⟦Menu⟧', scans: 1233 }] },
        { team: '⟦Bakery⟧', codes: [{ name: '⟦Flyer⟧', scans: 1 }] },
      ],
    },
    shows: [f.count(1234), '⟦day⟧', '⟦Europe/Berlin⟧', '⟦Menu⟧', f.count(1233), '⟦Bakery⟧', '⟦Flyer⟧'],
  },
  scanThreshold: {
    args: { codeName: '⟦Menu⟧', team: '⟦Bakery⟧', level: 1000, scans: 1042 },
    shows: ['⟦Menu⟧', '⟦Bakery⟧', f.count(1000), f.count(1042)],
  },
  teamUpgradeRequest: {
    args: { username: '⟦ada⟧', team: '⟦Bakery⟧', plan: '⟦Pro⟧' },
    shows: ['⟦ada⟧', '⟦Bakery⟧', '⟦Pro⟧'],
  },
  upgradeRequest: { args: { who: '⟦Ada (ada)⟧', plan: '⟦Pro⟧' }, shows: ['⟦Ada (ada)⟧', '⟦Pro⟧'] },
  upgradeApproved: { args: { plan: '⟦Pro⟧', until: '⟦until⟧' }, shows: ['⟦Pro⟧', '⟦until⟧'] },
  upgradeDeclined: { args: { plan: '⟦Pro⟧' }, shows: ['⟦Pro⟧'] },
  webhookDisabled: {
    args: { url: 'https://⟦hook⟧.example', hours: 24 },
    shows: ['https://⟦hook⟧.example', '24'],
  },
});

/** Every mail of a language, by name, with its sample's values. */
function render(locale: Locale): [string, MailText, string[]][] {
  const m = MAIL_LOCALES[locale];
  return Object.entries(samples(formatters(locale))).map(([name, sample]) => {
    const write = (args: unknown) => (m[name as keyof Sample] as (args: unknown) => MailText).call(m, args);
    return [name, write(sample.args), sample.shows];
  });
}

const all = (t: MailText) => [t.subject, ...t.paragraphs, t.action ?? '', t.footer ?? ''].join('\n');

describe('the mails’ words', () => {
  it('exist in every language, in the same mails as English', () => {
    expect(Object.keys(MAIL_LOCALES).sort()).toEqual([...LOCALES].sort());
    for (const locale of LOCALES) {
      expect(Object.keys(MAIL_LOCALES[locale]).sort(), locale).toEqual(Object.keys(MAIL_LOCALES.en).sort());
      expect(MAIL_LOCALES[locale].locale).toBe(locale);
    }
  });

  it('show every value they are given, none empty, with the same button as English', () => {
    for (const locale of LOCALES) {
      const english = new Map(render('en').map(([name, text]) => [name, text]));
      for (const [name, text, shows] of render(locale)) {
        expect(text.subject.trim(), `${locale} ${name}: subject`).not.toBe('');
        expect(text.paragraphs.length, `${locale} ${name}: paragraphs`).toBe(
          english.get(name)!.paragraphs.length,
        );
        for (const p of text.paragraphs) expect(p.trim(), `${locale} ${name}: a paragraph`).not.toBe('');
        expect(Boolean(text.action), `${locale} ${name}: a button`).toBe(Boolean(english.get(name)!.action));
        expect(Boolean(text.footer), `${locale} ${name}: a footer`).toBe(Boolean(english.get(name)!.footer));
        for (const value of shows) expect(all(text), `${locale} ${name} shows ${value}`).toContain(value);
        expect(all(text), `${locale} ${name}: no value left unwritten`).not.toMatch(
          /\$\{|undefined|NaN|\[object/,
        );
      }
      const m = MAIL_LOCALES[locale];
      expect(m.testMailFooter({ sender: '⟦Grace⟧' })).toContain('⟦Grace⟧');
      expect(m.layout.greeting('⟦Ada⟧')).toContain('⟦Ada⟧');
      for (const word of [m.layout.greetingAnyone, m.layout.openLink, m.layout.footer])
        expect(word.trim()).not.toBe('');
    }
  });

  it('are translated: no language keeps a mail in English', () => {
    const english = new Map(render('en').map(([name, text]) => [name, text]));
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      for (const [name, text] of render(locale)) {
        const en = english.get(name)!;
        expect(text.subject, `${locale} ${name}: subject`).not.toBe(en.subject);
        // The digest's lists of codes are names and counts ("Team Bakery:" reads the same in Dutch).
        text.paragraphs.forEach((p, i) => {
          if (name !== 'scanDigest' || i === 0)
            expect(p, `${locale} ${name}: paragraph ${i + 1}`).not.toBe(en.paragraphs[i]);
        });
        if (en.action) expect(text.action, `${locale} ${name}: button`).not.toBe(en.action);
      }
      const layout = MAIL_LOCALES[locale].layout;
      expect(layout.footer).not.toBe(MAIL_LOCALES.en.layout.footer);
      expect(layout.openLink).not.toBe(MAIL_LOCALES.en.layout.openLink);
    }
  });

  it('count as each language counts', () => {
    const hours = (locale: Locale, n: number) =>
      mailMessages(locale).passwordReset({ username: 'a', hours: n }).paragraphs[0];
    expect(hours('en', 1)).toContain('within 1 hour to');
    expect(hours('en', 2)).toContain('within 2 hours to');
    expect(hours('de', 1)).toContain('1 Stunde');
    expect(hours('de', 24)).toContain('24 Stunden');
    // "w ciągu" takes the genitive: 1 godziny, 2 and 5 godzin.
    expect(hours('pl', 1)).toContain('w ciągu 1 godziny');
    expect(hours('pl', 2)).toContain('w ciągu 2 godzin');
    expect(mailMessages('pl').verifyEmail({ hours: 24 }).paragraphs[0]).toContain('24 godzin');
    const days = (locale: Locale, n: number) =>
      mailMessages(locale).invitation({ inviter: 'g', workspace: 'w', role: 'editor', days: n })
        .paragraphs[1];
    expect(days('en', 1)).toContain('valid for 1 day.');
    expect(days('en', 14)).toContain('valid for 14 days.');
    const scans = (locale: Locale, n: number) =>
      mailMessages(locale).scanDigest({ total: n, day: 'd', timeZone: 'UTC', sections: [] }).subject;
    expect(scans('en', 1)).toBe('Your QR codes were scanned 1 time yesterday');
    expect(scans('en', 1234)).toBe('Your QR codes were scanned 1,234 times yesterday');
    expect(scans('de', 1234)).toContain('1.234');
  });
});

describe('a mail in its recipient’s language', () => {
  it('is in the language they chose, else their browser’s, else English', () => {
    expect(mailLocaleOf({ language: 'ja', browser_language: 'de' })).toBe('ja');
    expect(mailLocaleOf({ language: null, browser_language: 'de' })).toBe('de');
    expect(mailLocaleOf({ language: 'xx', browser_language: 'pt-BR' })).toBe('pt-BR');
    expect(mailLocaleOf({ language: null, browser_language: null })).toBe('en');
    expect(mailLocaleOf(undefined)).toBe('en');
  });

  it('says lang and dir, greets in the language and writes the layout’s words in it', () => {
    const mail = composeMail(
      {
        to: 'ada@example.com',
        subject: 'x',
        greeting: greetingFor({ name: 'Ada', username: 'ada' }, 'ar'),
        paragraphs: ['p'],
        action: { label: 'a', url: 'http://localhost:3000/x' },
      },
      'http://localhost:3000',
      'ar',
    );
    expect(mail.html).toContain('<html lang="ar" dir="rtl">');
    expect(mail.html).toContain(MAIL_LOCALES.ar.layout.openLink);
    expect(mail.text).toContain(MAIL_LOCALES.ar.layout.footer);
    expect(mail.text).toContain('Ada');
    expect(mail.text).not.toContain('Hello');
    const english = composeMail(
      { to: 'a@example.com', subject: 'x', greeting: 'Hello Ada,', paragraphs: ['p'] },
      'http://localhost:3000',
    );
    expect(english.html).toContain('<html lang="en" dir="ltr">');
    expect(english.text).toContain('This message was sent by QR Creator.');
  });

  it('writes dates and times in the language and the person’s zone', () => {
    const at = new Date('2026-12-06T13:05:00Z');
    expect(formatters('en').dateTime(at, 'Europe/Berlin')).toBe('Dec 6, 2026, 2:05 PM GMT+1');
    expect(formatters('de').dateTime(at, 'Europe/Berlin')).toBe('6. Dez. 2026, 14:05 MEZ');
    expect(formatters('de').day('2026-12-06')).toBe('6. Dezember 2026');
    expect(formatters('ja').day('2026-12-06')).toBe('2026年12月6日');
    expect(formatters('en').dateTime(at, 'Not/AZone')).toBe('Dec 6, 2026, 1:05 PM UTC');
  });
});
