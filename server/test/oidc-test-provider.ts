import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Adapter, type AdapterPayload, type KoaContextWithOIDC } from 'oidc-provider';

// A real OpenID Provider (panva's oidc-provider, certified) for the tests, in-process on 127.0.0.1: its
// development login page (any password), accounts the test changes while it runs (groups, a verified
// address or not), refresh tokens, RP-initiated and back-channel logout. Consent is given without asking,
// as a company's own provider does for its own applications. Two switches let a test play the attacker or
// the administrator: `tamperIdTokens` flips a byte of each ID token's signature on the way out, and
// `revokeGrantsOf` takes back what a person granted (their refresh tokens stop working).

export interface TestAccount {
  sub: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
  preferredUsername?: string;
  groups?: string[];
}

export interface TestOidcClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  backchannelLogoutUri?: string;
}

export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>` */
  issuer: string;
  /** Changed or added while the provider runs: its next token says what the account says then. */
  accounts: Map<string, TestAccount>;
  /** While true, every ID token the token endpoint answers carries a broken signature. */
  tamperIdTokens: boolean;
  /** What the provider took back: every grant (and so every refresh token) of the account. */
  revokeGrantsOf(sub: string): Promise<number>;
  /** Registers the relying party (its addresses) after the start. */
  registerClient(client: TestOidcClient): void;
  /** The back-channel logout deliveries that failed (the provider logs nothing of them). */
  backchannelErrors: unknown[];
  close(): Promise<void>;
}

/** The provider's whole memory (sessions, grants, codes, tokens), kept where the test can reach it. */
function memoryAdapter(store: Map<string, Map<string, AdapterPayload>>) {
  return class MemoryAdapter implements Adapter {
    private readonly items: Map<string, AdapterPayload>;
    constructor(name: string) {
      this.items = store.get(name) ?? new Map<string, AdapterPayload>();
      store.set(name, this.items);
    }
    upsert(id: string, payload: AdapterPayload): Promise<void> {
      this.items.set(id, payload);
      return Promise.resolve();
    }
    find(id: string): Promise<AdapterPayload | undefined> {
      return Promise.resolve(this.items.get(id));
    }
    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return Promise.resolve([...this.items.values()].find((p) => p.uid === uid));
    }
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return Promise.resolve([...this.items.values()].find((p) => p.userCode === userCode));
    }
    consume(id: string): Promise<void> {
      const item = this.items.get(id);
      if (item) item.consumed = Math.floor(Date.now() / 1000);
      return Promise.resolve();
    }
    destroy(id: string): Promise<void> {
      this.items.delete(id);
      return Promise.resolve();
    }
    revokeByGrantId(grantId: string): Promise<void> {
      for (const [id, payload] of this.items) if (payload.grantId === grantId) this.items.delete(id);
      return Promise.resolve();
    }
  };
}

/** A fresh RSA key per provider: a token signed by one test provider means nothing to another. */
function signingKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS256' };
}

const SCOPES = 'openid offline_access profile email groups';

/** A relying party as the provider knows it: a confidential client of the code flow. */
function clientMetadata(client: TestOidcClient): AdapterPayload {
  return {
    client_id: client.clientId,
    client_secret: client.clientSecret,
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris ?? [],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...(client.backchannelLogoutUri
      ? { backchannel_logout_uri: client.backchannelLogoutUri, backchannel_logout_session_required: true }
      : {}),
  };
}

/**
 * Starts the provider on a free loopback port, with `client` registered, or none until registerClient
 * (a server whose address is known only once it runs).
 */
export async function startOidcTestProvider(
  client?: TestOidcClient,
  accounts: TestAccount[] = [],
): Promise<TestOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const store = new Map<string, Map<string, AdapterPayload>>();
  const state: TestOidcProvider = {
    issuer,
    accounts: new Map(accounts.map((a) => [a.sub, a])),
    tamperIdTokens: false,
    backchannelErrors: [],
    registerClient: (registered) => {
      // Kept in the provider's store as a dynamically registered client is.
      const clients = store.get('Client') ?? new Map<string, AdapterPayload>();
      store.set('Client', clients);
      clients.set(registered.clientId, clientMetadata(registered));
    },
    revokeGrantsOf: async (sub) => {
      const grants = [...(store.get('Grant') ?? new Map<string, AdapterPayload>())].filter(
        ([, grant]) => grant.accountId === sub,
      );
      for (const [grantId] of grants) {
        store.get('Grant')?.delete(grantId);
        for (const items of store.values())
          for (const [id, payload] of items) if (payload.grantId === grantId) items.delete(id);
      }
      return Promise.resolve(grants.length);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  if (client) state.registerClient(client);

  const provider = new Provider(issuer, {
    adapter: memoryAdapter(store),
    cookies: { keys: ['oidc-test-provider-cookie-key'] },
    jwks: { keys: [signingKey()] },
    ttl: {
      AccessToken: 600,
      Grant: 86_400,
      IdToken: 600,
      Interaction: 600,
      RefreshToken: 86_400,
      Session: 86_400,
    },
    // Its own fetch refuses loopback addresses (against SSRF): the relying party here is on one.
    fetch: (url, init) => fetch(url, { ...init, dispatcher: undefined } as RequestInit),
    scopes: SCOPES.split(' '),
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
      groups: ['groups'],
    },
    findAccount: (_ctx, sub) => {
      const account = state.accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          ...(account.email !== undefined ? { email: account.email } : {}),
          email_verified: account.emailVerified ?? false,
          ...(account.name !== undefined ? { name: account.name } : {}),
          ...(account.preferredUsername !== undefined
            ? { preferred_username: account.preferredUsername }
            : {}),
          groups: account.groups ?? [],
        }),
      };
    },
    features: {
      devInteractions: { enabled: true },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.body = `<!DOCTYPE html><title>Sign out</title>${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>`;
        },
      },
      revocation: { enabled: true },
    },
    // As Keycloak does: a refresh token with every code exchange, offline_access asked for or not.
    issueRefreshToken: (_ctx, oidcClient) => Promise.resolve(oidcClient.grantTypeAllowed('refresh_token')),
    // Consent given once and for all (a company's own application): the login page is the only page.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { provider: p, client: c, session } = ctx.oidc;
      if (!c || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(c.clientId);
      const found = grantId ? await p.Grant.find(grantId) : undefined;
      if (found) return found;
      const grant = new p.Grant({ clientId: c.clientId, accountId: session.accountId });
      grant.addOIDCScope(SCOPES);
      await grant.save();
      return grant;
    },
  });
  // Its warnings about the development interactions and keys are expected here.
  provider.on('backchannel.error', (_ctx, error) => state.backchannelErrors.push(error));
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: unknown } | undefined;
    if (state.tamperIdTokens && ctx.path === '/token' && typeof body?.id_token === 'string') {
      const [header, payload, signature] = body.id_token.split('.');
      const at = Math.floor(signature!.length / 2);
      const flipped = signature![at] === 'A' ? 'B' : 'A';
      body.id_token = `${header}.${payload}.${signature!.slice(0, at)}${flipped}${signature!.slice(at + 1)}`;
    }
  });
  const handle = provider.callback();
  server.on('request', (req, res) => void handle(req, res));
  return state;
}

/** The provider's cookies for one simulated browser: enough for its login and logout pages. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value && !/expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
  }
  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

/**
 * A person's browser at the provider: opens `authorizationUrl`, signs in on the login page as `sub` and
 * answers where the provider sends the browser back (the relying party's callback, with its query).
 * `stopAt` is the callback's origin and path prefix.
 */
export async function signInAtProvider(
  authorizationUrl: string,
  sub: string,
  stopAt: string,
  browser = new ProviderBrowser(),
): Promise<string> {
  return browser.follow(authorizationUrl, stopAt, { login: sub, password: 'any password' });
}

/** One browser's visits to the provider: it keeps the provider's cookies (its session) between calls. */
export class ProviderBrowser {
  private readonly jar = new CookieJar();

  /**
   * Follows redirects from `url` until one leaves for `stopAt` (answered), submitting the login page with
   * `login` and the logout confirmation when they come.
   */
  async follow(url: string, stopAt: string, login?: { login: string; password: string }): Promise<string> {
    let next: { url: string; method: 'GET' | 'POST'; form?: Record<string, string> } = { url, method: 'GET' };
    for (let hop = 0; hop < 20; hop++) {
      if (next.url.startsWith(stopAt)) return next.url;
      const res = await fetch(next.url, {
        method: next.method,
        redirect: 'manual',
        headers: {
          cookie: this.jar.header(),
          ...(next.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(next.form ? { body: new URLSearchParams(next.form).toString() } : {}),
      });
      this.jar.take(res);
      const location = res.headers.get('location');
      if (location) {
        await res.body?.cancel();
        next = { url: new URL(location, next.url).href, method: 'GET' };
        continue;
      }
      const html = await res.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (res.status === 200 && action && html.includes('name="prompt" value="login"') && login) {
        next = { url: new URL(action, next.url).href, method: 'POST', form: { prompt: 'login', ...login } };
        continue;
      }
      if (res.status === 200 && html.includes('op.logoutForm')) {
        const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
        next = {
          url: new URL(action ?? '/session/end/confirm', next.url).href,
          method: 'POST',
          form: { xsrf, logout: 'yes' },
        };
        continue;
      }
      // The provider's own "signed out" page, when the logout named no way back.
      if (res.status === 200 && html.includes('Sign-out Success')) return next.url;
      throw new Error(`the provider answered ${res.status} at ${next.url}: ${html.slice(0, 500)}`);
    }
    throw new Error(`too many redirects from ${url}`);
  }
}
