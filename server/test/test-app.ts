import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterEach, beforeEach, expect } from 'vitest';
import type { User } from '../../src/auth/auth.schema.js';
import { buildApp } from '../app.js';
import type { AppDeps, RuntimeDeps } from '../app-deps.js';
import type { Clock } from '../clock.js';
import { testConfig, type Config } from '../config.js';
import type { Db, UserRow } from '../db/database.js';
import { startSession } from '../features/auth/sessions.js';
import { createMailer } from '../features/mail/mailer.js';
import { startScanService } from '../features/scans/scan.service.js';
import { toUser } from '../features/users/users.mapper.js';
import type { RestErrorBody } from '../rest/rest-errors.js';
import { appRouter } from '../trpc/app-router.js';
import type { Context } from '../trpc/context.js';
import { createCallerFactory } from '../trpc/init.js';
import { checkAnswers } from './answer-check.js';
import { TEST_PASSWORD, insertTestUser } from './fixtures.js';
import type { TestDb } from './test-db.js';

// The app under test and the one vocabulary for talking to it: a signed-in user (signedInUser),
// a request with or without a session (call), an error answer (expectRestError), a procedure called
// straight through tRPC (callerFor). Rows a test needs are in fixtures.ts, upload bodies and image
// bytes in upload-fixtures.ts.

// ---------------------------------------------------------------------------------------------------
// The app

/** A clock the test moves by hand; it starts at the real time. */
export interface TestClock extends Clock {
  advance(ms: number): void;
  set(date: Date): void;
}

export function createTestClock(start: Date = new Date()): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (date) => {
      current = date.getTime();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  /** The same deps the app was built with, its scan writer included (bootstrap and services take them). */
  deps: RuntimeDeps;
  config: Config;
  db: Db;
  clock: TestClock;
  /** A fresh temporary DATA_DIR, removed on close. */
  dataDir: string;
  /** `<dataDir>/outbox`, where the real mailer writes its .eml files. */
  outbox: string;
  close: () => Promise<void>;
}

export interface TestAppOptions {
  config?: Partial<Config>;
  clock?: TestClock;
  /** A built client to serve; by default none (only the API). */
  clientDir?: string;
  /** The app's logger; by default a silent one. */
  logger?: pino.Logger;
  /** What GET /readyz awaits; by default the test database's ping. */
  ping?: () => Promise<void>;
}

/** The real app (buildApp) over a test database, with a temporary DATA_DIR and a silent logger. */
export async function createTestApp(testDb: TestDb, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qr-creator-test-'));
  const config = testConfig({ ...options.config, dataDir });
  const logger = options.logger ?? pino({ level: 'silent' });
  const clock = options.clock ?? createTestClock();
  const appDeps: AppDeps = {
    db: testDb.db,
    config,
    mailer: createMailer(config, logger),
    clock,
  };
  // Started here rather than inside buildApp so that callerFor can hand it to procedures too;
  // the app closes it.
  const scans = await startScanService(appDeps);
  const deps: RuntimeDeps = { ...appDeps, scans };
  let app: FastifyInstance;
  let answerProblems: string[];
  try {
    app = await buildApp({
      ...deps,
      ping: options.ping ?? testDb.handle.ping,
      logger,
      // Never built here unless a test brings one: only the API is served.
      clientDir: options.clientDir ?? path.join(dataDir, 'no-client'),
    });
    answerProblems = checkAnswers(app);
    await app.ready();
  } catch (error) {
    await scans.close();
    throw error;
  }
  return {
    app,
    deps,
    config,
    db: testDb.db,
    clock,
    dataDir,
    outbox: path.join(dataDir, 'outbox'),
    close: async () => {
      await app.close();
      // A mail still being written in the background may add a file while the folder goes: retry.
      await fs.rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
      if (answerProblems.length > 0) {
        throw new Error(
          `answers that /api/openapi.json does not allow:\n${[...new Set(answerProblems)].slice(0, 20).join('\n')}`,
        );
      }
    },
  };
}

