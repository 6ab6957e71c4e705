import {
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TOLERANCE_SECONDS,
  webhookEventLabels,
  webhookEventTypes,
  webhookPayloadSchemaOf,
} from '../../src/webhooks/webhook.schema.js';
import { z } from 'zod';
import {
  adminDeleteAnswer,
  adminUserChangeSchema,
  adminUserSchema,
  adminWorkspaceChangeSchema,
  auditEntrySchema,
  auditPageSchema,
  billingStatusSchema,
  checkoutAnswer,
  deletionImpactSchema,
  instanceSettingsSchema,
  mailLogEntrySchema,
  mailLogSchema,
  mailQueueSchema,
  queuedMailSchema,
  stripeWebhookAnswer,
  systemStatsSchema,
  upgradeRequestAnswer,
  upgradeRequestSchema,
} from '../../src/admin/admin.schema.js';
import {
  dailyCountSchema,
  deviceCountSchema,
  hourlyCountSchema,
  locationCountSchema,
  performanceRowSchema,
  userSummarySchema,
} from '../../src/analytics/analytics.schema.js';
import { errorAnswer, messageAnswer, successAnswer, successMessageAnswer } from '../../src/api/answers.js';
import { errorCodes } from '../../src/api/error-codes.js';
import { closedSchema } from './closed-schema.js';
import {
  activeSessionSchema,
  mailCheckResultSchema,
  preferencesAnswer,
  profilePictureAnswer,
  recoveryCodesSchema,
  signedOutOthersAnswer,
  twoFactorEnrolmentSchema,
  twoFactorStatusSchema,
} from '../../src/auth/account.schema.js';
import {
  apiTokenSchema,
  createdTokenSchema,
  TOKEN_RATE_PER_MINUTE,
} from '../../src/auth/api-token.schema.js';
import {
  linkRequiredSchema,
  logoutAnswerSchema,
  publicConfigSchema,
  ssoLinkSchema,
  twoFactorRequiredSchema,
  userSchema,
  verificationRequiredSchema,
} from '../../src/auth/auth.schema.js';
import { bulkCreateAnswer, bulkParseAnswer } from '../../src/qr/bulk.js';
import { codeImportSchema, importPreviewSchema, importRowsAnswer } from '../../src/imports/import.schema.js';
import { destinationIssueSchema } from '../../src/qr/destination-check.schema.js';
import { customizationSchema } from '../../src/qr/customization.js';
import { qrVersionSchema, versionChangeSchema } from '../../src/qr/history.js';
import {
  folderSchema,
  qrCodeSchema,
  qrLimitReachedAnswer,
  qrScanAnswer,
  uploadAnswer,
} from '../../src/qr/qr.schema.js';
import { scanOutcomeSchema, scanOutcomesSchema } from '../../src/qr/scan-outcome.js';
import {
  redirectRuleSchema,
  ruleConditionSchema,
  smartRedirectSchema,
  utmSchema,
} from '../../src/qr/smart-redirect.js';
import {
  activityPageSchema,
  activitySchema,
  adminWorkspaceSchema,
  invitationSchema,
  memberSchema,
  planSchema,
  workspaceSchema,
} from '../../src/workspaces/workspace.schema.js';
import {
  qrCodeAnalyticsWithOutcomesSchema,
  scanHistoryRowWithOutcomeSchema,
} from '../features/analytics/scan-outcomes.js';
import { bulkRepeatsAnswer } from '../features/qr/bulk-repeats.js';
import { examples } from './examples.js';
import { operationIds, operationKey } from './operation-ids.js';
import { takesIdempotencyKey, type AnyRestRoute, type RouteTable } from './rest-kit.js';

/**
 * The OpenAPI 3.1 document of the REST paths, made from the route table itself (each route's method, path,
 * summary, access, and the zod schemas of its params, query and body through zod's own JSON Schema output):
 * the document cannot list a path the server does not serve, or miss one it does. Written for client
 * generators: answers reference named component schemas, every operation has a stable identifier, an
 * example, and the headers and statuses the server really sends.
 */

type JsonSchema = Record<string, unknown>;

/**
 * The answer objects a generated client should know by name (`components.schemas`), referenced wherever
 * an answer holds them. Answers only: a request body is written out in full, as the server checks it.
 */
