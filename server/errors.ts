/**
 * The app's expected failures, thrown by services and answered by both APIs: tRPC formats them
 * (trpc/init.ts), REST sends them (rest/rest-errors.ts). A TRPCError carries them, so a procedure passes
 * them on untouched; nothing here depends on the tRPC layer itself.
 */
import { TRPCError, type TRPC_ERROR_CODE_KEY } from '@trpc/server';
import type { z } from 'zod';

/** Documented extras of an error body (operations.md): limitReached, requiresVerification, … */
export type ErrorExtras = Record<string, string | number | boolean | null | readonly string[]>;

class ErrorExtrasCause extends Error {
  constructor(readonly extras: ErrorExtras) {
    super('extras');
  }
}

/** An expected failure: a tRPC code, a user-facing message and optional documented extras. */
export function appError(code: TRPC_ERROR_CODE_KEY, message: string, extras?: ErrorExtras) {
  return new TRPCError({ code, message, cause: extras ? new ErrorExtrasCause(extras) : undefined });
}

export function extrasOf(error: TRPCError): ErrorExtras | undefined {
  return error.cause instanceof ErrorExtrasCause ? error.cause.extras : undefined;
}

export interface ValidationIssue {
  path: string;
  message: string;
}

/** Zod (or any Standard Schema) issues carried by an input-validation error. */
export function validationIssuesOf(error: TRPCError): ValidationIssue[] | undefined {
  const cause = error.cause as { issues?: unknown } | undefined;
  if (error.code !== 'BAD_REQUEST' || !cause || !Array.isArray(cause.issues)) return undefined;
  return (cause.issues as { path?: readonly unknown[]; message?: unknown }[]).map((issue) => ({
    path: (issue.path ?? [])
      .map((p) => (typeof p === 'object' && p !== null && 'key' in p ? String(p.key) : String(p)))
      .join('.'),
    message: typeof issue.message === 'string' ? issue.message : 'Invalid value',
  }));
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
