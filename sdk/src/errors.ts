/** One problem with one field of a refused request: `path` names the field (`codes.3.content`). */
export interface QrCreatorIssue {
  path: string;
  message: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function issuesOf(value: unknown): QrCreatorIssue[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) =>
    isRecord(item) && typeof item.path === 'string' && typeof item.message === 'string'
      ? [{ path: item.path, message: item.message }]
      : [],
  );
}

const numberOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/**
 * What every failed call throws: an answer outside 2xx (after the retries the client makes), or no
 * answer at all (`status` 0, `code` `NETWORK_ERROR`). Branch on `code`, a stable name of the cause
 * (`VALIDATION_FAILED`, `LIMIT_REACHED`, `NOT_FOUND`…); `message` is for people and may be reworded.
 */
export class QrCreatorError extends Error {
  override readonly name = 'QrCreatorError';
  /** The HTTP status; 0 when the server could not be reached. */
  readonly status: number;
  readonly code: string;
  /** Each field at fault (400 answers); empty otherwise. */
  readonly issues: QrCreatorIssue[];
  /** The answer's body as sent: JSON when it was JSON, else its text (undefined without one). */
  readonly body: unknown;
  /** How long the server asked to wait (429), from `Retry-After` or the body. */
  readonly retryAfterSeconds: number | undefined;
  /** The plan limit's figures, on a `LIMIT_REACHED` refusal. */
  readonly currentCount: number | undefined;
  readonly maxCount: number | undefined;

  constructor(
    status: number,
    body: unknown,
    options: { retryAfterSeconds?: number | undefined; cause?: unknown; fallbackMessage?: string } = {},
  ) {
    const fields = isRecord(body) ? body : {};
    const message =
      typeof fields.message === 'string'
        ? fields.message
        : (options.fallbackMessage ?? `The server answered ${status}`);
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.code =
      typeof fields.code === 'string' ? fields.code : status === 0 ? 'NETWORK_ERROR' : `HTTP_${status}`;
    this.issues = issuesOf(fields.issues);
    this.body = body;
    this.retryAfterSeconds = options.retryAfterSeconds ?? numberOf(fields.retryAfterSeconds);
    this.currentCount = numberOf(fields.currentCount);
    this.maxCount = numberOf(fields.maxCount);
  }
}

/** `Retry-After` in seconds: a number of seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSecondsOf(headers: Headers, now: number = Date.now()): number | undefined {
  const value = headers.get('Retry-After')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