const namedSchemas: readonly (readonly [z.ZodType, string])[] = [
  [errorAnswer, 'Error'],
  [qrLimitReachedAnswer, 'LimitReached'],
  [successAnswer, 'Success'],
  [successMessageAnswer, 'SuccessMessage'],
  [messageAnswer, 'Message'],
  [qrCodeSchema, 'QrCode'],
  [customizationSchema, 'Customization'],
  [smartRedirectSchema, 'SmartRedirect'],
  [redirectRuleSchema, 'RedirectRule'],
  [ruleConditionSchema, 'RuleCondition'],
  [utmSchema, 'Utm'],
  [qrScanAnswer, 'TestScan'],
  [qrVersionSchema, 'QrCodeVersion'],
  [versionChangeSchema, 'QrCodeVersionChange'],
  [bulkCreateAnswer, 'BulkCreateResult'],
  [importPreviewSchema, 'LinkImport'],
  [importRowsAnswer, 'LinkImportRowsResult'],
  [codeImportSchema, 'CodeImport'],
  [destinationIssueSchema, 'DestinationIssue'],
  [bulkParseAnswer, 'BulkParseResult'],
  [bulkRepeatsAnswer, 'BulkRepeats'],
  [folderSchema, 'Folder'],
  [uploadAnswer, 'Upload'],
  [userSummarySchema, 'AnalyticsSummary'],
  [qrCodeAnalyticsWithOutcomesSchema, 'QrCodeAnalytics'],
  [scanHistoryRowWithOutcomeSchema, 'Scan'],
  [scanOutcomeSchema, 'ScanOutcome'],
  [scanOutcomesSchema, 'ScanOutcomes'],
  [dailyCountSchema, 'DailyCount'],
  [deviceCountSchema, 'DeviceCount'],
  [hourlyCountSchema, 'HourlyCount'],
  [locationCountSchema, 'LocationCount'],
  [performanceRowSchema, 'PerformanceRow'],
  [userSchema, 'User'],
  [twoFactorRequiredSchema, 'TwoFactorRequired'],
  [linkRequiredSchema, 'LinkRequired'],
  [verificationRequiredSchema, 'VerificationRequired'],
  [ssoLinkSchema, 'SsoLink'],
  [logoutAnswerSchema, 'SignedOut'],
  [profilePictureAnswer, 'ProfilePicture'],
  [signedOutOthersAnswer, 'SessionsSignedOut'],
  [twoFactorEnrolmentSchema, 'TwoFactorEnrolment'],
  [recoveryCodesSchema, 'RecoveryCodes'],
  [publicConfigSchema, 'PublicConfig'],
  [preferencesAnswer, 'Preferences'],
  [activeSessionSchema, 'Session'],
  [twoFactorStatusSchema, 'TwoFactorStatus'],
  [mailCheckResultSchema, 'MailCheckResult'],
  [apiTokenSchema, 'ApiToken'],
  [createdTokenSchema, 'CreatedApiToken'],
  [workspaceSchema, 'Workspace'],
  [planSchema, 'Plan'],
  [memberSchema, 'Member'],
  [invitationSchema, 'Invitation'],
  [activitySchema, 'Activity'],
  [activityPageSchema, 'ActivityPage'],
  [billingStatusSchema, 'BillingStatus'],
  [checkoutAnswer, 'CheckoutSession'],
  [stripeWebhookAnswer, 'StripeEventReceived'],
  [upgradeRequestSchema, 'UpgradeRequest'],
  [upgradeRequestAnswer, 'UpgradeRequestResult'],
  [adminUserSchema, 'AdminUser'],
  [adminUserChangeSchema, 'AdminUserChange'],
  [deletionImpactSchema, 'DeletionImpact'],
  [adminDeleteAnswer, 'AdminUserDeleted'],
  [adminWorkspaceSchema, 'AdminWorkspace'],
  [adminWorkspaceChangeSchema, 'AdminWorkspaceChange'],
  [systemStatsSchema, 'SystemStats'],
  [instanceSettingsSchema, 'InstanceSettings'],
  [auditEntrySchema, 'AuditEntry'],
  [auditPageSchema, 'AuditPage'],
  [mailLogEntrySchema, 'MailLogEntry'],
  [mailLogSchema, 'MailLog'],
  [queuedMailSchema, 'QueuedMail'],
  [mailQueueSchema, 'MailQueue'],
];
const componentNames: ReadonlyMap<z.ZodType, string> = new Map(namedSchemas);
const namedIds = new Set(componentNames.values());

