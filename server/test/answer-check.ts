import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { PassThrough, Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { documentPathOf, openApiDocument } from '../rest/openapi.js';
import { restTables } from '../rest/rest-plugin.js';

/**
 * Every answer a test gets from an /api path, checked against the OpenAPI document the server publishes:
 * a success against its route's declared answer (or its declared file types), any error against the
 * error body, and every header the document declares for that status against its schema. A test app
 * collects what does not match and fails its test when it closes, so the document cannot drift from
 * what the server answers. A request to `/api/…` or `/api/v1/…` is checked against the same v1 path.
 */

/**
 * Promises of the document the server does not keep yet (the API work of issue 34 lands in parts): each
 * flag, once true, makes a missing header or an off-catalogue code a failure. Flip them as the server
 * learns to send them.
 */
export const REQUIRE = {
  /** `code` is one of src/api/error-codes.ts (today some answers still carry tRPC's own names). */
  catalogueCodes: true,
  /** `WWW-Authenticate: Bearer realm="QR Creator"` on every 401. */
  wwwAuthenticate: true,
  /** `X-Total-Count` and `Link` on the 200 of every paged list. */
  pagingHeaders: true,
  /** `Retry-After` on every 429. */
  retryAfter: true,
  /** `RateLimit-*` on every answer to a bearer-token call, refusals before parsing included. */
  rateLimitOnEveryTokenAnswer: true,
};

interface MediaType {
  schema?: Record<string, unknown>;
}
interface Response {
  headers?: Record<string, { $ref: string }>;
  content?: Record<string, MediaType>;
}
interface Operation {
  responses: Record<string, Response>;
}

const published = openApiDocument(restTables, 'http://localhost');
// The copy ajv reads: until the server only sends catalogue codes, any string passes as `code`.
const document: typeof published = REQUIRE.catalogueCodes ? published : structuredClone(published);
if (!REQUIRE.catalogueCodes) {
  (document.components.schemas.Error as { properties: Record<string, unknown> }).properties.code = {
    type: 'string',
  };
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The formats the document uses, checked as strictly as a generated client would parse them. */
export function addFormats(ajv: Ajv2020): Ajv2020 {
  return ajv
    .addFormat('date-time', (value: string) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)))
    .addFormat('date', /^\d{4}-\d{2}-\d{2}$/)
    .addFormat('uri', (value: string) => URL.canParse(value))
    .addFormat('email', /^[^\s@]+@[^\s@]+$/)
    .addFormat('binary', true);
}

const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
ajv.addSchema({ ...document, $id: 'openapi' });

const compiled = new Map<string, ValidateFunction>();
function validatorOf(pointer: string): ValidateFunction {
  let validate = compiled.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi#${pointer}` });
    compiled.set(pointer, validate);
  }
  return validate;
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const ERROR_POINTER = '/components/schemas/Error';

function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

