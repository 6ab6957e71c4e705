import { formatEventRange } from '../../../../src/qr/actions.js';
import type { ContentFields } from '../../../../src/qr/content.js';
import { button, cardOf, details, ownPath, type Body } from './html.js';
import type { ScanLocale, ScanMessages } from './messages/index.js';

/**
 * The event's title as heading; when (in the event's own time zone, named, else UTC; its dates as the
 * scanner's language writes them), where and what; and
 * 'Add to calendar', which downloads `/r/<slug>/event.ics`.
 */
export function eventBody(f: ContentFields, slug: string, m: ScanMessages, locale: ScanLocale): Body {
  const get = (k: string) => f[k] ?? '';
  return {
    kicker: m.event.kicker,
    heading: get('title').trim() || m.event.kicker,
    body:
      cardOf(
        details([
          [
            m.event.when,
            formatEventRange(
              get('startDate'),
              get('endDate'),
              get('timeZone'),
              // English keeps the spec's own way of writing them (the same as the designer's scan check).
              locale === 'en' ? undefined : { locale, until: m.event.until },
            ),
            'text',
          ],
          [m.event.location, get('location'), 'text'],
          [m.event.description, get('description'), 'multiline'],
        ]),
      ) + button(ownPath(slug, 'event.ics'), m.event.addToCalendar),
  };
}