/**
 * zod's metadata (descriptions, examples, formats from `.meta()`) plus, for a named answer schema, the
 * `id` that makes zod write it once under `$defs` and reference it everywhere else.
 */
class ComponentRegistry extends z.core.$ZodRegistry<z.core.GlobalMeta> {
  override get<S extends z.core.$ZodType>(schema: S) {
    const meta = z.globalRegistry.get(schema);
    const id = componentNames.get(schema as unknown as z.ZodType);
    return id ? { ...meta, id } : meta;
  }
}
const components = new ComponentRegistry();

const COMPONENT = '#/components/schemas/';

/** Points zod's `#/$defs/Name` at the document's `#/components/schemas/Name`. */
function pointAtComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pointAtComponents);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) =>
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')
        ? [key, COMPONENT + inner.slice('#/$defs/'.length)]
        : [key, pointAtComponents(inner)],
    ),
  );
}

/**
 * A zod schema as JSON Schema. An answer (`output`) references the named schemas it holds and adds them
 * to `schemas`; an input is written out in full.
 */
function jsonSchemaOf(
  schema: z.ZodType,
  io: 'input' | 'output',
  schemas: Record<string, JsonSchema>,
): JsonSchema {
  const out = z.toJSONSchema(schema, {
    io,
    metadata: io === 'output' ? components : z.globalRegistry,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    // A whole number's implied bounds (±2^53 − 1) say nothing to a reader.
    override: ({ jsonSchema }) => {
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    },
  }) as JsonSchema;
  delete out.$schema;
  const defs = (out.$defs ?? {}) as Record<string, JsonSchema>;
  delete out.$defs;
  for (const [name, def] of Object.entries(defs)) {
    // Only named schemas may be shared: anything else zod pulled out (a cycle) needs a name first.
    if (!namedIds.has(name)) {
      throw new Error(`openapi: zod extracted an unnamed schema "${name}"; add it to namedSchemas`);
    }
    schemas[name] ??= pointAtComponents(def) as JsonSchema;
  }
  return pointAtComponents(out) as JsonSchema;
}

/**
 * The JSON Schema of a route's request body: the one place the document reads `route.body`, so the rules
 * it publishes are the ones the server applies (the strict copy /api/v1 checks, once it has one).
 */
export function requestSchemaOf(
  route: AnyRestRoute,
  schemas: Record<string, JsonSchema>,
): JsonSchema | undefined {
  // The closed copy the /api/v1 paths check (closed-schema.ts): unknown fields are refused there.
  return route.body ? jsonSchemaOf(closedSchema(route.body), 'input', schemas) : undefined;
}

/** Path and query parameters from an object schema's properties. */
function parametersOf(
  schema: z.ZodType | undefined,
  where: 'path' | 'query',
  schemas: Record<string, JsonSchema>,
) {
  if (!schema) return [];
  const json = jsonSchemaOf(schema, 'input', schemas);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }));
}

/** `/api/qr-codes/:id` → `/api/v1/qr-codes/{id}`: the document names the versioned paths. */
export function documentPathOf(path: string): string {
  return path.replace(/^\/api\/(v1\/)?/, '/api/v1/').replace(/:(\w+)/g, '{$1}');
}

// ---- Headers ----

const header = (description: string, schema: JsonSchema) => ({ description, schema });
/** `Sun, 06 Jun 2027 00:00:00 GMT` (RFC 9110). */
const HTTP_DATE = '[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT';

