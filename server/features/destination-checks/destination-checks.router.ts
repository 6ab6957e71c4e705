import { idInput } from '../../../src/qr/qr.schema.js';
import { router, workspaceProcedure } from '../../trpc/init.js';
import { checkCodeNow, listDestinationIssues } from './destination-checks.service.js';

/** Dead destinations (issue 35): what fails in the workspace, and a code's "Check again". */
export const destinationsRouter = router({
  issues: workspaceProcedure('viewer').query(({ ctx }) => listDestinationIssues(ctx, ctx.owner.id)),
  check: workspaceProcedure('editor')
    .input(idInput)
    .mutation(({ ctx, input }) => checkCodeNow(ctx, ctx.owner.id, input.id)),
});
