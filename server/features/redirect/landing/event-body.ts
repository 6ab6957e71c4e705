import { formatEventRange } from '../../../../src/qr/actions.js';
import type { ContentFields } from '../../../../src/qr/content.js';
import { button, cardOf, details, label, ownPath, type Body } from './html.js';

/**
 * The event's title as heading; when (in the event's own time zone, named, else UTC), where and what; and
 * 'Add to calendar', which downloads `/r/<slug>/event.ics`.
 */
export function eventBody(f: ContentFields, slug: string): Body {
  const get = (k: string) => f[k] ?? '';
  return {
    kicker: 'Event',
    heading: get('title').trim() || 'Event',
    body:
      cardOf(
        details([
          ['When', formatEventRange(get('startDate'), get('endDate'), get('timeZone')), 'text'],
          [label('event', 'location'), get('location'), 'text'],
          [label('event', 'description'), get('description'), 'multiline'],
        ]),
      ) + button(ownPath(slug, 'event.ics'), 'Add to calendar'),
  };
}
