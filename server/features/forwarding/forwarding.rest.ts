import { successMessageAnswer } from '../../../src/api/answers.js';
import {
  forwardingAnswer,
  forwardingSettingsInput,
  forwardingTestAnswer,
} from '../../../src/forwarding/forwarding.schema.js';
import { defineRoute } from '../../rest/rest-kit.js';

/** Forwarding scans to web analytics (issue 36, item 2): the current workspace's settings, for its admins. */
export const forwardingRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/analytics-forwarding',
    tokens: 'read',
    summary:
      "The current workspace's forwarding of scans to web analytics → { settings } (null when none): the provider (matomo, plausible, ga4) and its fields, enabled, address (none, masked, full), the last success and error, counts sent and failed; secrets are never answered (hasTokenAuth, hasApiSecret).",
    access: 'user',
    role: 'admin',
    answer: forwardingAnswer,
    handler: ({ caller }) => caller.forwarding.get(),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/analytics-forwarding',
    tokens: 'write',
    summary:
      "Sets where the current workspace's scans are forwarded: { provider: 'matomo', url, siteId, tokenAuth? } | { provider: 'plausible', url?, domain } | { provider: 'ga4', measurementId, apiSecret }, with enabled and address; a secret left out is kept → { settings }.",
    access: 'user',
    role: 'admin',
    body: forwardingSettingsInput,
    answer: forwardingAnswer,
    handler: ({ caller, body }) => caller.forwarding.save(body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/analytics-forwarding',
    tokens: 'write',
    summary:
      "Stops forwarding the current workspace's scans and forgets its settings; 404 when there were none.",
    access: 'user',
    role: 'admin',
    answer: successMessageAnswer,
    handler: ({ caller }) => caller.forwarding.remove(),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/analytics-forwarding/test',
    tokens: 'write',
    summary:
      "Sends one test event to the workspace's provider now → { ok, httpStatus, message } (what the provider answered); 404 when forwarding is not set up.",
    access: 'user',
    role: 'admin',
    answer: forwardingTestAnswer,
    handler: ({ caller }) => caller.forwarding.test(),
  }),
];
