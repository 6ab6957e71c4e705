import {
  billingStatusSchema,
  checkoutAnswer,
  stripeWebhookAnswer,
  upgradeRequestAnswer,
  upgradeRequestInput,
} from '../../../src/admin/admin.schema.js';
import { defineRoute } from '../../rest/rest-kit.js';
import { handleStripeWebhook } from './stripe.js';

export const billingRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/billing/status',
    tokens: 'read',
    summary:
      "The caller's plan: tier, effective tier, status, end date, counts, payments (stripe|request), pending request.",
    access: 'user',
    role: 'viewer',
    answer: billingStatusSchema,
    handler: ({ caller }) => caller.billing.status(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/billing/checkout',
    tokens: 'write',
    summary:
      '{ tier: pro|premium } → { url } of a Stripe Checkout page (only when Stripe is set up; else 404).',
    access: 'user',
    role: 'owner',
    answer: checkoutAnswer,
    body: upgradeRequestInput,
    handler: ({ caller, body }) => caller.billing.checkout(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/billing/upgrade-request',
    tokens: 'write',
    summary:
      '{ tier: pro|premium } → { success, message, request }: asks the admins (servers without Stripe).',
    access: 'user',
    role: 'owner',
    answer: upgradeRequestAnswer,
    status: 201,
    body: upgradeRequestInput,
    handler: ({ caller, body }) => caller.billing.requestUpgrade(body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/stripe/webhook',
    summary:
      "Stripe's events, signed (Stripe-Signature over the raw body; 400 if it does not match) → { received, duplicate }.",
    access: 'public',
    answer: stripeWebhookAnswer,
    rawBody: true,
    handler: ({ ctx, file, req }) => {
      const signature = req.headers['stripe-signature'];
      return handleStripeWebhook(ctx, file, Array.isArray(signature) ? signature[0] : signature);
    },
  }),
];
