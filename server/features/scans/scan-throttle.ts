/**
 * Tells a person scanning from a client that loops or is scripted. One client — address and user
 * agent — following one code more than `perMinute` times in a minute is not a person: the redirect is
 * still answered, but the excess is counted apart (throttled_scans) instead of as scans.
 *
 * Kept in this process's memory: it is asked on every redirect, which must not wait for a database
 * read. With several instances behind a balancer each counts its own share, so the limit is per
 * instance (a looping client usually keeps its connection, and so its instance).
 */
export interface ScanThrottle {
  /** Counts this scan; true when it is beyond the client's limit on this code. */
  isExcess(codeId: number, address: string, userAgent: string | null | undefined, nowMs: number): boolean;
}

const WINDOW_MS = 60_000;
/** Clients remembered at most; a flood of distinct clients is forgotten rather than held. */
const MAX_CLIENTS = 10_000;
/** User agents numbered at most; past that, a client's key holds its user agent's text. */
const MAX_AGENTS = 2_000;

export function createScanThrottle(perMinute: number): ScanThrottle {
  if (perMinute <= 0) return { isExcess: () => false };
  // A fixed window per client, started by its first scan: cheap, and a client held back stays held
  // back until a minute after it began.
  const clients = new Map<string, { start: number; count: number }>();
  // A user agent is long (100–300 characters) and the same for many clients: each client's key names it
  // by a number, so the keys held for a minute stay short.
  const agents = new Map<string, number>();
  const agentOf = (userAgent: string | null | undefined) => {
    const text = userAgent?.slice(0, 256) ?? '';
    let id = agents.get(text);
    if (id === undefined) {
      if (agents.size >= MAX_AGENTS) return `"${text}`;
      id = agents.size;
      agents.set(text, id);
    }
    return id;
  };

  function forgetOld(nowMs: number) {
    for (const [key, entry] of clients) if (nowMs - entry.start >= WINDOW_MS) clients.delete(key);
    if (clients.size >= MAX_CLIENTS) {
      clients.clear();
      agents.clear();
    }
  }

  return {
    isExcess(codeId, address, userAgent, nowMs) {
      const key = `${codeId} ${address} ${agentOf(userAgent)}`;
      const entry = clients.get(key);
      if (!entry || nowMs - entry.start >= WINDOW_MS) {
        if (!entry && clients.size >= MAX_CLIENTS) forgetOld(nowMs);
        clients.set(key, { start: nowMs, count: 1 });
        return false;
      }
      entry.count += 1;
      return entry.count > perMinute;
    },
  };
}