/** Every header the server sends or takes on the documented paths, declared once and referenced. */
const headerComponents = {
  'RateLimit-Limit': header(`Requests this API token may make a minute (${TOKEN_RATE_PER_MINUTE}).`, {
    type: 'integer',
    minimum: 0,
  }),
  'RateLimit-Remaining': header('Requests this API token has left in the current minute.', {
    type: 'integer',
    minimum: 0,
  }),
  'RateLimit-Reset': header('Seconds until the current minute ends and the count starts again.', {
    type: 'integer',
    minimum: 0,
  }),
  'Retry-After': header('Seconds to wait before trying again.', { type: 'integer', minimum: 0 }),
  'WWW-Authenticate': header('How to authenticate: `Bearer realm="QR Creator"`.', {
    type: 'string',
    pattern: '^Bearer realm="QR Creator"',
  }),
  'Content-Disposition': header(
    '`attachment` (a download) or `inline` (an image shown as is), with the file\'s name: `filename="…"`, and ' +
      "`filename*=UTF-8''…` when the name is not plain ASCII.",
    { type: 'string', pattern: '^(attachment|inline)\\b' },
  ),
  'X-Total-Count': header('How many items the whole list holds (all pages, after `search` and filters).', {
    type: 'integer',
    minimum: 0,
  }),
  Link: header(
    'RFC 8288 links: on a list, the `first`, `prev`, `next` and `last` pages (with the same query); on a ' +
      'deprecated path, `rel="deprecation"` to the deprecation policy.',
    { type: 'string', pattern: '^<[^>]*>' },
  ),
  'Idempotent-Replayed': header(
    '`true`: this is the stored answer of an earlier request with the same `Idempotency-Key`; nothing was done again.',
    { type: 'string', enum: ['true'] },
  ),
  Deprecation: header(
    'The path is deprecated, since this time: `@` and a Unix time (RFC 9745), such as `@1796083200`.',
    { type: 'string', pattern: `^(@\\d+|${HTTP_DATE})$` },
  ),
  Sunset: header(
    'The date the deprecated path stops answering (RFC 8594, an HTTP date), at least six months after Deprecation.',
    { type: 'string', pattern: `^${HTTP_DATE}$` },
  ),
};
type HeaderName = keyof typeof headerComponents;

const headerRefs = (...names: HeaderName[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const RATE_LIMIT_HEADERS: HeaderName[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: a second request with the same key (from the same token or user, within 24 hours) ' +
    'answers the first answer again (`Idempotent-Replayed: true`) instead of doing it twice. 1–255 printable ' +
    'ASCII characters, such as a UUID. The same key with another body is a 422, while the first is still running a 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
};

// ---- Answers ----

const ERROR = { $ref: `${COMPONENT}Error` };
const errorResponse = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  ...(Object.keys(headers).length ? { headers } : {}),
  content: { 'application/json': { schema: ERROR } },
});

const integer = { type: 'integer', minimum: 0 };
const countOrNull = { type: ['integer', 'null'], minimum: 0 };
const percent = { type: 'number', minimum: 0, maximum: 100, description: 'Share of the scans, one decimal.' };
const closed = (properties: Record<string, JsonSchema>, description?: string): JsonSchema => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

/** GET /api/analytics/export?format=json (server/features/analytics/report-json.ts). */
const reportJson: JsonSchema = {
  ...closed({
    report: { type: 'string', description: 'The report title.' },
    type: { type: 'string', enum: ['full', 'activity', 'performance'] },
    from: { type: 'string', format: 'date', description: 'The first local date, inclusive.' },
    to: { type: 'string', format: 'date', description: 'The last local date, inclusive.' },
    tz: { type: 'string', description: 'The IANA time zone the dates and hours are local to.' },
    excludeBots: { type: 'boolean' },
    generatedAt: { type: 'string', format: 'date-time' },
    summary: closed({
      totalScans: integer,
      uniqueScanners: countOrNull,
      uniqueScannersPartial: { type: 'boolean' },
      activeQrCodes: integer,
      days: integer,
      averagePerDay: { type: 'number', minimum: 0 },
      deviceCategories: integer,
    }),
    daily: {
      type: 'array',
      items: { $ref: `${COMPONENT}DailyCount` },
      description: 'Every local day, oldest first.',
    },
    devices: {
      type: 'array',
      items: closed({ device: { type: 'string' }, count: integer, percent }),
    },
    locations: {
      type: 'array',
      items: closed({ location: { type: 'string' }, count: integer, percent }),
    },
    hourly: { type: 'array', items: { $ref: `${COMPONENT}HourlyCount` } },
    performance: {
      type: 'array',
      description: 'Most scanned first.',
      items: closed({
        qrCodeId: integer,
        name: { type: 'string' },
        type: { type: 'string' },
        isDynamic: { type: 'boolean' },
        created: { type: 'string', format: 'date-time' },
        count: integer,
        uniqueScanners: countOrNull,
        percent,
        lastScanAt: { type: ['string', 'null'], format: 'date-time' },
      }),
    },
  }),
  description: 'The report as data (format=json): its figures, and for type=activity every scan.',
};
(reportJson.properties as Record<string, JsonSchema>).scans = {
  type: 'array',
  description: 'type=activity only: every scan of the range, newest first.',
  items: closed({
    id: integer,
    timestamp: { type: 'string', format: 'date-time' },
    localTime: { type: 'string', description: "Wall time in the report's zone, YYYY-MM-DD HH:mm:ss." },
    qrCodeId: integer,
    qrCodeName: { type: 'string' },
    device: { type: 'string', enum: ['Mobile', 'Tablet', 'Desktop', 'Bot', 'Unknown'] },
    location: { type: ['string', 'null'] },
    referrer: { type: ['string', 'null'] },
    ipAddress: { type: ['string', 'null'], description: 'Masked (203.0.*.*).' },
  }),
};

