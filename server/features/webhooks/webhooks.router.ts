import {
  createWebhookInput,
  deliveriesInput,
  redeliverInput,
  updateWebhookInput,
  webhookIdInput,
} from '../../../src/webhooks/webhook.schema.js';
import { router, workspaceProcedure } from '../../trpc/init.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  redeliver,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
} from './webhooks.service.js';

/** Webhooks (issue 36): the current workspace's endpoints, managed by its admins. */
export const webhooksRouter = router({
  list: workspaceProcedure('admin').query(({ ctx }) => listWebhooks(ctx, ctx.owner.id)),
  get: workspaceProcedure('admin')
    .input(webhookIdInput)
    .query(({ ctx, input }) => getWebhook(ctx, ctx.owner.id, input.id)),
  create: workspaceProcedure('admin')
    .input(createWebhookInput)
    .mutation(({ ctx, input }) => createWebhook(ctx, ctx.owner.id, ctx.user.id, input)),
  update: workspaceProcedure('admin')
    .input(updateWebhookInput)
    .mutation(({ ctx, input }) => updateWebhook(ctx, ctx.owner.id, input)),
  rotateSecret: workspaceProcedure('admin')
    .input(webhookIdInput)
    .mutation(({ ctx, input }) => rotateWebhookSecret(ctx, ctx.owner.id, input.id)),
  delete: workspaceProcedure('admin')
    .input(webhookIdInput)
    .mutation(({ ctx, input }) => deleteWebhook(ctx, ctx.owner.id, input.id)),
  deliveries: workspaceProcedure('admin')
    .input(deliveriesInput)
    .query(({ ctx, input }) => listWebhookDeliveries(ctx, ctx.owner.id, input)),
  test: workspaceProcedure('admin')
    .input(webhookIdInput)
    .mutation(({ ctx, input }) => sendTestEvent(ctx, ctx.owner.id, input.id)),
  redeliver: workspaceProcedure('admin')
    .input(redeliverInput)
    .mutation(({ ctx, input }) => redeliver(ctx, ctx.owner.id, input)),
});