const describeErrors = (validate: ValidateFunction) =>
  (validate.errors ?? [])
    .slice(0, 3)
    .map(
      (e) =>
        `${e.instancePath || '(body)'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
    )
    .join('; ');

type HeaderValue = string | string[] | number | undefined;

/** What else an answer is checked with: its headers, and whether it answered an API token's call. */
export interface AnswerContext {
  headers?: Record<string, HeaderValue>;
  tokenCall?: boolean;
}

/** Header values are text: an integer header's is compared as the number it spells. */
function isIntegerHeader(pointer: string): boolean {
  const name = pointer.split('/').pop()!.replace(/~1/g, '/').replace(/~0/g, '~');
  const headers = document.components.headers as Record<string, { schema: { type?: string } }>;
  return headers[name]?.schema.type === 'integer';
}

/** The headers the document declares on `response` that this answer must carry. */
function requiredHeaders(status: number, response: Response, tokenCall: boolean): string[] {
  const declared = Object.keys(response.headers ?? {});
  const required: string[] = [];
  if (status === 401 && REQUIRE.wwwAuthenticate) required.push('WWW-Authenticate');
  if (status === 429 && REQUIRE.retryAfter) required.push('Retry-After');
  if (status < 300 && declared.includes('X-Total-Count') && REQUIRE.pagingHeaders)
    required.push('X-Total-Count', 'Link');
  // A token's call is counted once the token is known: every answer after that says how much is left.
  if (tokenCall && status !== 401 && (status < 400 || REQUIRE.rateLimitOnEveryTokenAnswer))
    required.push(...declared.filter((name) => name.startsWith('RateLimit-')));
  return required;
}

/** Why an answer's headers do not match the response the document declares, or null when they do. */
function headerProblem(
  status: number,
  response: Response,
  { headers = {}, tokenCall = false }: AnswerContext,
): string | null {
  const problems: string[] = [];
  const lower = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  for (const name of requiredHeaders(status, response, tokenCall)) {
    if (lower[name.toLowerCase()] === undefined) problems.push(`no ${name} header`);
  }
  for (const [name, ref] of Object.entries(response.headers ?? {})) {
    const raw = lower[name.toLowerCase()];
    if (raw === undefined) continue;
    const text = Array.isArray(raw) ? raw.join(', ') : String(raw);
    const pointer = ref.$ref.replace(/^#/, '');
    const validate = validatorOf(`${pointer}/schema`);
    const value = isIntegerHeader(pointer) && /^-?\d+$/.test(text) ? Number(text) : text;
    if (!validate(value))
      problems.push(`header ${name}: ${JSON.stringify(text)} ${describeErrors(validate)}`);
  }
  return problems.length ? `answered ${status} with ${problems.join('; ')}` : null;
}

/** The document's operation for a route of the server, by its Fastify path (`/api/…` or `/api/v1/…`). */
function operationOf(method: string, routeUrl: string | undefined) {
  const path = routeUrl ? documentPathOf(routeUrl) : undefined;
  const item = path ? (document.paths[path] as Record<string, Operation> | undefined) : undefined;
  return { path, item, operation: item?.[method.toLowerCase()] };
}

/** Why an answer does not match the document, or null when it does. */
export function answerProblem(
  method: string,
  routeUrl: string | undefined,
  status: number,
  contentType: string | undefined,
  body: string,
  context: AnswerContext = {},
): string | null {
  if (method === 'HEAD' || status === 304) return null;
  const { path, item, operation } = operationOf(method, routeUrl);
  // A page of ours under /api that is no API path (the reference at /api/docs and its script).
  if (routeUrl && !item) return null;
  const type = mediaTypeOf(contentType);
  const declared = operation?.responses[String(status)];
  if (status < 400 && !declared) return `answered ${status}, which the document does not declare`;
  const responsePointer = declared
    ? `/paths/${escape(path!)}/${method.toLowerCase()}/responses/${status}`
    : undefined;
  if (declared && responsePointer) {
    // A cross-site refusal happens before the token is read (app.ts): it has nothing to count yet.
    const crossSite = status === 403 && body.includes('"CROSS_SITE_REFUSED"');
    const problem = headerProblem(status, declared, crossSite ? { ...context, tokenCall: false } : context);
    if (problem) return problem;
  }
  // A declared answer without content (204 No Content): an empty body.
  if (declared && !declared.content)
    return body === '' ? null : `answered ${status} with a body; the document declares none`;
  const content = declared?.content ?? { 'application/json': { schema: { $ref: '#' } } };
  const media = content[type];
  if (!media) {
    return `answered ${status} as ${type || 'no Content-Type'}; the document says ${Object.keys(content).join(', ')}`;
  }
  if (type !== 'application/json' || (media.schema as { format?: string } | undefined)?.format === 'binary') {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return `answered ${status} with a body that is not JSON`;
  }
  const pointer = responsePointer ? `${responsePointer}/content/application~1json/schema` : ERROR_POINTER;
  const validate = validatorOf(pointer);
  if (validate(json)) return null;
  return `answered ${status} with a body the document does not allow: ${describeErrors(validate)} — ${body.slice(0, 200)}`;
}

/** Collects every /api answer of `app` that the document does not allow; call before `ready()`. */
export function checkAnswers(app: FastifyInstance): string[] {
  const problems: string[] = [];
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/api/')) return payload;
    const check = (body: string) => {
      const problem = answerProblem(
        request.method,
        request.routeOptions.url,
        reply.statusCode,
        reply.getHeader('content-type') as string | undefined,
        body,
        {
          headers: reply.getHeaders(),
          tokenCall: /^bearer\s/i.test(request.headers.authorization ?? ''),
        },
      );
      if (problem) problems.push(`${request.method} ${request.url.split('?')[0]}: ${problem}`);
    };
    // A streamed JSON answer (the report) is checked once it has all gone out, through a copy.
    const json = mediaTypeOf(reply.getHeader('content-type') as string | undefined) === 'application/json';
    if (payload instanceof Readable && json) {
      const chunks: Buffer[] = [];
      const copy = new PassThrough();
      copy.on('data', (chunk: Buffer) => chunks.push(chunk));
      copy.on('end', () => check(Buffer.concat(chunks).toString('utf8')));
      payload.on('error', (error) => copy.destroy(error));
      return payload.pipe(copy);
    }
    check(typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '');
    return payload;
  });
  return problems;
}
