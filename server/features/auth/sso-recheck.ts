import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { startPeriodic } from '../../periodic.js';
import { findUserById } from '../users/users.repository.js';
import { ldapLookup } from './ldap.js';
import { oidcLogoutUrl, oidcRecheck } from './oidc.js';
import {
  deleteProviderSessions,
  findSessionSso,
  listSessionsToRecheck,
  markSessionsChecked,
} from './sso-identities.repository.js';
import { applyGroups } from './sso-sign-in.js';

// A person removed or disabled in the company directory loses every session within 15 minutes: each
// session a provider signed in is checked again every `recheckMs` (5 minutes by default, at most 15):
// LDAP looks the entry up again with the service account; OIDC asks for a refresh (a provider that ended
// the person's session, or back-channel logout, ends ours). Groups are read again at the same time, so a
// group taken away takes its role away. A provider that does not answer ends nothing (the next turn
// tries again): an outage of the directory must not sign the whole company out.

/** Checks every company-account session due; answers how many sessions it ended. */
export async function recheckSsoSessions(
  deps: AppDeps,
  log?: Pick<FastifyBaseLogger, 'warn' | 'debug'>,
): Promise<number> {
  const sso = deps.config.sso;
  if (!sso) return 0;
  const now = deps.clock.now();
  const due = await listSessionsToRecheck(deps.db, new Date(now.getTime() - sso.recheckMs).toISOString());
  let ended = 0;
  // LDAP and the proxy are checked once per person; OIDC once per session (each has its refresh token).
  const byPerson = new Map<string, typeof due>();
  for (const session of due) {
    if (session.sso_provider!.startsWith('oidc:')) {
      ended += await recheckOidcSession(deps, session, log);
      continue;
    }
    const key = `${session.sso_provider}\n${session.sso_subject}`;
    byPerson.set(key, [...(byPerson.get(key) ?? []), session]);
  }
  for (const sessions of byPerson.values()) {
    const { sso_provider: provider, sso_subject: subject, user_id: userId } = sessions[0]!;
    const ids = sessions.map((s) => s.id);
    if (provider === 'ldap' && sso.ldap) {
      let profile;
      try {
        profile = await ldapLookup(sso.ldap, subject!, log);
      } catch (error) {
        log?.warn({ err: error }, 'SSO re-check: the LDAP directory did not answer');
        continue;
      }
      if (!profile) {
        ended += await deleteProviderSessions(deps.db, provider, subject!);
        continue;
      }
      const user = await findUserById(deps.db, userId);
      if (user) await applyGroups(deps, user, profile.groups);
      await markSessionsChecked(deps.db, ids, now.toISOString());
    } else if (provider === 'proxy' && sso.proxy) {
      // The proxy vouches on every request (proxy-sign-in.ts): nothing to ask here.
      await markSessionsChecked(deps.db, ids, now.toISOString());
    } else {
      // Its provider is no longer configured: nobody can vouch for the session any more.
      ended += await deleteProviderSessions(deps.db, provider!, subject!);
    }
  }
  return ended;
}

async function recheckOidcSession(
  deps: AppDeps,
  session: Awaited<ReturnType<typeof listSessionsToRecheck>>[number],
  log?: Pick<FastifyBaseLogger, 'warn'>,
): Promise<number> {
  const provider = deps.config.sso?.oidc.find((p) => `oidc:${p.id}` === session.sso_provider);
  const now = deps.clock.now().toISOString();
  if (!provider) return deleteProviderSessions(deps.db, session.sso_provider!, session.sso_subject!);
  // Without a refresh token only back-channel logout (or the session's own end) can end it.
  if (!session.sso_refresh_token) {
    await markSessionsChecked(deps.db, [session.id], now);
    return 0;
  }
  let answer;
  try {
    answer = await oidcRecheck(deps, provider, session.sso_refresh_token);
  } catch (error) {
    log?.warn({ err: error, provider: provider.id }, 'SSO re-check: the OpenID provider did not answer');
    return 0;
  }
  if (answer.status === 'ended') {
    const result = await deps.db.deleteFrom('sessions').where('id', '=', session.id).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
  const user = await findUserById(deps.db, session.user_id);
  if (user) await applyGroups(deps, user, answer.profile.groups);
  await markSessionsChecked(deps.db, [session.id], now, {
    refreshToken: answer.refreshToken ?? session.sso_refresh_token,
    // A refresh may answer without a new ID token: keep the last (the hint of RP-initiated logout).
    idToken: answer.idToken ?? session.sso_id_token,
  });
  return 0;
}

/** The re-check on its timer (a minute after start, then every `recheckMs`), when SSO is configured. */
export function startSsoRecheck(deps: AppDeps, log: FastifyBaseLogger): () => void {
  const sso = deps.config.sso;
  if (!sso) return () => undefined;
  return startPeriodic(() => recheckSsoSessions(deps, log), {
    firstRunMs: 60_000,
    everyMs: Math.min(sso.recheckMs, 60_000),
    onError: (error) => log.error({ err: error }, 'SSO re-check failed'),
  });
}

/** Where the browser goes to sign out of the provider too, for a session a provider signed in. */
export async function providerLogoutUrl(deps: AppDeps, sessionId: string): Promise<string | undefined> {
  const sso = deps.config.sso;
  if (!sso) return undefined;
  const session = await findSessionSso(deps.db, sessionId);
  if (!session?.sso_provider) return undefined;
  if (session.sso_provider === 'proxy') return sso.proxy?.logoutUrl;
  const provider = sso.oidc.find((p) => `oidc:${p.id}` === session.sso_provider);
  if (!provider) return undefined;
  try {
    return await oidcLogoutUrl(deps, provider, session.sso_id_token);
  } catch {
    return undefined;
  }
}
