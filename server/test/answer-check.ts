import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from '../rest/openapi.js';
import { restTables } from '../rest/rest-plugin.js';

/**
 * Every answer a test gets from an /api path, checked against the OpenAPI document the server publishes:
 * a success against its route's declared answer (or its declared file types), any error against the
 * error body. A test app collects what does not match and fails its test when it closes, so the document
 * cannot drift from what the server answers.
 */

interface MediaType {
  schema?: Record<string, unknown>;
}
interface Operation {
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

const document = openApiDocument(restTables, 'http://localhost');
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
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

/** Why an answer does not match the document, or null when it does. */
export function answerProblem(
  method: string,
  routeUrl: string | undefined,
  status: number,
  contentType: string | undefined,
  body: string,
): string | null {
  if (method === 'HEAD' || status === 304) return null;
  const path = routeUrl?.replace(/:(\w+)/g, '{$1}');
  const operation = path
    ? (document.paths[path]?.[method.toLowerCase()] as Operation | undefined)
    : undefined;
  // A page of ours under /api that is no API path (the reference at /api/docs and its script).
  if (routeUrl && !operation && !document.paths[path!]) return null;
  const type = mediaTypeOf(contentType);
  const declared = operation?.responses[String(status)];
  if (status < 400 && !declared) return `answered ${status}, which the document does not declare`;
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
  const pointer = declared
    ? `/paths/${escape(path!)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`
    : ERROR_POINTER;
  const validate = validatorOf(pointer);
  if (validate(json)) return null;
  const errors = (validate.errors ?? [])
    .slice(0, 3)
    .map(
      (e) =>
        `${e.instancePath || '(body)'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
    )
    .join('; ');
  return `answered ${status} with a body the document does not allow: ${errors} — ${body.slice(0, 200)}`;
}

/** Collects every /api answer of `app` that the document does not allow; call before `ready()`. */
export function checkAnswers(app: FastifyInstance): string[] {
  const problems: string[] = [];
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/api/')) return payload;
    const body =
      typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
    const problem = answerProblem(
      request.method,
      request.routeOptions.url,
      reply.statusCode,
      reply.getHeader('content-type') as string | undefined,
      body,
    );
    if (problem) problems.push(`${request.method} ${request.url.split('?')[0]}: ${problem}`);
    return payload;
  });
  return problems;
}
