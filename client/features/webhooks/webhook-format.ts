import type { MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import type { DeliveryState, WebhookDelivery } from '../../../src/webhooks/webhook.schema';
import { translateShared } from '../../i18n/shared-messages';

/** A delivery's state in words, as its badge says it. */
export const deliveryStateLabels: Record<DeliveryState, MessageDescriptor> = {
  pending: msg({ message: 'Pending', context: 'the state of a webhook delivery' }),
  retrying: msg({ message: 'Retrying', context: 'the state of a webhook delivery' }),
  succeeded: msg({ message: 'Succeeded', context: 'the state of a webhook delivery' }),
  failed: msg({ message: 'Failed', context: 'the state of a webhook delivery' }),
};

export const deliveryStateColors: Record<DeliveryState, string> = {
  pending: 'gray',
  retrying: 'yellow',
  succeeded: 'teal',
  failed: 'red',
};

/** A delivery's event types as the log names them ("ping" is what "Send a test" sends). */
export function eventTypesText(types: readonly string[]): string {
  return types.map((type) => (type === 'ping' ? t`test (ping)` : type)).join(', ');
}

export function eventsCountText(n: number): string {
  const count = n;
  return plural(count, { one: '# event', other: '# events' });
}

/** The body as sent, indented for reading; as stored when it is not JSON. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** What a sent delivery came to, in one line: "Delivered: 200", or why it failed. */
export function sendResultText(delivery: Pick<WebhookDelivery, 'state' | 'responseStatus' | 'error'>): {
  ok: boolean;
  text: string;
} {
  const status = delivery.responseStatus;
  if (delivery.state === 'succeeded') {
    return { ok: true, text: status === null ? t`Delivered: OK` : t`Delivered: ${status}` };
  }
  // The server's words for a failure are English (webhooks.service.ts): in the active language here.
  const why =
    delivery.error !== null
      ? translateShared(delivery.error)
      : status !== null
        ? t`the endpoint answered ${status}`
        : t`no answer`;
  return { ok: false, text: t`Not delivered: ${why}` };
}

/**
 * The schema's messages name their field ("url: enter an http:// or https:// address"); beside the field
 * itself that name is said already.
 */
export function fieldMessage(message: string): string {
  const text = message.replace(/^[a-z]+: /, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
