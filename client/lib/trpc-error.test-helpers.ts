import { TRPCClientError } from '@trpc/client';

/**
 * A failed call as the tRPC client hands it over, shaped by the server's errorFormatter (trpc/init.ts):
 * for tests of what a form makes of a refusal.
 */
export function clientError(
  message: string,
  httpStatus: number,
  issues?: { path: string; message: string }[],
  extras?: Record<string, unknown>,
  path = 'qr.create',
): TRPCClientError<never> {
  return new TRPCClientError(message, {
    result: {
      error: {
        message,
        code: -32000,
        data: {
          code: httpStatus === 409 ? 'CONFLICT' : 'BAD_REQUEST',
          httpStatus,
          path,
          issues,
          extras,
        },
      },
    },
  } as never);
}
