import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { errorAnswer } from '../../src/api/answers.js';
import { isNulInTextError, nulInTextMessage } from '../db/db-errors.js';
import type { ErrorCode } from '../../src/api/error-codes.js';
import { extrasOf, hasReason, publicMessageOf, reasonOf, validationIssuesOf } from '../errors.js';

export type RestErrorBody = z.infer<typeof errorAnswer>;

/** Fastify's own request errors (bad JSON, unsupported media type, body too large) in our words. */
const fastifyMessages: Record<string, [number, ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'INVALID_JSON', 'Request body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'INVALID_JSON', 'Request body must be a JSON object'],
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

const codeOfStatus: Record<number, ErrorCode> = {
  401: 'NOT_SIGNED_IN',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** THE one mapping of errors to HTTP statuses and bodies for the documented /api paths. */
export function toRestError(error: unknown): { status: number; body: RestErrorBody } {
  if (error instanceof TRPCError) {
    const status = getHTTPStatusCodeFromError(error);
    const message = publicMessageOf(error);
    const { field, ...extras } = extrasOf(error) ?? {};
    // A service's refusal of one field (`field` for the app's form) is an issue like a schema's: one shape.
    const issues =
      validationIssuesOf(error) ??
      (typeof field === 'string' && status === 400 ? [{ path: field, message }] : undefined);
    return {
      status,
      body: {
        message,
        code: issues && status === 400 && !hasReason(error) ? 'VALIDATION_FAILED' : reasonOf(error),
        ...(issues ? { issues } : {}),
        ...extras,
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
  // RFC 9110: a 401 says how to authenticate. A token that was sent and refused is named as such (RFC 6750).
  if (status === 401) {
    void reply.header(
      'WWW-Authenticate',
      body.code === 'TOKEN_INVALID'
        ? 'Bearer realm="QR Creator", error="invalid_token"'
        : 'Bearer realm="QR Creator"',
    );
  }
  return reply.status(status).send(body);
}