/**
 * Where a file answer has a schema of its own (the JSON report): the document says what it holds rather
 * than "binary".
 */
const fileSchemas: Record<string, Record<string, JsonSchema>> = {
  'GET /api/analytics/export': { 'application/json': { $ref: `${COMPONENT}AnalyticsReport` } },
};

/** The success answer: the declared JSON, or the declared file types. */
function successOf(route: AnyRestRoute, operationId: string, schemas: Record<string, JsonSchema>) {
  const headers: HeaderName[] = [];
  if (route.tokens) headers.push(...RATE_LIMIT_HEADERS);
  if (route.paged) headers.push('X-Total-Count', 'Link');
  if (takesIdempotencyKey(route)) headers.push('Idempotent-Replayed');
  if (route.deprecated) headers.push('Deprecation', 'Sunset', 'Link');
  if (route.produces) headers.push('Content-Disposition');
  const example = examples[operationId]?.answer;
  const content = route.answer
    ? {
        'application/json': {
          schema: jsonSchemaOf(route.answer, 'output', schemas),
          ...(example !== undefined ? { example } : {}),
        },
      }
    : Object.fromEntries(
        Object.entries(route.produces ?? {}).map(([type, description]) => [
          type,
          {
            schema: fileSchemas[operationKey(route)]?.[type] ?? {
              type: 'string',
              format: 'binary',
              description,
            },
          },
        ]),
      );
  return {
    description: route.summary,
    ...(headers.length ? { headers: headerRefs(...new Set(headers)) } : {}),
    // 204 No Content: no body to describe.
    ...(Object.keys(content).length > 0 ? { content } : {}),
  };
}

/** The workspace a call acts on: documented on every path that declares the role it needs. */
function workspaceHeader(role: string) {
  return {
    name: 'X-Workspace',
    in: 'header',
    required: false,
    description:
      `The id of the workspace to act on (GET /api/v1/workspaces lists them); the caller needs the ${role} role in it. ` +
      "Absent: an API token's own workspace, else the one last switched to, else the caller's own.",
    schema: { type: 'integer', minimum: 1 },
  };
}

const takesBody = (route: AnyRestRoute) => Boolean(route.body ?? route.multipart ?? route.rawBody);

