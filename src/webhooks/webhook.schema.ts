import { z } from 'zod';

/**
 * Webhooks (issue 36, item 1): a workspace's admins add endpoints that receive its events as signed POSTs.
 * Deliveries are written to an outbox with their event and sent by a background worker, retried with
 * backoff for 24 hours; an endpoint whose deliveries keep failing is disabled and its admins are mailed.
 * docs/integrations.md documents the events and how to verify a signature.
 */

export const webhookEventTypes = [
  'scan',
  'code.created',
  'code.updated',
  'code.deleted',
  'destination.down',
  'limit.reached',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** What each event is, in the endpoint form's words. */
export const webhookEventLabels: Record<WebhookEventType, string> = {
  scan: 'A code is scanned',
  'code.created': 'A code is created',
  'code.updated': 'A code is changed',
  'code.deleted': 'A code is deleted',
  'destination.down': 'A destination stops working',
  'limit.reached': 'The plan’s code limit is reached',
};

/** The headers every delivery carries. */
export const WEBHOOK_SIGNATURE_HEADER = 'QR-Creator-Signature';
export const WEBHOOK_DELIVERY_HEADER = 'QR-Creator-Delivery';
export const WEBHOOK_EVENT_HEADER = 'QR-Creator-Event';
/** A receiver should refuse a signature whose timestamp is further than this from its own clock. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** Scans per delivery at most (scans arriving together are sent together). */
export const WEBHOOK_SCANS_PER_DELIVERY = 100;
/** How long a delivery is retried before it is given up. */
export const WEBHOOK_RETRY_HOURS = 24;

export const webhookMessages = {
  created: 'Webhook added',
  updated: 'Webhook saved',
  deleted: 'Webhook deleted',
  testQueued: 'Test event sent',
  redelivered: 'Delivery queued again',
  notFound: 'Webhook not found',
  deliveryNotFound: 'Delivery not found',
  tooMany: 'A workspace can have at most 10 webhooks',
  urlScheme: 'url: enter an http:// or https:// address',
  noEvents: 'events: choose at least one event',
  disabledMail: 'Webhook disabled',
} as const;

export const MAX_WEBHOOKS = 10;

const eventsField = z
  .array(z.enum(webhookEventTypes))
  .min(1, webhookMessages.noEvents)
  .max(webhookEventTypes.length)
  .meta({ description: `The events sent to this endpoint: ${webhookEventTypes.join(', ')}.` });

const urlField = z
  .string()
  .trim()
  .min(1, 'url: enter the address that receives the events')
  .max(2048, 'url: at most 2,048 characters')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, webhookMessages.urlScheme)
  .meta({ description: 'The address the events are POSTed to (https recommended).' });

const descriptionField = z
  .string()
  .trim()
  .max(200, 'description: at most 200 characters')
  .meta({ description: 'A note for people: what this endpoint feeds.' });

export const createWebhookInput = z.object({
  url: urlField,
  description: descriptionField.optional(),
  events: eventsField,
});
export type CreateWebhookInput = z.infer<typeof createWebhookInput>;

export const updateWebhookInput = z.object({
  id: z.number().int().positive(),
  url: urlField.optional(),
  description: descriptionField.optional(),
  events: eventsField.optional(),
  /** Turning a disabled endpoint on again starts its deliveries afresh. */
  enabled: z.boolean().optional(),
});
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;

export const webhookIdInput = z.object({ id: z.number().int().positive() });

export const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(webhookEventTypes)),
  enabled: z.boolean(),
  /** Why it was turned off by the app (its deliveries failed for 24 hours); null when on or turned off by a person. */
  disabledReason: z.string().nullable(),
  /** The start of the signing secret, to tell secrets apart ("whsec_Ab12…"). */
  secretHint: z.string(),
  createdAt: z.string(),
  /** The last delivery's outcome: null before the first. */
  lastDelivery: z
    .object({ state: z.enum(['pending', 'retrying', 'succeeded', 'failed']), at: z.string() })
    .nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The answer of creating an endpoint and of a new secret: the only time the secret is shown. */
export const webhookWithSecretSchema = webhookSchema.extend({
  secret: z.string().meta({ description: 'The signing secret, shown this once.' }),
});
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>;

export const webhookListSchema = z.object({ items: z.array(webhookSchema) });

