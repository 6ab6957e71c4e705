// What a failed import call says, and where: the server's message on the field it names (the Server address
// or the API key of a connection), or for the whole form; that the server could not be reached. The
// page's own messages are in the screens' language (these run as a call fails, the language long active).
import { t } from '@lingui/core/macro';
import { translateShared } from '../../i18n/shared-messages';

/** The call never reached the server: fetch's TypeError, bare or inside the tRPC client's error. */
function notReached(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && error.cause instanceof TypeError);
}

/** A failed call's message for a person: the server's own (translated), or that it could not be reached. */
export function callFailure(error: unknown, fallback: string): string {
  if (notReached(error)) return t`The server could not be reached. Please try again.`;
  return error instanceof Error && error.message ? translateShared(error.message) : fallback;
}

export type ConnectField = 'url' | 'apiKey';

interface ErrorData {
  issues?: readonly { path?: unknown; message?: unknown }[];
  extras?: Record<string, unknown> | null;
}

const connectFields: readonly string[] = ['url', 'apiKey'];
const isConnectField = (value: unknown): value is ConnectField =>
  typeof value === 'string' && connectFields.includes(value);

/**
 * A refused connection (`imports.connect`): the field it names, by a validation issue's path or the
 * `field` extra (the address did not answer, or answers unlike Shlink: `url`; the key was refused:
 * `apiKey`), with its message; `field` null for anything else (the server unreachable, a plan refusal).
 */
export function connectRefusalOf(error: unknown): { field: ConnectField | null; message: string } {
  const fallback = t`The links could not be read. Please try again.`;
  if (!(error instanceof Error) || notReached(error))
    return { field: null, message: callFailure(error, fallback) };
  const data = (error as Error & { data?: ErrorData | null }).data;
  for (const issue of data?.issues ?? []) {
    if (isConnectField(issue.path) && typeof issue.message === 'string')
      return { field: issue.path, message: translateShared(issue.message) };
  }
  const field = data?.extras?.field;
  return {
    field: isConnectField(field) ? field : null,
    message: error.message ? translateShared(error.message) : fallback,
  };
}