function responsesOf(route: AnyRestRoute, operationId: string, schemas: Record<string, JsonSchema>) {
  // Every answer to a token's call says how much of its minute is left.
  const rate = route.tokens ? headerRefs(...RATE_LIMIT_HEADERS) : {};
  const responses: Record<string, unknown> = {
    [String(route.status ?? 200)]: successOf(route, operationId, schemas),
    '400': errorResponse('Invalid input: `issues` names each field at fault (VALIDATION_FAILED).', rate),
  };
  if (route.access !== 'public') {
    responses['401'] = errorResponse(
      'Not signed in: no session and no valid token (NOT_SIGNED_IN, TOKEN_INVALID).',
      headerRefs('WWW-Authenticate'),
    );
  }
  if (route.access === 'admin' || !route.tokens || route.method !== 'GET' || route.tokens === 'write') {
    responses['403'] = errorResponse(
      'Not allowed: not an admin, a read-only token, or a path tokens may not call (ADMIN_REQUIRED, TOKEN_READ_ONLY, TOKEN_SCOPE, TOKEN_NOT_ACCEPTED).',
      rate,
    );
  }
  if (route.role) {
    responses['403'] = errorResponse(
      `Not allowed: the caller's role in the workspace is below ${route.role}, a read-only token, or a token of another workspace (ROLE_REQUIRED, TOKEN_READ_ONLY, TOKEN_SCOPE).`,
      rate,
    );
  }
  if (route.role && !route.path.includes(':'))
    responses['404'] = errorResponse(
      "The workspace asked for (X-Workspace) is not one of the caller's.",
      rate,
    );
  if (route.path.includes(':'))
    responses['404'] = errorResponse("No such object for this caller (another user's is 404 too).", rate);
  if (takesIdempotencyKey(route)) {
    responses['409'] = errorResponse(
      'A request with this Idempotency-Key is still running (IDEMPOTENCY_KEY_IN_USE): retry after it ends.',
      rate,
    );
    responses['422'] = errorResponse(
      'This Idempotency-Key was used with another method, path or body in the last 24 hours (IDEMPOTENCY_KEY_REUSED).',
      rate,
    );
  }
  if (takesBody(route)) {
    responses['413'] = errorResponse(
      'The body or file is larger than the path takes (PAYLOAD_TOO_LARGE).',
      rate,
    );
    responses['415'] = errorResponse(
      `The body is not ${route.multipart ? 'multipart/form-data' : 'JSON'} (UNSUPPORTED_MEDIA_TYPE).`,
      rate,
    );
  }
  if (route.access !== 'public' && route.tokens) {
    responses['429'] = errorResponse(
      'Too many requests for this API token (RATE_LIMITED): wait Retry-After seconds.',
      { ...headerRefs('Retry-After'), ...rate },
    );
  }
  for (const other of route.otherAnswers ?? []) {
    const schema = jsonSchemaOf(other.schema, 'output', schemas);
    const status = String(other.status);
    // A status the route shares with every route (403, 409) keeps the plain error body as the other choice.
    const shared = responses[status] as { description: string; headers?: unknown } | undefined;
    const own = schema.$ref === ERROR.$ref;
    responses[status] = {
      description: shared ? `${other.description} Otherwise: ${shared.description}` : other.description,
      headers: {
        ...(shared?.headers as object | undefined),
        ...(status === '429' ? headerRefs('Retry-After') : {}),
        ...rate,
      },
      content: {
        'application/json': { schema: shared && !own ? { anyOf: [schema, ERROR] } : schema },
      },
    };
  }
  for (const value of Object.values(responses)) {
    const response = value as { headers?: object };
    if (response.headers && Object.keys(response.headers).length === 0) delete response.headers;
  }
  return responses;
}

function operationOf(route: AnyRestRoute, tag: string, schemas: Record<string, JsonSchema>) {
  const operationId = operationIds[operationKey(route)];
  if (!operationId)
    throw new Error(`openapi: no operationId for ${operationKey(route)} (server/rest/operation-ids.ts)`);
  const security =
    route.access === 'public' ? [] : !route.tokens ? [{ session: [] }] : [{ session: [] }, { bearer: [] }];
  const body = requestSchemaOf(route, schemas);
  const bodyExample = examples[operationId]?.body;
  return {
    summary: route.summary,
    operationId,
    tags: [tag],
    ...(route.deprecated ? { deprecated: true } : {}),
    security,
    parameters: [
      ...parametersOf(route.params, 'path', schemas),
      ...parametersOf(route.query, 'query', schemas),
      ...(route.role ? [workspaceHeader(route.role)] : []),
      ...(takesIdempotencyKey(route) ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    ],
    ...(body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: body,
                ...(bodyExample !== undefined ? { example: bodyExample } : {}),
              },
            },
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
    responses: responsesOf(route, operationId, schemas),
  };
}

// ---- The description ----

