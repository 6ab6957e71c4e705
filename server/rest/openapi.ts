import { z } from 'zod';
import { errorAnswer } from '../../src/api/answers.js';
import { TOKEN_RATE_PER_MINUTE } from '../../src/auth/api-token.schema.js';
import type { AnyRestRoute, RouteTable } from './rest-kit.js';

/**
 * The OpenAPI 3.1 document of the REST paths, made from the route table itself (each route's method, path,
 * summary, access, and the zod schemas of its params, query and body through zod's own JSON Schema output):
 * the document cannot list a path the server does not serve, or miss one it does.
 */

type JsonSchema = Record<string, unknown>;

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const out = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    // A whole number's implied bounds (±2^53 − 1) say nothing to a reader.
    override: ({ jsonSchema }) => {
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    },
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

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** The success answer: the declared JSON, or the declared file types. */
function successOf(route: AnyRestRoute) {
  if (route.answer) {
    return {
      description: route.summary,
      content: { 'application/json': { schema: jsonSchemaOf(route.answer, 'output') } },
    };
  }
  return {
    description: route.summary,
    content: Object.fromEntries(
      Object.entries(route.produces ?? {}).map(([type, description]) => [
        type,
        { schema: { type: 'string', format: 'binary', description } },
      ]),
    ),
  };
}

/** The workspace a call acts on: documented on every path that declares the role it needs. */
function workspaceHeader(role: string) {
  return {
    name: 'X-Workspace',
    in: 'header',
    required: false,
    description:
      `The id of the workspace to act on (GET /api/workspaces lists them); the caller needs the ${role} role in it. ` +
      "Absent: an API token's own workspace, else the one last switched to, else the caller's own.",
    schema: { type: 'integer', minimum: 1 },
  };
}

function operationOf(route: AnyRestRoute, tag: string) {
  const security =
    route.access === 'public' ? [] : !route.tokens ? [{ session: [] }] : [{ session: [] }, { bearer: [] }];
  const responses: Record<string, unknown> = {
    [String(route.status ?? 200)]: successOf(route),
    '400': errorResponse('Invalid input: the message names the field.'),
  };
  if (route.access !== 'public')
    responses['401'] = errorResponse('Not signed in (no session and no valid token).');
  if (route.access === 'admin' || !route.tokens || route.method !== 'GET' || route.tokens === 'write') {
    responses['403'] = errorResponse(
      'Not allowed: not an admin, a read-only token, or a path tokens may not call.',
    );
  }
  if (route.role) {
    responses['403'] = errorResponse(
      `Not allowed: the caller's role in the workspace is below ${route.role}, a read-only token, or a token of another workspace.`,
    );
  }
  if (route.role && !route.path.includes(':'))
    responses['404'] = errorResponse("The workspace asked for (X-Workspace) is not one of the caller's.");
  if (route.path.includes(':'))
    responses['404'] = errorResponse("No such object for this caller (another user's is 404 too).");
  if (route.access !== 'public' && route.tokens)
    responses['429'] = errorResponse('Too many requests for this API token: see Retry-After.');
  for (const other of route.otherAnswers ?? []) {
    const schema = jsonSchemaOf(other.schema, 'output');
    const status = String(other.status);
    // An error status the route shares with every route (403) keeps the plain error body as the other choice.
    const shared = responses[status] as { description: string } | undefined;
    responses[status] = {
      description: shared ? `${other.description} Otherwise: ${shared.description}` : other.description,
      content: {
        'application/json': {
          schema: shared ? { anyOf: [schema, { $ref: '#/components/schemas/Error' }] } : schema,
        },
      },
    };
  }
  return {
    summary: route.summary,
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[/:-](\w)/g, (_, c: string) => c.toUpperCase())}`,
    tags: [tag],
    security,
    parameters: [
      ...parametersOf(route.params, 'path'),
      ...parametersOf(route.query, 'query'),
      ...(route.role ? [workspaceHeader(route.role)] : []),
    ],
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

const descriptionFor = (
  publicUrl: string,
) => `The documented REST paths of QR Creator: everything the app does, for scripts.

## Signing in
- **API token** (for scripts): create one in Settings → Security → API tokens and send it as
  \`Authorization: Bearer qrc_…\`. A read token only reads; a write token also changes; admin paths need a
  token made with the admin scope by an admin. Tokens never sign in or change the account itself (e-mail,
  password, two-factor, sessions, tokens, profile, picture): each path lists the schemes it takes.
- **Session cookie** (the app's own): \`POST /api/login\` sets it. Cookie calls that change something must
  come from the app's own origin.

\`\`\`sh
curl -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
  -d '{"name":"Menu","type":"url","content":"https://example.com/menu","isDynamic":true}' \\
  ${publicUrl}/api/qr-codes
\`\`\`

## Errors
Every refusal answers \`{ message, code, issues? }\`: the message names the field at fault, \`issues\` lists
each invalid field. Another user's object is a 404, exactly like a missing one.

## Rate limits
Each API token may make ${TOKEN_RATE_PER_MINUTE} requests a minute; every answer carries \`RateLimit-Limit\`,
\`RateLimit-Remaining\` and \`RateLimit-Reset\`, and a 429 carries \`Retry-After\` (seconds).`;

let cache: { tables: readonly RouteTable[]; publicUrl: string; document: OpenApiDocument } | undefined;

/** The document for the server's public address, built once. */
export function openApiDocument(tables: readonly RouteTable[], publicUrl: string): OpenApiDocument {
  if (cache?.tables !== tables || cache.publicUrl !== publicUrl) {
    cache = { tables, publicUrl, document: buildDocument(tables, publicUrl) };
  }
  return cache.document;
}

type OpenApiDocument = ReturnType<typeof buildDocument>;

function buildDocument(tables: readonly RouteTable[], publicUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { tag, routes } of tables) {
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      paths[path] ??= {};
      paths[path][route.method.toLowerCase()] = operationOf(route, tag);
    }
  }
  return {
    openapi: '3.1.0' as const,
    info: { title: 'QR Creator API', version: '1', description: descriptionFor(publicUrl) },
    servers: [{ url: publicUrl }],
    tags: tables.map(({ tag }) => ({ name: tag })),
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'qr_session' },
        bearer: { type: 'http', scheme: 'bearer', description: 'A personal API token (qrc_…).' },
      },
      schemas: { Error: jsonSchemaOf(errorAnswer, 'output') },
    },
    paths,
  };
}
