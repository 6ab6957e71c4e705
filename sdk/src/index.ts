// @qr-creator/sdk: a typed client of the QR Creator REST API, over openapi-fetch and the types
// generated from the server's OpenAPI document (schema.d.ts). Every type here is read from the
// document's paths, so it follows the server whenever schema.d.ts is regenerated.
import createClient, { type Client } from 'openapi-fetch';
import { QrCreatorError, retryAfterSecondsOf } from './errors.js';
import {
  ANALYTICS_CODE,
  ANALYTICS_EXPORT,
  ANALYTICS_SUMMARY,
  FOLDER,
  FOLDERS,
  QR_CODE,
  QR_CODE_IMAGE,
  QR_CODES,
  QR_CODES_BULK,
} from './paths.js';
import { defaultSleep, retryingFetch, type RateLimitState, type RetryEvent } from './retry.js';
import type { paths } from './schema.js';

export { QrCreatorError, type QrCreatorIssue } from './errors.js';
export type { RateLimitState, RetryEvent } from './retry.js';
export type { paths } from './schema.js';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Ok<Op> = Op extends { responses: { 200: infer R } } ? Json<R> : never;
type Created<Op> = Op extends { responses: { 201: infer R } } ? Json<R> : never;
type Body<Op> = Op extends { requestBody: infer R } ? Json<R> : never;
type Query<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** A QR code as the API answers it. */
export type QrCode = Ok<paths[typeof QR_CODE]['get']>;
/** POST /api/qr-codes: a new code. */
export type NewQrCode = Body<paths[typeof QR_CODES]['post']>;
/** PUT /api/qr-codes/{id}: name, content and design of a dynamic code. */
export type QrCodeChanges = Body<paths[typeof QR_CODE]['put']>;
export type QrCodeType = QrCode['type'];
/** POST /api/qr-codes/bulk: up to 5,000 codes in one call. */
export type BulkCreateInput = Body<paths[typeof QR_CODES_BULK]['post']>;
export type BulkCreateResult = Created<paths[typeof QR_CODES_BULK]['post']>;
export type Folder = Created<paths[typeof FOLDERS]['post']>;
export type NewFolder = Body<paths[typeof FOLDERS]['post']>;
export type AnalyticsSummary = Ok<paths[typeof ANALYTICS_SUMMARY]['get']>;
export type AnalyticsSummaryQuery = Query<paths[typeof ANALYTICS_SUMMARY]['get']>;
export type CodeAnalytics = Ok<paths[typeof ANALYTICS_CODE]['get']>;
export type CodeAnalyticsQuery = Query<paths[typeof ANALYTICS_CODE]['get']>;
export type ExportQuery = Query<paths[typeof ANALYTICS_EXPORT]['get']>;
export type ImageOptions = Query<paths[typeof QR_CODE_IMAGE]['get']>;
/** The body of every error answer: `{ message, code, issues?, … }`. */
export type ErrorBody = Json<paths[typeof QR_CODE]['get']['responses'][404]>;
/** Whether a call succeeded: `{ success, message }`. */
export type Done = Ok<paths[typeof QR_CODE]['delete']>;

/**
 * GET /api/qr-codes: one page of the caller's codes, narrowed and ordered. The document's own query
 * parameters when it declares them; these until then.
 */
export type ListQrCodesQuery = [DeclaredListQuery] extends [never]
  ? ListQrCodesFallbackQuery
  : DeclaredListQuery;
type DeclaredListQuery = Query<paths[typeof QR_CODES]['get']>;
interface ListQrCodesFallbackQuery {
  /** 1-based. */
  page?: number;
  pageSize?: number;
  /** Words to find in the name or content. */
  search?: string;
  type?: QrCodeType;
  folderId?: number;
  sort?: string;
  order?: 'asc' | 'desc';
}

export interface Page<T> {
  items: T[];
  /** All items matching the query, on every page (`X-Total-Count`). */
  total: number;
  page: number;
  pageSize: number;
}