/** The error-code catalogue as a Markdown table: the document's description and docs/api.md list it. */
export function errorCodeTable(): string {
  const rows = Object.entries(errorCodes).map(
    ([code, { status, description }]) => `| \`${code}\` | ${status} | ${description.replace(/\|/g, '\\|')} |`,
  );
  return ['| code | status | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

const descriptionFor = (
  publicUrl: string,
) => `The documented REST paths of QR Creator: everything the app does, for scripts.

## Signing in
- **API token** (for scripts): create one in Settings → Security → API tokens, or on the server with
  \`node dist/server.mjs create-token --user <name> --name <label> --scope read|write|admin\`, and send it as
  \`Authorization: Bearer qrc_…\`. A read token only reads; a write token also changes; admin paths need a
  token made with the admin scope by an admin. Tokens never sign in or change the account itself (e-mail,
  password, two-factor, sessions, tokens, profile, picture): each path lists the schemes it takes. A 401
  carries \`WWW-Authenticate: Bearer realm="QR Creator"\`.
- **Session cookie** (the app's own): \`POST /api/v1/login\` sets it. Cookie calls that change something must
  come from the app's own origin.

\`\`\`sh
curl -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
  -H "Idempotency-Key: $(uuidgen)" \\
  -d '{"name":"Menu","type":"url","content":"https://example.com/menu","isDynamic":true}' \\
  ${publicUrl}/api/v1/qr-codes
\`\`\`

## Versions and deprecation
The paths here are version 1, under \`/api/v1\`. The same paths without \`/v1\` (\`/api/qr-codes\`) answer
the same, and will keep doing so, but leniently: they ignore body fields they do not know, where \`/api/v1\`
refuses them (400 \`VALIDATION_FAILED\` naming each). Within a version, fields and paths are only added,
never removed or renamed, and error codes are never reused. A path on its way out is marked \`deprecated\`
here and every answer it gives carries \`Deprecation\` (since when), \`Sunset\` (the date it stops) and
\`Link: <…>; rel="deprecation"\`; it keeps answering at least six months after the \`Deprecation\` date.

## Safe retries
Every POST an API token may call takes an \`Idempotency-Key\` header (1–255 printable ASCII characters, such
as a UUID). A retry
with the same key within 24 hours (same token or user, method, path and body) does nothing again and
answers the first answer, with \`Idempotent-Replayed: true\`. The same key with another body is a 422
\`IDEMPOTENCY_KEY_REUSED\`; while the first request still runs, a 409 \`IDEMPOTENCY_KEY_IN_USE\`.

## Lists
A list answers one page as a JSON array: \`page\` (from 1) and \`pageSize\` (at most 500, 100 by default),
\`search\`, the filters its parameters name, \`sort\` and \`order\` (\`asc\` or \`desc\`). \`X-Total-Count\`
gives the size of the whole list, and \`Link\` the \`first\`, \`prev\`, \`next\` and \`last\` pages.

## Errors
Every refusal answers \`{ message, code, issues? }\` plus the fields its path documents: \`message\` is for
people and names the field at fault; \`code\` is for programs and never changes; \`issues\` lists each invalid
field with its path. Another user's object is a 404, exactly like a missing one.

${errorCodeTable()}

## Rate limits
Each API token may make ${TOKEN_RATE_PER_MINUTE} requests a minute, shared by every instance; every answer to
a token's call carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`, and a 429 carries
\`Retry-After\` (seconds).`;

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
  const schemas: Record<string, JsonSchema> = { AnalyticsReport: reportJson };
  jsonSchemaOf(errorAnswer, 'output', schemas);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { tag, routes } of tables) {
    for (const route of routes) {
      const path = documentPathOf(route.path);
      paths[path] ??= {};
      paths[path][route.method.toLowerCase()] = operationOf(route, tag, schemas);
    }
  }
  const webhooks = webhooksOf(schemas);
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
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      headers: headerComponents,
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY },
    },
    paths,
    webhooks,
  };
}

/**
 * What the app POSTs to a workspace's webhooks (server/features/webhooks), one entry per event type: the
 * signed headers and the JSON body. docs/integrations.md shows how to verify the signature.
 */
function webhooksOf(schemas: Record<string, JsonSchema>) {
  const header = (description: string) => ({ required: true, schema: { type: 'string' }, description });
  return Object.fromEntries(
    [...webhookEventTypes, 'ping' as const].map((type) => [
      type,
      {
        post: {
          summary: type === 'ping' ? 'A test event ("Send a test")' : webhookEventLabels[type],
          operationId: `webhook_${type.replace('.', '_')}`,
          parameters: [
            {
              name: WEBHOOK_SIGNATURE_HEADER,
              in: 'header',
              ...header(
                `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the webhook's secret>. Refuse a t more than ${WEBHOOK_TOLERANCE_SECONDS} seconds from your clock.`,
              ),
            },
            {
              name: WEBHOOK_DELIVERY_HEADER,
              in: 'header',
              ...header('The delivery id (the same on each retry).'),
            },
            {
              name: WEBHOOK_EVENT_HEADER,
              in: 'header',
              ...header('The event types in the body, comma-separated.'),
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: jsonSchemaOf(webhookPayloadSchemaOf(type), 'output', schemas) },
            },
          },
          responses: {
            '2XX': {
              description: 'Received. Any other answer, or none within 10 seconds, is retried for 24 hours.',
            },
          },
        },
      },
    ]),
  );
}