/** A fresh app per test (inside a describeEachDb block); options may depend on the database kind. */
export function useTestApp(getDb: () => TestDb, options: TestAppOptions = {}): () => TestApp {
  let current: TestApp | undefined;
  beforeEach(async () => {
    current = await createTestApp(getDb(), options);
  });
  afterEach(async () => {
    const t = current;
    current = undefined;
    await t?.close();
  });
  return () => {
    if (!current) throw new Error('the test app is only available inside a test');
    return current;
  };
}

// ---------------------------------------------------------------------------------------------------
// Signed-in users

export interface PlanFields {
  isAdmin?: boolean;
  hasUnlimitedAccess?: boolean;
  subscriptionTier?: 'free' | 'pro' | 'premium';
  subscriptionEndDate?: string | null;
}

/**
 * Starts a session for a user straight through the session store (no argon2 verification per test)
 * and returns the cookie value a browser would send.
 */
export async function sessionFor(t: TestApp, userId: number): Promise<string> {
  let token: string | undefined;
  await startSession(
    t.deps,
    {
      read: () => undefined,
      set: (_name, value) => {
        token = value;
      },
      clear: () => undefined,
    },
    userId,
    { ip: '127.0.0.1', userAgent: 'vitest' },
  );
  if (!token) throw new Error('startSession set no cookie');
  return token;
}

/**
 * The way to get a signed-in user: inserted straight into the database (password TEST_PASSWORD,
 * cached argon2 hash), with plan fields and a session cookie. Tests whose subject is registration
 * itself go through register() instead.
 */
export async function signedInUser(
  t: TestApp,
  username: string,
  plan: PlanFields = {},
): Promise<{ user: UserRow; cookie: string }> {
  const inserted = await insertTestUser(t.db, { username, isAdmin: plan.isAdmin ?? false });
  const changes = {
    ...(plan.hasUnlimitedAccess !== undefined ? { has_unlimited_access: plan.hasUnlimitedAccess } : {}),
    ...(plan.subscriptionTier !== undefined
      ? { subscription_tier: plan.subscriptionTier, subscription_status: 'active' }
      : {}),
    ...(plan.subscriptionEndDate !== undefined ? { subscription_end_date: plan.subscriptionEndDate } : {}),
  };
  const user =
    Object.keys(changes).length > 0
      ? await t.db
          .updateTable('users')
          .set(changes)
          .where('id', '=', inserted.id)
          .returningAll()
          .executeTakeFirstOrThrow()
      : inserted;
  return { user, cookie: await sessionFor(t, user.id) };
}

/**
 * The app router called in-process with the context a request of `user` would get (null: signed
 * out), for rules that are easier to pin at the service than through HTTP.
 */
export function callerFor(
  t: TestApp,
  user: UserRow | null,
  client: { ip?: string; userAgent?: string | null; workspaceId?: number } = {},
) {
  const context: Context = {
    ...t.deps,
    log: t.app.log,
    user: user ? toUser(user) : null,
    sessionId: null,
    apiToken: null,
    workspaceRequest: {
      asked: client.workspaceId === undefined ? undefined : String(client.workspaceId),
      remembered: user?.current_workspace_id ?? null,
      tokenWorkspace: null,
    },
    ip: client.ip ?? '127.0.0.1',
    userAgent: client.userAgent === undefined ? 'vitest' : client.userAgent,
    cookies: { read: () => undefined, set: () => undefined, clear: () => undefined },
  };
  return createCallerFactory(appRouter)(context);
}

// ---------------------------------------------------------------------------------------------------
// Requests

export type Response = LightMyRequestResponse;