/** A report file: its bytes, type and the name the server suggests. */
export interface ExportFile {
  bytes: Uint8Array;
  contentType: string;
  filename: string | undefined;
}

export interface QrCreatorClientOptions {
  /** Where the app is served: `https://qr.example.com` (the paths start with /api). */
  baseUrl: string;
  /** A personal API token (`qrc_…`): Settings → Security, or `qr-creator create-token` on the server. */
  token: string;
  /** The workspace to act on (a token is bound to its own, which is the default). */
  workspaceId?: number;
  /** Another fetch (a proxy's, a test's); by default the global one. */
  fetch?: (request: Request) => Promise<Response>;
  /** Retries of a call the server asked to repeat (429) or that got no answer; default 2. */
  maxRetries?: number;
  /** A 429 asking for a longer wait than this fails at once instead; default 60 s. */
  maxRetryAfterSeconds?: number;
  /** Told before each retry's wait (for logs). */
  onRetry?: (event: RetryEvent) => void;
  /** How the client waits before a retry; by default a timer (tests pass their own clock's). */
  sleep?: (ms: number) => Promise<void>;
}

const DEFAULT_PAGE_SIZE = 50;

/** openapi-fetch's answer: data on success, the parsed error body otherwise. */
interface Answer<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

function failure(response: Response, body: unknown): QrCreatorError {
  return new QrCreatorError(response.status, body, {
    retryAfterSeconds: retryAfterSecondsOf(response.headers),
  });
}

