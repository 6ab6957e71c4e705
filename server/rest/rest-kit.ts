import { TRPCError } from '@trpc/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { tokenMessages, type TokenScope } from '../../src/auth/api-token.schema.js';
import type { User } from '../../src/auth/auth.schema.js';
import { bearerOf } from '../features/tokens/tokens.service.js';
import { appRouter } from '../trpc/app-router.js';
import { checkAccess, type Access } from '../trpc/access.js';
import { createRestContext, type Context } from '../trpc/context.js';
import type { RuntimeDeps } from '../app-deps.js';
import { appError, parseInput, refuse } from '../errors.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  fingerprintOf,
  IDEMPOTENCY_HEADER,
  idempotencyKeyOf,
  releaseIdempotencyKey,
} from '../features/idempotency/idempotency.js';
import { closedSchema } from './closed-schema.js';
import { securityEvent } from '../security-log.js';
import { createCallerFactory } from '../trpc/init.js';
import { checkRole, resolveWorkspace } from '../trpc/workspace-access.js';
import { ownerActing, type Owner } from '../features/workspaces/owner.js';
import type { WorkspaceRole } from '../../src/workspaces/workspace.schema.js';

/**
 * What every REST route is made of. A feature declares its documented `/api` paths as a table of
 * `defineRoute(...)` entries; `rest-plugin.ts` only collects the tables. Recipe for a new path:
 * schema in `src/` → service → tRPC procedure → one entry here in the feature's `*.rest.ts` → test.
 */

/**
 * Answers a file download: its type, `attachment` under its name, never cached or sniffed (the
 * analytics report, the redirect table).
 */
export function sendAttachment(
  reply: FastifyReply,
  file: { contentType: string; fileName: string; body: unknown },
): FastifyReply {
  return reply
    .header('Content-Type', file.contentType)
    .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .send(file.body);
}

const createCaller = createCallerFactory(appRouter);
/** The tRPC procedures called from inside the server, with the request's context: the same checks as /trpc. */
export type Caller = ReturnType<typeof createCaller>;

export type SignedInContext = Context & { user: User };

type Schema = z.ZodType | undefined;
type Parsed<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;
/** What a handler may return: the JSON its `answer` declares, or the reply it has sent itself. */
type Answer<R extends Schema> = R extends z.ZodType
  ? z.output<R> | FastifyReply | Promise<z.output<R> | FastifyReply>
  : unknown;

/** A documented answer other than the success one: a second success shape, or an error with extra fields. */
export interface OtherAnswer {
  status: number;
  description: string;
  schema: z.ZodType;
}

export interface MultipartFile {
  /** The form field that must carry the one file. */
  field: string;
  maxBytes: number;
  /** The message of the 413 when the file is larger than `maxBytes`. */
  tooLargeMessage: string;
  /** What the file is, in the messages of a missing or unreadable one (default 'image'). */
  what?: string;
}

/** What a handler receives: the checked input, the caller's context, the tRPC twin, and the reply for headers. */
export interface RestCall<A extends Access, P extends Schema, Q extends Schema, B extends Schema> {
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
  /** The one file of a multipart route, or the unparsed body of a `rawBody` route (else empty). */
  file: Buffer;
  /** The name the client gave the multipart route's file ('' when none). */
  fileName: string;
  ctx: A extends 'public' ? Context : SignedInContext;
  /**
   * A route with a `role`: the current workspace's account (what owns the codes), with the person acting
   * for it (server/features/workspaces/owner.ts). Other signed-in routes: the caller.
   */
  owner: A extends 'public' ? null : Owner;
  caller: Caller;
  req: FastifyRequest;
  reply: FastifyReply;
}

/** The things a path parameter names; the first eight belong to one user (a workspace) each. */
export const ownedObjects = [
  'qrCode',
  'folder',
  'session',
  'apiToken',
  'upload',
  'linkImport',
  'webhook',
  'analyticsShare',
] as const;
export type PathObject =
  | (typeof ownedObjects)[number]
  | 'user'
  | 'upgradeRequest'
  | 'queuedMail'
  /** A short domain (issue 35), named by admins. */
  | 'shortDomain'
  /** A workspace the caller is a member of (any other is 404); its role decides the rest. */
  | 'workspace'
  /** A shared dashboard named by its link's token: public, anyone holding the link (an unknown one is 404). */
  | 'sharedDashboard';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestRoute<
  A extends Access = Access,
  P extends Schema = Schema,
  Q extends Schema = Schema,
  B extends Schema = Schema,
  R extends Schema = Schema,
