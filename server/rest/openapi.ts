import { z } from 'zod';
import type { AnyRestRoute } from './rest-kit.js';

/**
 * The OpenAPI 3.1 document of the REST paths, made from the route table itself (each route's method, path,
 * summary, access, and the zod schemas of its params, query and body through zod's own JSON Schema output):
 * the document cannot list a path the server does not serve, or miss one it does.
 */

type JsonSchema = Record<string, unknown>;

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const out = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** Path and query parameters from an object schema's properties. */
function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const json = jsonSchemaOf(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
  }));
}

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['message', 'code'],
  properties: {
    message: { type: 'string', description: 'What went wrong, naming the field at fault.' },
    code: { type: 'string', examples: ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT'] },
    issues: {
      type: 'array',
      items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
    },
  },
  additionalProperties: true,
  examples: [
    {
      message: 'Name is required',
      code: 'BAD_REQUEST',
      issues: [{ path: 'name', message: 'Name is required' }],
    },
  ],
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function tagOf(path: string): string {
  const [, , first, second] = path.split('/');
  if (first === 'user' || first === 'upload' || first === 'email')
    return second === 'tokens' ? 'tokens' : 'account';
  return first ?? 'api';
}

function operationOf(route: AnyRestRoute) {
  const security =
    route.access === 'public'
      ? []
      : route.tokens === false
        ? [{ session: [] }]
        : [{ session: [] }, { bearer: [] }];
  const responses: Record<string, unknown> = {
    [String(route.status ?? 200)]: {
      description: route.summary,
      content: { 'application/json': { schema: {} } },
    },
    '400': errorResponse('Invalid input: the message names the field.'),
  };
  if (route.access !== 'public')
    responses['401'] = errorResponse('Not signed in (no session and no valid token).');
  if (route.access === 'admin' || route.tokens === false || route.method !== 'GET') {
    responses['403'] = errorResponse(
      'Not allowed: not an admin, a read-only token, or a path tokens may not call.',
    );
  }
  if (route.path.includes(':'))
    responses['404'] = errorResponse("No such object for this caller (another user's is 404 too).");
  return {
    summary: route.summary,
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[/:-](\w)/g, (_, c: string) => c.toUpperCase())}`,
    tags: [tagOf(route.path)],
    security,
    parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchemaOf(route.body) } },
          },
        }
      : route.multipart
        ? {
            requestBody: {
              required: true,
              content: {
                'multipart/form-data': {
                  schema: {
                    type: 'object',
                    required: [route.multipart.field],
                    properties: { [route.multipart.field]: { type: 'string', format: 'binary' } },
                  },
                },
              },
            },
          }
        : {}),
    responses,
  };
}

export function openApiDocument(routes: readonly AnyRestRoute[], publicUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'QR Creator API',
      version: '1',
      description:
        'The documented REST paths of QR Creator. Sign in with the session cookie of POST /api/login, or send a personal API token as `Authorization: Bearer <token>` (Settings → Security → API tokens). Errors are `{ message, code, issues? }`.',
    },
    servers: [{ url: publicUrl }],
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'qr_session' },
        bearer: { type: 'http', scheme: 'bearer', description: 'A personal API token (qrc_…).' },
      },
      schemas: { Error: errorSchema },
    },
    paths,
  };
}