/** ISO 8601 in UTC, as every timestamp of the API. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export const EVIL_ORIGIN = 'https://evil.example';

export interface CallOptions {
  /** The session cookie's value; none is sent when empty or left out. */
  cookie?: string;
  /** `qr_session` unless PUBLIC_URL is https (`__Host-qr_session`). */
  cookieName?: string;
  /** A JSON body (sent with content-type application/json). */
  json?: unknown;
  /** A raw body, sent as is (give its content type in headers). */
  payload?: string | Buffer;
  /** Extra headers; `'user-agent': undefined` sends none (light-my-request adds its own otherwise). */
  headers?: Record<string, string | undefined>;
  /** The client's socket address; light-my-request's default is 127.0.0.1. */
  remoteAddress?: string;
}

/** The way to call a path: one request with an optional session cookie and body. */
export function call(
  app: FastifyInstance,
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  options: CallOptions = {},
): Promise<Response> {
  const request: InjectOptions = {
    method,
    url,
    headers: {
      ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.json !== undefined ? { payload: JSON.stringify(options.json) } : {}),
    ...(options.payload !== undefined ? { payload: options.payload } : {}),
    ...(options.cookie ? { cookies: { [options.cookieName ?? 'qr_session']: options.cookie } } : {}),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  };
  return app.inject(request);
}

/** The way to read an error answer: a 4xx JSON error in the documented shape { message, code, issues?, … }. */
export function expectRestError(res: Response, status: number, code?: string): RestErrorBody {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json<RestErrorBody>();
  expect(body.message).toEqual(expect.any(String));
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.code).toEqual(expect.any(String));
  if (code) expect(body.code).toBe(code);
  expect(res.body).not.toMatch(/\bat .+\.(ts|js):\d+|select |insert into|SQLITE_|stack/i);
  return body;
}

/** The public user of a register, login or GET /api/user answer. */
export function userBody(res: Response): User {
  return res.json<User>();
}

// ---------------------------------------------------------------------------------------------------
// Registration and sign-in through HTTP (for tests whose subject they are)

export interface RegisterBody {
  username: string;
  password: string;
  name: string;
  email: string;
}

let sequence = 0;

/** A valid registration body with a unique username and e-mail address. */
export function newUserBody(overrides: Partial<RegisterBody> = {}): RegisterBody {
  sequence += 1;
  const username = overrides.username ?? `user${sequence}`;
  return {
    username,
    password: TEST_PASSWORD,
    name: 'Test User',
    email: `${username.toLowerCase()}@example.com`,
    ...overrides,
  };
}

/** POST /api/register with a valid body (newUserBody) changed by `body`. */
export function register(app: FastifyInstance, body: Partial<RegisterBody> = {}): Promise<Response> {
  return call(app, 'POST', '/api/register', { json: newUserBody(body) });
}

/** POST /api/login, optionally carrying a session and from another client address. */
export function login(
  app: FastifyInstance,
  username: string,
  password: string,
  options: { cookie?: string; remoteAddress?: string } = {},
): Promise<Response> {
  return call(app, 'POST', '/api/login', { json: { username, password }, ...options });
}

// ---------------------------------------------------------------------------------------------------
// Cookies and mail

/** Every Set-Cookie header line of a response. */
export function setCookieLines(res: Response): string[] {
  const header = res.headers['set-cookie'];
  if (header === undefined) return [];
  return Array.isArray(header) ? header : [String(header)];
}

/** The value a response set for a cookie, or undefined when it set none (or cleared it). */
export function cookieValue(res: Response, name = 'qr_session'): string | undefined {
  const cookie = res.cookies.find((c) => c.name === name);
  return cookie?.value ? cookie.value : undefined;
}

/** Same as cookieValue but fails loudly: for responses that must sign the caller in. */
export function sessionCookie(res: Response, name = 'qr_session'): string {
  const value = cookieValue(res, name);
  if (!value) throw new Error(`expected a ${name} cookie, got status ${res.statusCode}: ${res.body}`);
  return value;
}

/** The .eml files the outbox mailer wrote so far, decoded from quoted-printable. */
export async function readOutbox(outbox: string): Promise<string[]> {
  let files: string[];
  try {
    files = (await fs.readdir(outbox)).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (f) => decodeQuotedPrintable(await fs.readFile(path.join(outbox, f), 'utf8'))),
  );
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