> {
  method: HttpMethod;
  /** Fastify's form: `/api/qr-codes/:id`. */
  path: string;
  /** One line for the reader (and the API reference): what the path does and answers. */
  summary: string;
  access: A;
  /**
   * The role the caller needs in the current workspace (the token's, `X-Workspace`, `?workspace=`, the
   * remembered one, or their own): viewer reads, editor changes codes and folders, admin manages members
   * and tokens, owner the plan. Unset: not about a workspace (the account, sign-in, the admin area).
   */
  role?: WorkspaceRole;
  /**
   * What the path's `:id` names. The caller's own things (a code, a folder, a session, a token, an
   * upload) are 404 to anyone else; users, upgrade requests and queued mails are named by admins.
   */
  object?: PathObject;
  params?: P;
  query?: Q;
  /** A JSON body; a multipart route declares `multipart` instead. */
  body?: B;
  multipart?: MultipartFile;
  /**
   * Which API tokens may call the path; unset: none (the app's session only). Opt in per route: `'read'`
   * takes every token (reads only: GET), `'write'` refuses read-only tokens. Admin paths also need a token
   * with the admin scope. A path that changes who owns or enters the account (e-mail, password, two-factor,
   * sessions, tokens, profile, picture) never opts in: the authorization matrix holds it to that.
   */
  tokens?: 'read' | 'write';
  /**
   * A list: takes the paging, search, filter and sort query of `src/api/paging.ts`, answers one page as the
   * array the spec documents, with `X-Total-Count` and a `Link` header (first, prev, next, last).
   */
  paged?: true;
  /**
   * A path on its way out: every answer carries `Deprecation` (the date it was deprecated), `Sunset` (the
   * date it stops answering, at least six months later) and `Link: <…>; rel="deprecation"` to docs/api.md.
   */
  deprecated?: { since: string; sunset: string };
  /** The JSON body arrives unparsed, as bytes in `file` (a webhook whose signature covers the exact bytes). */
  rawBody?: true;
  /** The status of a success (default 200); a handler may still set another on `reply`. */
  status?: number;
  /** The largest JSON body in bytes, when the app's default (1 MiB) is too small (bulk creation). */
  bodyLimit?: number;
  /**
   * The JSON of a success (a zod schema of `src/`): the handler's return type is checked against it, the
   * OpenAPI document publishes it, and every REST test validates the answers it gets against that document.
   * A route that answers a file declares `produces` instead.
   */
  answer?: R;
  /** A file answer: its content types, each with what it holds. */
  produces?: Record<string, string>;
  /** Other documented answers: a second success shape, or an error body with extra fields. */
  otherAnswers?: OtherAnswer[];
  /**
   * GET paths answer HEAD too unless this is false: a GET that writes (records a scan) or does heavy work
   * for its body (builds a report) must not run for a HEAD. No HEAD changes the database (a test walks them).
   */
  head?: boolean;
  handler: (call: RestCall<A, P, Q, B>) => Answer<R>;
}

/** A route of any shape, as the plugin holds it. */
export type AnyRestRoute = Omit<RestRoute, 'handler'> & {
  handler: (call: RestCall<Access, Schema, Schema, Schema>) => unknown;
};

/** A feature's routes under one heading of the API reference. */
export interface RouteTable {
  tag: string;
  routes: readonly AnyRestRoute[];
}

/** Declares one route; the types of `params`, `query`, `body` and `ctx` follow from its schemas and access. */
export function defineRoute<
  A extends Access,
  P extends Schema = undefined,
  Q extends Schema = undefined,
  B extends Schema = undefined,
  R extends Schema = undefined,
>(route: RestRoute<A, P, Q, B, R>): AnyRestRoute {
  return route;
}

