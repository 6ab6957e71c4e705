import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterEach, beforeEach } from 'vitest';
import type { User } from '../../src/auth/auth.schema.js';
import { buildApp } from '../app.js';
import type { AppDeps, Clock } from '../app-deps.js';
import { testConfig, type Config } from '../config.js';
import type { Db, UserRow } from '../db/database.js';
import { hashPassword } from '../features/auth/passwords.js';
import { createMailer } from '../features/mail/mailer.js';
import { insertUser } from '../features/users/users.repository.js';
import type { RestErrorBody } from '../rest/rest-errors.js';
import type { TestDb } from './test-db.js';

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
  /** The same deps the app was built with (bootstrap and services take them). */
  deps: AppDeps;
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
}

/** The real app (buildApp) over a test database, with a temporary DATA_DIR and a silent logger. */
export async function createTestApp(testDb: TestDb, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qr-creator-test-'));
  const config = testConfig({ ...options.config, dataDir });
  const logger = pino({ level: 'silent' });
  const clock = options.clock ?? createTestClock();
  const deps: AppDeps = {
    db: testDb.db,
    dialect: testDb.dialect,
    config,
    mailer: createMailer(config, logger),
    clock,
  };
  const app = await buildApp({
    ...deps,
    ping: testDb.handle.ping,
    logger,
    // Never built here unless a test brings one: only the API is served.
    clientDir: options.clientDir ?? path.join(dataDir, 'no-client'),
  });
  await app.ready();
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
      await fs.rm(dataDir, { recursive: true, force: true });
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

export type Response = LightMyRequestResponse;

export interface RegisterBody {
  username: string;
  password: string;
  name: string;
  email: string;
}

export const TEST_PASSWORD = 'correct-horse-battery';

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

export function errorBody(res: Response): RestErrorBody {
  return res.json<RestErrorBody>();
}

export function userBody(res: Response): User {
  return res.json<User>();
}

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

export function postJson(
  app: FastifyInstance,
  url: string,
  body: unknown,
  options: { cookie?: string; cookieName?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return app.inject({
    method: 'POST',
    url,
    payload: body as object,
    headers: { 'content-type': 'application/json', ...options.headers },
    ...(options.cookie ? { cookies: { [options.cookieName ?? 'qr_session']: options.cookie } } : {}),
  });
}

export function getWithCookie(
  app: FastifyInstance,
  url: string,
  cookie?: string,
  cookieName = 'qr_session',
): Promise<Response> {
  return app.inject({ method: 'GET', url, ...(cookie ? { cookies: { [cookieName]: cookie } } : {}) });
}

export function register(app: FastifyInstance, body: Partial<RegisterBody> = {}): Promise<Response> {
  return postJson(app, '/api/register', newUserBody(body));
}

export function login(
  app: FastifyInstance,
  username: string,
  password: string,
  options: { cookie?: string; remoteAddress?: string } = {},
): Promise<Response> {
  return app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username, password },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    ...(options.cookie ? { cookies: { qr_session: options.cookie } } : {}),
  });
}

/** Registers through POST /api/register and returns the user and the session cookie it set. */
export async function registerAndSignIn(
  app: FastifyInstance,
  body: Partial<RegisterBody> = {},
): Promise<{ user: User; cookie: string; body: RegisterBody }> {
  const full = newUserBody(body);
  const res = await postJson(app, '/api/register', full);
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return { user: userBody(res), cookie: sessionCookie(res), body: full };
}

const hashes = new Map<string, Promise<string>>();

/**
 * Inserts a user straight into the database with a real argon2 hash (computed once per password),
 * for tests whose subject is not registration itself.
 */
export async function insertTestUser(
  db: Db,
  fields: { username: string; password?: string; isAdmin?: boolean; email?: string | null },
): Promise<UserRow> {
  const password = fields.password ?? TEST_PASSWORD;
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return insertUser(db, {
    username: fields.username,
    password: await hash,
    name: 'Inserted User',
    email: fields.email === undefined ? `${fields.username.toLowerCase()}@example.com` : fields.email,
    is_admin: fields.isAdmin ?? false,
    created_at: new Date().toISOString(),
  });
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
