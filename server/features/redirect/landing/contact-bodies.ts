import { emailLink, mailtoLink, smsLink, telLink } from '../../../../src/qr/actions.js';
import type { ContentFields } from '../../../../src/qr/content.js';
import { isHttpUrl } from '../../../../src/qr/field-checks.js';
import { button, card, cardOf, details, esc, link, ownPath, type Body } from './html.js';
import type { ScanMessages } from './messages/index.js';

/**
 * The pages of the types that reach a person: e-mail, SMS, phone and contact (vCard). Their hrefs come from
 * the shared action builders (`src/qr/actions.ts`), as the scan simulator's do.
 */

export function emailBody(content: string, f: ContentFields, m: ScanMessages): Body {
  const get = (k: string) => f[k] ?? '';
  const address = get('email').trim();
  return {
    kicker: m.email.kicker,
    heading: address || m.email.kicker,
    body:
      card(
        details([
          [m.email.subject, get('subject'), 'text'],
          [m.email.message, get('body'), 'multiline'],
        ]),
      ) + button(emailLink(content, f), m.email.send),
  };
}

export function smsBody(f: ContentFields, m: ScanMessages): Body {
  const phone = f.phone ?? '';
  const message = f.message ?? '';
  const sms = smsLink(phone, message);
  const tel = telLink(phone);
  return {
    kicker: m.sms.kicker,
    heading: phone.trim() || m.sms.kicker,
    body:
      cardOf(details([[m.sms.message, message, 'multiline']])) +
      (sms ? button(sms, m.sms.send) : '') +
      (tel ? button(tel, m.sms.call, true) : ''),
  };
}

export function phoneBody(f: ContentFields, m: ScanMessages): Body {
  const phone = f.phone ?? '';
  const tel = telLink(phone);
  return {
    kicker: m.phone.kicker,
    heading: phone.trim() || m.phone.kicker,
    body: tel ? button(tel, m.phone.call) : '',
  };
}

export function vcardBody(f: ContentFields, slug: string, m: ScanMessages): Body {
  const get = (k: string) => (f[k] ?? '').trim();
  const fullName = [get('firstName'), get('lastName')].filter(Boolean).join(' ');
  // Without a name the organization is the heading, so the role line does not repeat it.
  const role = [get('title'), fullName ? get('organization') : ''].filter(Boolean).join(' · ');
  const tel = telLink(get('phone'));
  const mailto = mailtoLink(get('email'));
  const website = get('website');
  return {
    kicker: m.contact.kicker,
    heading: fullName || get('organization') || m.contact.kicker,
    body:
      card(
        (role ? `<p class="s">${esc(role)}</p>` : '') +
          details([
            [m.contact.phone, tel ? link(tel, get('phone')) : esc(get('phone')), 'html'],
            [m.contact.email, mailto ? link(mailto, get('email')) : esc(get('email')), 'html'],
            [m.contact.website, isHttpUrl(website) ? link(website, website, true) : esc(website), 'html'],
          ]),
      ) + button(ownPath(slug, 'contact.vcf'), m.contact.save),
  };
}
