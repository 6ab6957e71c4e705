import type { DeliveryState, WebhookDelivery } from '../../../src/webhooks/webhook.schema';

/** A delivery's state in words, as its badge says it. */
export const deliveryStateLabels: Record<DeliveryState, string> = {
  pending: 'Pending',
  retrying: 'Retrying',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

export const deliveryStateColors: Record<DeliveryState, string> = {
  pending: 'gray',
  retrying: 'yellow',
  succeeded: 'teal',
  failed: 'red',
};

/** A delivery's event types as the log names them ("ping" is what "Send a test" sends). */
export function eventTypesText(types: readonly string[]): string {
  return types.map((type) => (type === 'ping' ? 'test (ping)' : type)).join(', ');
}

export function eventsCountText(n: number): string {
  return n === 1 ? '1 event' : `${n} events`;
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
  if (delivery.state === 'succeeded') {
    return { ok: true, text: `Delivered: ${delivery.responseStatus ?? 'OK'}` };
  }
  const why =
    delivery.error ??
    (delivery.responseStatus !== null ? `the endpoint answered ${delivery.responseStatus}` : 'no answer');
  return { ok: false, text: `Not delivered: ${why}` };
}

/**
 * The schema's messages name their field ("url: enter an http:// or https:// address"); beside the field
 * itself that name is said already.
 */
export function fieldMessage(message: string): string {
  const text = message.replace(/^[a-z]+: /, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