/** Reads the one file part named `field`, refusing more than `maxBytes` while it streams in. */
async function readFilePart(
  req: FastifyRequest,
  { field, maxBytes, tooLargeMessage, what = 'image' }: MultipartFile,
): Promise<{ bytes: Buffer; fileName: string }> {
  if (!req.isMultipart()) {
    throw appError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Send the ${what} as multipart/form-data in the field "${field}"`,
    );
  }
  try {
    const part = await req.file({ limits: { fileSize: maxBytes, files: 1, fields: 0, parts: 1 } });
    if (!part || part.fieldname !== field) {
      part?.file.resume();
      throw appError('BAD_REQUEST', `No ${what} received: send it in the field "${field}"`);
    }
    return { bytes: await part.toBuffer(), fileName: part.filename };
  } catch (error) {
    // The multipart parser's own failures (cut-off bodies, bad boundaries, extra parts) in our words.
    if (error instanceof TRPCError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw appError('PAYLOAD_TOO_LARGE', tooLargeMessage);
    }
    throw appError(
      'BAD_REQUEST',
      `The upload could not be read: send one ${what} as multipart/form-data in the field "${field}"`,
    );
  }
}

const NO_FILE = Buffer.alloc(0);

/** A read token only reads; admin paths need a token made with the admin scope (by an admin). */
function checkTokenScope(route: AnyRestRoute, scope: TokenScope): void {
  if (route.access === 'admin' && scope !== 'admin') throw refuse('TOKEN_SCOPE', tokenMessages.notAdminScope);
  if ((route.tokens !== 'read' || route.method !== 'GET') && scope === 'read') {
    throw refuse('TOKEN_READ_ONLY', tokenMessages.readOnly);
  }
}

/** Who may call, for a token's request: a refusal is a `token.refused` security event. */
async function checkTokenCall(route: AnyRestRoute, ctx: Context, token: NonNullable<Context['apiToken']>) {
  let reason = 'not an admin';
  try {
    checkAccess(route.access, ctx.user);
    reason = 'scope';
    checkTokenScope(route, token.scope);
  } catch (error) {
    const why = error instanceof TRPCError ? error.message : reason;
    await securityEvent(ctx, 'token.refused', {
      user: ctx.user,
      message: `API token ${token.prefix} (${token.scope}) refused on ${route.method} ${route.path}: ${why}`,
      details: {
        reason,
        route: `${route.method} ${route.path}`,
        tokenId: token.id,
        prefix: token.prefix,
        scope: token.scope,
      },
    });
    throw error;
  }
}

/** The versioned path of a documented one: `/api/qr-codes` → `/api/v1/qr-codes`. */
export function v1PathOf(path: string): string {
  return path.replace(/^\/api\//, `${API_V1_PREFIX}/`);
}
export const API_V1_PREFIX = '/api/v1';

/** RFC 9745's `Deprecation` (a structured date: `@` and seconds) and RFC 8594's `Sunset` (an HTTP date). */
function deprecationHeaders(
  reply: FastifyReply,
  deprecated: { since: string; sunset: string },
  publicUrl: string,
) {
  void reply
    .header('Deprecation', `@${Math.floor(Date.parse(deprecated.since) / 1000)}`)
    .header('Sunset', new Date(deprecated.sunset).toUTCString())
    .header('Link', `<${publicUrl}/api/docs#section/Versions-and-deprecation>; rel="deprecation"`);
}

/**
 * Safe retries for the calls a script makes: every POST an API token may call takes `Idempotency-Key`
 * (docs/api.md). The app's own session-only paths do not: some answer a secret once (a new token, a
 * two-factor secret) that must not be kept for a replay.
 */
export function takesIdempotencyKey(route: Pick<AnyRestRoute, 'method' | 'tokens'>): boolean {
  return route.method === 'POST' && route.tokens !== undefined;
}

/** Who an idempotency key belongs to: the token, else the signed-in person. */
function keyOwnerOf(ctx: Context): string | undefined {
  if (ctx.apiToken) return `token:${ctx.apiToken.id}`;
  return ctx.user ? `user:${ctx.user.id}` : undefined;
}

/**
 * The Fastify handler of a route: who calls, then the input, then the feature's handler. `strict`: the
 * `/api/v1` path, whose body refuses unknown fields (closed-schema.ts); the spec's own path ignores them.
 */
export function handlerOf(route: AnyRestRoute, deps: RuntimeDeps, strict = false) {
  const bodySchema = route.body && strict ? closedSchema(route.body) : route.body;
  const idempotent = takesIdempotencyKey(route);
  return async (req: FastifyRequest, reply: FastifyReply) => {
    if (route.deprecated) deprecationHeaders(reply, route.deprecated, deps.config.publicUrl);
    if (!route.tokens && bearerOf(req.headers.authorization) !== undefined) {
      // Refused before the token is looked up: nothing of what was sent is named.
      await securityEvent({ ...deps, log: req.log, ip: req.ip }, 'token.refused', {
        message: `API token refused on ${route.method} ${route.path}: the path takes the app's session only`,
        details: { reason: 'session-only path', route: `${route.method} ${route.path}` },
      });
      throw refuse('TOKEN_NOT_ACCEPTED', tokenMessages.sessionOnly);
    }
    const ctx = await createRestContext(deps, req, reply);
    if (ctx.apiToken) await checkTokenCall(route, ctx, ctx.apiToken);
    else checkAccess(route.access, ctx.user);
    let owner: Owner | null = ctx.user;
    // A path naming a workspace (its settings, members, invitations) is about that workspace, not the
    // current one: its procedure checks the role there.
    if (route.role && ctx.user && route.object !== 'workspace') {
      const workspace = await resolveWorkspace(ctx.db, ctx.user, ctx.workspaceRequest);
      checkRole(workspace, route.role);
      owner = ownerActing(workspace.owner, ctx.user);
    }
    const params = route.params ? parseInput(route.params, req.params) : undefined;
    const query = route.query ? parseInput(route.query, req.query) : undefined;
    const body = bodySchema ? parseInput(bodySchema, req.body) : undefined;
    const upload = route.multipart
      ? await readFilePart(req, route.multipart)
      : { bytes: route.rawBody && Buffer.isBuffer(req.body) ? req.body : NO_FILE, fileName: '' };
    if (route.status) void reply.status(route.status);
    const idempotency = idempotent ? idempotencyOf(req, ctx, route, upload.bytes) : undefined;
    if (idempotency) {
      const claim = await claimIdempotencyKey(
        ctx.db,
        ctx.clock.now(),
        idempotency.owner,
        idempotency.key,
        idempotency.fingerprint,
      );
      if (claim.replay) {
        return reply
          .status(claim.status)
          .header('Content-Type', 'application/json; charset=utf-8')
          .header('Idempotent-Replayed', 'true')
          .send(claim.body);
      }
    }
    const call = () =>
      route.handler({
        params,
        query,
        body,
        file: upload.bytes,
        fileName: upload.fileName,
        ctx,
        owner,
        caller: createCaller(ctx),
        req,
        reply,
      });
    if (!idempotency) return call();
    const { owner: keyOwner, key } = idempotency;
    let answer: unknown;
    try {
      answer = await call();
    } catch (error) {
      // Refused or failed: nothing was changed, so the same key may try again.
      await releaseIdempotencyKey(ctx.db, keyOwner, key);
      throw error;
    }
    if (answer === reply || answer === undefined || reply.sent) {
      // A file or a reply the handler sent itself: not kept, the key is free again.
      await releaseIdempotencyKey(ctx.db, keyOwner, key);
    } else {
      await completeIdempotencyKey(ctx.db, keyOwner, key, {
        status: reply.statusCode,
        body: JSON.stringify(answer),
      });
    }
    return answer;
  };
}

/** The request's Idempotency-Key with what it asks (method, route, ids, workspace, body), when it has one. */
function idempotencyOf(req: FastifyRequest, ctx: Context, route: AnyRestRoute, file: Buffer) {
  const key = idempotencyKeyOf(req.headers[IDEMPOTENCY_HEADER]);
  const owner = keyOwnerOf(ctx);
  if (key === undefined || owner === undefined) return undefined;
  const fingerprint = fingerprintOf([
    route.method,
    route.path,
    JSON.stringify(req.params ?? {}),
    JSON.stringify(ctx.workspaceRequest.asked ?? null),
    route.multipart ? file : JSON.stringify(req.body ?? null),
  ]);
  return { owner, key, fingerprint };
}