export const deliveryStates = ['pending', 'retrying', 'succeeded', 'failed'] as const;
export type DeliveryState = (typeof deliveryStates)[number];

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  /** The events it carries, by type ("scan" for a batch of scans). */
  eventTypes: z.array(z.string()),
  events: z.number().int(),
  state: z.enum(deliveryStates),
  attempts: z.number().int(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  /** The receiver's HTTP status on the last attempt; null when it did not answer. */
  responseStatus: z.number().int().nullable(),
  /** The start of the receiver's answer (at most 1,000 characters). */
  responseExcerpt: z.string().nullable(),
  /** Why the last attempt failed when the receiver did not answer (time-out, refused…). */
  error: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  /** The delivery this one sends again, when it was redelivered. */
  redeliveryOf: z.number().int().nullable(),
  /** The JSON body that was (or will be) sent. */
  payload: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const deliveriesInput = z.object({
  id: z.number().int().positive(),
  /** Deliveries older than this id (the next page of the log). */
  before: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(100).optional(),
});
export const deliveryListSchema = z.object({
  items: z.array(webhookDeliverySchema),
  /** Pass as `before` for older deliveries; null at the end. */
  next: z.number().int().nullable(),
});

export const redeliverInput = z.object({
  id: z.number().int().positive(),
  deliveryId: z.number().int().positive(),
});

// ---- What a receiver gets (docs/integrations.md; the OpenAPI document's `webhooks`) ----

const codeSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.string(),
  dynamic: z.boolean(),
  shortUrl: z
    .string()
    .nullable()
    .meta({ description: 'The short link a dynamic code encodes; null for a static code.' }),
  content: z.string().meta({ description: "A dynamic code's destination, a static code's content." }),
  folderId: z.number().int().nullable(),
});
export type WebhookCodeSummary = z.infer<typeof codeSummarySchema>;

const scanDataSchema = z.object({
  code: z.object({
    id: z.number().int(),
    name: z.string(),
    shortUrl: z.string().nullable(),
    folderId: z.number().int().nullable(),
  }),
  scan: z.object({
    id: z.number().int(),
    at: z.string(),
    device: z.enum(['Mobile', 'Tablet', 'Desktop', 'Bot', 'Unknown']),
    bot: z.boolean(),
    location: z.string().nullable().meta({ description: '"City, Country", a country, or "Unknown".' }),
    referrer: z.string().nullable(),
    userAgent: z.string().nullable(),
    ipAddress: z
      .string()
      .nullable()
      .meta({ description: 'As stored: masked when the server anonymises addresses (ANONYMIZE_IPS).' }),
    outcome: z.object({ kind: z.string(), rule: z.number().int().nullable() }).meta({
      description:
        'Where the scan went: default (the destination), rule (the rule numbered `rule`), password (the password form), paused, not-started, ended or limit (refused).',
    }),
  }),
});
export type WebhookScanData = z.infer<typeof scanDataSchema>;

/** The `data` of each event type. */
export const webhookEventData = {
  scan: scanDataSchema,
  'code.created': z.object({
    code: codeSummarySchema,
    movedFrom: z
      .object({ workspaceId: z.number().int() })
      .optional()
      .meta({ description: 'Present when the code was moved here from another workspace.' }),
  }),
  'code.updated': z.object({ code: codeSummarySchema }),
  'code.deleted': z.object({
    code: codeSummarySchema,
    movedTo: z
      .object({ workspaceId: z.number().int() })
      .optional()
      .meta({ description: 'Present when the code was moved to another workspace rather than deleted.' }),
  }),
  'destination.down': z.object({
    code: z.object({ id: z.number().int(), name: z.string() }),
    url: z.string(),
    label: z
      .string()
      .meta({ description: 'Which of its URLs: "Destination", "Rule 2: Destination", "Fallback URL".' }),
    problem: z.string().nullable(),
    httpStatus: z.number().int().nullable(),
    since: z.string().nullable(),
  }),
  'limit.reached': z.object({
    limit: z.literal('codes'),
    maxCount: z.number().int(),
    message: z.string(),
  }),
  ping: z.object({
    message: z.string(),
    webhook: z.object({ id: z.number().int(), url: z.string() }),
  }),
} as const;

/** The body of a delivery carrying events of `type` (a delivery of scans carries at most 100). */
export function webhookPayloadSchemaOf(type: WebhookEventType | 'ping') {
  return z.object({
    events: z.array(
      z.object({
        id: z.string().meta({
          description: 'Unique per event and the same on every redelivery: receivers can drop repeats by it.',
        }),
        type: z.literal(type),
        createdAt: z.string(),
        workspace: z.object({ id: z.number().int() }),
        data: webhookEventData[type],
      }),
    ),
  });
}

export interface WebhookEvent {
  /** Unique per event and the same on every redelivery: receivers can drop repeats by it. */
  id: string;
  type: WebhookEventType | 'ping';
  createdAt: string;
  workspace: { id: number };
  data: unknown;
}

/** The JSON body of every delivery (its id is in the QR-Creator-Delivery header). */
export interface WebhookPayload {
  events: WebhookEvent[];
}
