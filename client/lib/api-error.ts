// A failed call's message and extras, read without the tRPC client's code (the sign-in form loads it only
// when it sends something): its errors are told apart by their name, which only TRPCClientError sets.
// The server writes its messages in English (the API's contract): they are shown in the user's language.
import { translateShared } from '../i18n/shared-messages';

export interface ApiErrorInfo {
  message: string;
  extras: Record<string, unknown>;
}

/**
 * The server's message, in the user's language when it is one of the known ones, and documented extras
 * (requiresVerification, limitReached…) of a failed call.
 */
export function apiError(error: unknown, fallback: string): ApiErrorInfo {
  if (error instanceof Error && error.name === 'TRPCClientError') {
    const data = (error as Error & { data?: { extras?: Record<string, unknown> } | null }).data;
    return { message: error.message ? translateShared(error.message) : fallback, extras: data?.extras ?? {} };
  }
  return { message: fallback, extras: {} };
}
