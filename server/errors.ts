/**
 * The app's expected failures, thrown by services and answered by both APIs: tRPC formats them
 * (trpc/init.ts), REST sends them (rest/rest-errors.ts). A TRPCError carries them, so a procedure passes
 * them on untouched; nothing here depends on the tRPC layer itself.
 */
import { TRPCError, type TRPC_ERROR_CODE_KEY } from '@trpc/server';
import type { z } from 'zod';
import { errorCodes, type ErrorCode } from '../src/api/error-codes.js';

/** Documented extras of an error body (operations.md): limitReached, requiresVerification, … */
export type ErrorExtras = Record<string, string | number | boolean | null | readonly string[]>;

class ErrorExtrasCause extends Error {
  constructor(
    readonly extras: ErrorExtras | undefined,
    readonly reason: ErrorCode | undefined,
  ) {
    super('extras');
  }
}

/** An expected failure: a tRPC code, a user-facing message and optional documented extras. */
export function appError(code: TRPC_ERROR_CODE_KEY, message: string, extras?: ErrorExtras) {
  return new TRPCError({
    code,
    message,
    cause: extras ? new ErrorExtrasCause(extras, undefined) : undefined,
  });
}

const trpcCodeOfStatus: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * An expected failure named by its cause (src/api/error-codes.ts): the REST body's `code` says it, the
 * status follows from the catalogue, tRPC sees the matching tRPC code.
 */
export function refuse(reason: ErrorCode, message: string, extras?: ErrorExtras) {
  return new TRPCError({
    code: trpcCodeOfStatus[errorCodes[reason].status]!,
    message,
    cause: new ErrorExtrasCause(extras, reason),
  });
}

export function extrasOf(error: TRPCError): ErrorExtras | undefined {
  return error.cause instanceof ErrorExtrasCause ? error.cause.extras : undefined;
}

/** The code of an error without a named cause: its status's general one. */
const reasonOfTrpcCode: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorCode>> = {
  BAD_REQUEST: 'BAD_REQUEST',
  PARSE_ERROR: 'INVALID_JSON',
  UNAUTHORIZED: 'NOT_SIGNED_IN',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_SUPPORTED: 'METHOD_NOT_ALLOWED',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  TOO_MANY_REQUESTS: 'RATE_LIMITED',
  BAD_GATEWAY: 'UPSTREAM_FAILED',
  SERVICE_UNAVAILABLE: 'UNAVAILABLE',
};

/** Whether the error was refused with a named cause (`refuse`). */
export function hasReason(error: TRPCError): boolean {
  return error.cause instanceof ErrorExtrasCause && error.cause.reason !== undefined;
}

/** The stable name of an error's cause: the one it was refused with, else its status's general one. */
export function reasonOf(error: TRPCError): ErrorCode {
  if (error.cause instanceof ErrorExtrasCause && error.cause.reason) return error.cause.reason;
  if (error.code === 'BAD_REQUEST' && validationIssuesOf(error)) return 'VALIDATION_FAILED';
  return reasonOfTrpcCode[error.code] ?? 'INTERNAL_SERVER_ERROR';
}

export interface ValidationIssue {
  path: string;
  message: string;
}

/** Zod (or any Standard Schema) issues carried by an input-validation error. */
export function validationIssuesOf(error: TRPCError): ValidationIssue[] | undefined {
  const cause = error.cause as { issues?: unknown } | undefined;
  if (error.code !== 'BAD_REQUEST' || !cause || !Array.isArray(cause.issues)) return undefined;
  const pathOf = (path: readonly unknown[]) =>
    path
      .map((p) => (typeof p === 'object' && p !== null && 'key' in p ? String(p.key) : String(p)))
      .join('.');
  return (
    cause.issues as { path?: readonly unknown[]; message?: unknown; code?: unknown; keys?: unknown }[]
  ).flatMap((issue) => {
    const path = issue.path ?? [];
    // A closed object's refusal (the /api/v1 paths): one issue per field it does not know, named.
    if (issue.code === 'unrecognized_keys' && Array.isArray(issue.keys)) {
      return issue.keys.map((key) => ({ path: pathOf([...path, key]), message: 'Unknown field' }));
    }
    return [
      { path: pathOf(path), message: typeof issue.message === 'string' ? issue.message : 'Invalid value' },
    ];
  });
}

/** The message a caller sees: the first validation message, or the error's own; never 5xx internals. */
export function publicMessageOf(error: TRPCError): string {
  if (error.code === 'INTERNAL_SERVER_ERROR') return 'Internal server error';
  const issues = validationIssuesOf(error);
  if (issues?.[0]) {
    const { path, message } = issues[0];
    // Zod's own messages ("Invalid input: expected object…") do not name the field: prefix it. A message
    // names it when it holds the field's last word ('currentPassword': "Current password is required").
    const word = (path.split('.').pop() ?? '')
      .split(/(?=[A-Z])/)
      .pop()!
      .toLowerCase();
    return path && !message.toLowerCase().includes(word) ? `${path}: ${message}` : message;
  }
  return error.message;
}

/**
 * Checks input against its schema outside a procedure (REST paths, services): the same 400 as a procedure's
 * own input check, whose message names the field.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Invalid input', cause: parsed.error });
  return parsed.data;
}
