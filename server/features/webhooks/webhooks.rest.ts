import { z } from 'zod';
import {
  createWebhookInput,
  deliveryListSchema,
  updateWebhookInput,
  webhookDeliverySchema,
  webhookEventTypes,
  webhookListSchema,
  webhookSchema,
  webhookWithSecretSchema,
} from '../../../src/webhooks/webhook.schema.js';
import { defineRoute } from '../../rest/rest-kit.js';

const idParams = z.object({ id: z.coerce.number().int().positive() });
const deliveryParams = z.object({
  id: z.coerce.number().int().positive(),
  deliveryId: z.coerce.number().int().positive(),
});
const deliveriesQuery = z.object({
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

const events = webhookEventTypes.join(', ');

/** Webhooks (issue 36, item 1): the current workspace's endpoints, for its admins. docs/integrations.md. */
export const webhookRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/webhooks',
    tokens: 'read',
    summary:
      "The current workspace's webhooks → { items: [{ id, url, description, events, enabled, disabledReason, secretHint, createdAt, lastDelivery }] }.",
    access: 'user',
    role: 'admin',
    answer: webhookListSchema,
    handler: ({ caller }) => caller.webhooks.list(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/webhooks',
    tokens: 'write',
    status: 201,
    summary: `{ url, description?, events: [${events}] } → the webhook with its signing \`secret\`, shown this once. At most 10 a workspace; private and loopback addresses are refused.`,
    access: 'user',
    role: 'admin',
    body: createWebhookInput,
    answer: webhookWithSecretSchema,
    handler: ({ caller, body }) => caller.webhooks.create(body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/webhooks/:id',
    tokens: 'read',
    summary: 'One webhook of the current workspace (its secret is never answered again).',
    access: 'user',
    role: 'admin',
    object: 'webhook',
    params: idParams,
    answer: webhookSchema,
    handler: ({ caller, params }) => caller.webhooks.get({ id: params.id }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/webhooks/:id',
    tokens: 'write',
    summary:
      '{ url?, description?, events?, enabled? } → the webhook. Turning a disabled webhook on again resumes its deliveries; turning it off gives up what waits.',
    access: 'user',
    role: 'admin',
    object: 'webhook',
    params: idParams,
    body: updateWebhookInput.omit({ id: true }),
    answer: webhookSchema,
    handler: ({ caller, params, body }) => caller.webhooks.update({ ...body, id: params.id }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/webhooks/:id',
    tokens: 'write',
    summary: 'Deletes a webhook and its delivery log.',
    access: 'user',
    role: 'admin',
    object: 'webhook',
    params: idParams,
    answer: z.object({ success: z.literal(true), message: z.string() }),
    handler: ({ caller, params }) => caller.webhooks.delete({ id: params.id }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/webhooks/:id/secret',
    tokens: 'write',
    summary: 'A new signing secret (shown this once); the old one stops signing at once.',
    access: 'user',
    role: 'admin',
    object: 'webhook',
    params: idParams,
    answer: webhookWithSecretSchema,
    handler: ({ caller, params }) => caller.webhooks.rotateSecret({ id: params.id }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/webhooks/:id/deliveries',
    tokens: 'read',
    summary:
      'The delivery log, newest first (kept a week) → { items: [{ id, eventTypes, events, state: pending|retrying|succeeded|failed, attempts, createdAt, lastAttemptAt, nextAttemptAt, responseStatus, responseExcerpt, error, durationMs, redeliveryOf, payload }], next } (pass next as ?before= for older ones).',
    access: 'user',
    role: 'admin',
    object: 'webhook',
    params: idParams,
    query: deliveriesQuery,
    answer: deliveryListSchema,
    handler: ({ caller, params, query }) =>
      caller.webhooks.deliveries({ id: params.id, before: query.before, limit: query.limit }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/webhooks/:id/test',
    tokens: 'write',
    summary: 'Sends a signed `ping` event now and answers the delivery as it ended (a test is not retried).',
    access: 'user',
    role: 'admin',
    object: 'webhook',
    params: idParams,
    answer: webhookDeliverySchema,
    handler: ({ caller, params }) => caller.webhooks.test({ id: params.id }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
    tokens: 'write',
    summary:
      'Sends the same events again now, as a new delivery (its redeliveryOf names the first) → that delivery.',
    access: 'user',
    role: 'admin',
    object: 'webhook',
    params: deliveryParams,
    answer: webhookDeliverySchema,
    handler: ({ caller, params }) =>
      caller.webhooks.redeliver({ id: params.id, deliveryId: params.deliveryId }),
  }),
];
