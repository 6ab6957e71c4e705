import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { errorAnswer } from '../../src/api/answers.js';
import { isNulInTextError, nulInTextMessage } from '../db/db-errors.js';
import { extrasOf, publicMessageOf, validationIssuesOf } from '../errors.js';

export type RestErrorBody = z.infer<typeof errorAnswer>;

/** Fastify's own request errors (bad JSON, unsupported media type, body too large) in our words. */
const fastifyMessages: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'BAD_REQUEST', 'Request body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'BAD_REQUEST', 'Request body must be a JSON object'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    'Request body must be JSON (Content-Type: application/json)',
  ],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'Request body is too large'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [
    400,
    'BAD_REQUEST',
    'Request body length does not match Content-Length',
  ],
};

const codeOfStatus: Record<number, string> = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
};

/** THE one mapping of errors to HTTP statuses and bodies for the documented /api paths. */
export function toRestError(error: unknown): { status: number; body: RestErrorBody } {
  if (error instanceof TRPCError) {
    const status = getHTTPStatusCodeFromError(error);
    const issues = validationIssuesOf(error);
    return {
      status,
      body: {
        message: publicMessageOf(error),
        code: error.code,
        ...(issues ? { issues } : {}),
        ...extrasOf(error),
      },
    };
  }
  if (isNulInTextError(error)) {
    return { status: 400, body: { message: nulInTextMessage, code: 'BAD_REQUEST' } };
  }
  const fastifyError = error as Partial<FastifyError>;
  const known = fastifyError.code ? fastifyMessages[fastifyError.code] : undefined;
  if (known) return { status: known[0], body: { message: known[2], code: known[1] } };
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return {
      status,
      body: { message: fastifyError.message ?? 'Bad request', code: codeOfStatus[status] ?? 'BAD_REQUEST' },
    };
  }
  return { status: 500, body: { message: 'Internal server error', code: 'INTERNAL_SERVER_ERROR' } };
}

export function sendRestError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const { status, body } = toRestError(error);
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  if (status === 429 && typeof body.retryAfterSeconds === 'number') {
    void reply.header('Retry-After', String(body.retryAfterSeconds));
  }
  return reply.status(status).send(body);
}