/** Sends a call; its answer's data, or a QrCreatorError for anything but 2xx (and for no answer). */
async function send<D>(call: () => Promise<Answer<D>>): Promise<{ data: D; response: Response }> {
  let answer: Answer<D>;
  try {
    answer = await call();
  } catch (error) {
    if (error instanceof QrCreatorError) throw error;
    throw new QrCreatorError(0, undefined, {
      cause: error,
      fallbackMessage: `No answer from the server: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  if (!answer.response.ok) throw failure(answer.response, answer.error);
  if (answer.data === undefined) throw failure(answer.response, 'The answer had no body');
  return { data: answer.data, response: answer.response };
}

function queryString(query: ListQrCodesQuery): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  return search.toString();
}

/** `attachment; filename="qr-report.csv"` → qr-report.csv. */
function filenameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (encoded?.[1]) return decodeURIComponent(encoded[1]);
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1];
}

/** The typed client: friendly methods per resource, and `raw` for any documented path. */
export function createQrCreatorClient(options: QrCreatorClientOptions) {
  let rateLimit: RateLimitState | undefined;
  const raw: Client<paths> = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: {
      Authorization: `Bearer ${options.token}`,
      ...(options.workspaceId === undefined ? {} : { 'X-Workspace': String(options.workspaceId) }),
    },
    fetch: retryingFetch({
      fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
      maxRetries: options.maxRetries ?? 2,
      maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? 60,
      sleep: options.sleep ?? defaultSleep,
      onRetry: options.onRetry,
      onRateLimit: (state) => {
        rateLimit = state;
      },
    }),
  });
  const id = (value: number) => ({ params: { path: { id: value } } });

  const qrCodes = {
    /**
     * One page of codes. `total` is every match (`X-Total-Count`); a server without paging answers
     * all codes at once, and then `total` is their number.
     */
    async list(query: ListQrCodesQuery = {}): Promise<Page<QrCode>> {
      const qs = queryString(query);
      const { data, response } = await send(() => raw.GET(QR_CODES, { querySerializer: () => qs }));
      const header = response.headers.get('X-Total-Count');
      const total = header !== null && /^\d+$/.test(header) ? Number(header) : data.length;
      return { items: data, total, page: query.page ?? 1, pageSize: query.pageSize ?? data.length };
    },

    /** Every code matching the query, fetched a page at a time as the loop asks for more. */
    async *listAll(query: Omit<ListQrCodesQuery, 'page'> = {}): AsyncGenerator<QrCode, void, undefined> {
      const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
      let seen = 0;
      for (let page = 1; ; page++) {
        const result = await qrCodes.list({ ...query, page, pageSize });
        yield* result.items;
        seen += result.items.length;
        // A short or empty page is the last; so is one that reaches the total (a server without
        // paging answers everything on page 1).
        if (result.items.length === 0 || result.items.length < pageSize || seen >= result.total) return;
      }
    },

    async get(codeId: number): Promise<QrCode> {
      return (await send(() => raw.GET(QR_CODE, id(codeId)))).data;
    },

    async create(code: NewQrCode): Promise<QrCode> {
      return (await send(() => raw.POST(QR_CODES, { body: code }))).data;
    },

    /** Name, content (the destination) and design of a dynamic code; a static code is refused. */
    async update(codeId: number, changes: QrCodeChanges): Promise<QrCode> {
      return (await send(() => raw.PUT(QR_CODE, { ...id(codeId), body: changes }))).data;
    },

    /** Into a folder, or to the root with null. */
    async move(codeId: number, folderId: number | null): Promise<QrCode> {
      return (await send(() => raw.PATCH(QR_CODE, { ...id(codeId), body: { folderId } }))).data;
    },

    async delete(codeId: number): Promise<Done> {
      return (await send(() => raw.DELETE(QR_CODE, id(codeId)))).data;
    },

    /** The code rendered by the server: PNG (default) or SVG, 64 to 2048 pixels. */
    async image(codeId: number, image: ImageOptions = {}): Promise<Uint8Array> {
      const { data } = await send(() =>
        raw.GET(QR_CODE_IMAGE, { params: { path: { id: codeId }, query: image }, parseAs: 'arrayBuffer' }),
      );
      return new Uint8Array(data);
    },
  };

  const bulk = {
    /** Many codes in one call; `created` lists them, `skipped` what did not fit (allOrNothing: false). */
    async create(input: BulkCreateInput): Promise<BulkCreateResult> {
      return (await send(() => raw.POST(QR_CODES_BULK, { body: input }))).data;
    },
  };

  const folders = {
    async list(): Promise<Folder[]> {
      return (await send(() => raw.GET(FOLDERS))).data;
    },
    async create(folder: NewFolder): Promise<Folder> {
      return (await send(() => raw.POST(FOLDERS, { body: folder }))).data;
    },
    /** Its codes move to the root. */
    async delete(folderId: number): Promise<Done> {
      return (await send(() => raw.DELETE(FOLDER, id(folderId)))).data;
    },
  };

  const analytics = {
    /** Every code's scans, totals, last scan (`days`: only the last days). */
    async summary(query: AnalyticsSummaryQuery = {}): Promise<AnalyticsSummary> {
      return (await send(() => raw.GET(ANALYTICS_SUMMARY, { params: { query } }))).data;
    },
    /** One code's scans: totals, devices, places, the latest scans (`page` pages them). */
    async code(codeId: number, query: CodeAnalyticsQuery = {}): Promise<CodeAnalytics> {
      return (await send(() => raw.GET(ANALYTICS_CODE, { params: { path: { id: codeId }, query } }))).data;
    },
    /** The report as a file: CSV, XLSX, PDF or JSON. */
    async export(query: ExportQuery): Promise<ExportFile> {
      const { data, response } = await send(() =>
        raw.GET(ANALYTICS_EXPORT, { params: { query }, parseAs: 'arrayBuffer' }),
      );
      return {
        bytes: new Uint8Array(data),
        contentType: response.headers.get('Content-Type') ?? 'application/octet-stream',
        filename: filenameOf(response.headers.get('Content-Disposition')),
      };
    },
  };

  return {
    qrCodes,
    bulk,
    folders,
    analytics,
    /** The last `RateLimit-*` headers seen: how many calls are left in this window. */
    get rateLimit(): RateLimitState | undefined {
      return rateLimit;
    },
    /** openapi-fetch's client over every documented path; it answers errors instead of throwing. */
    raw,
  };
}

export type QrCreatorClient = ReturnType<typeof createQrCreatorClient>;
