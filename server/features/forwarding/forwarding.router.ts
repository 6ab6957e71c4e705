import { forwardingSettingsInput } from '../../../src/forwarding/forwarding.schema.js';
import { router, workspaceProcedure } from '../../trpc/init.js';
import {
  getForwarding,
  removeForwarding,
  saveForwardingSettings,
  sendTestEvent,
} from './forwarding.service.js';

/** Forwarding scans to web analytics (issue 36, item 2): the workspace's admins read and change it. */
export const forwardingRouter = router({
  get: workspaceProcedure('admin').query(({ ctx }) => getForwarding(ctx, ctx.owner.id)),
  save: workspaceProcedure('admin')
    .input(forwardingSettingsInput)
    .mutation(({ ctx, input }) => saveForwardingSettings(ctx, ctx.owner, input)),
  remove: workspaceProcedure('admin').mutation(({ ctx }) => removeForwarding(ctx, ctx.owner)),
  test: workspaceProcedure('admin').mutation(({ ctx }) => sendTestEvent(ctx, ctx.owner.id)),
});
