import { emailLink, mailtoLink, smsLink, telLink } from '../../../../src/qr/actions.js';
import type { ContentFields } from '../../../../src/qr/content.js';
import { isHttpUrl } from '../../../../src/qr/field-checks.js';
import { button, card, cardOf, details, esc, label, link, ownPath, type Body } from './html.js';

/**
 * The pages of the types that reach a person: e-mail, SMS, phone and contact (vCard). Their hrefs come from
 * the shared action builders (`src/qr/actions.ts`), as the scan simulator's do.
 */

export function emailBody(content: string, f: ContentFields): Body {
  const get = (k: string) => f[k] ?? '';
  const address = get('email').trim();
  return {
    kicker: 'Email',
    heading: address || 'Email',
    body:
      card(
        details([
          [label('email', 'subject'), get('subject'), 'text'],
          [label('email', 'body'), get('body'), 'multiline'],
        ]),
      ) + button(emailLink(content, f), 'Send email'),
  };
}

export function smsBody(f: ContentFields): Body {
  const phone = f.phone ?? '';
  const message = f.message ?? '';
  const sms = smsLink(phone, message);
  const tel = telLink(phone);
  return {
    kicker: 'SMS',
    heading: phone.trim() || 'SMS',
    body:
      cardOf(details([[label('sms', 'message'), message, 'multiline']])) +
      (sms ? button(sms, 'Send SMS') : '') +
      (tel ? button(tel, 'Call', true) : ''),
  };
}

export function phoneBody(f: ContentFields): Body {
  const phone = f.phone ?? '';
  const tel = telLink(phone);
  return { kicker: 'Phone', heading: phone.trim() || 'Phone', body: tel ? button(tel, 'Call') : '' };
}

export function vcardBody(f: ContentFields, slug: string): Body {
  const get = (k: string) => (f[k] ?? '').trim();
  const fullName = [get('firstName'), get('lastName')].filter(Boolean).join(' ');
  // Without a name the organization is the heading, so the role line does not repeat it.
  const role = [get('title'), fullName ? get('organization') : ''].filter(Boolean).join(' · ');
  const tel = telLink(get('phone'));
  const mailto = mailtoLink(get('email'));
  const website = get('website');
  return {
    kicker: 'Contact',
    heading: fullName || get('organization') || 'Contact',
    body:
      card(
        (role ? `<p class="s">${esc(role)}</p>` : '') +
          details([
            [label('vcard', 'phone'), tel ? link(tel, get('phone')) : esc(get('phone')), 'html'],
            [label('vcard', 'email'), mailto ? link(mailto, get('email')) : esc(get('email')), 'html'],
            [
              label('vcard', 'website'),
              isHttpUrl(website) ? link(website, website, true) : esc(website),
              'html',
            ],
          ]),
      ) + button(ownPath(slug, 'contact.vcf'), 'Save contact'),
  };
}
