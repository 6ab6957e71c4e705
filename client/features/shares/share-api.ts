// The public page's calls: plain fetch to the REST paths (no tRPC client, no React Query), as /auth does
// without them (lib/load-api.ts).
import type { PublicShare } from '../../../src/shares/share.schema';

/** A failed call: its status and the server's message. */
export class ShareCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function answerOf<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => null)) as (T & { message?: string }) | null;
  if (!response.ok) {
    throw new ShareCallError(response.status, body?.message ?? `The server answered ${response.status}`);
  }
  return body as T;
}

const pathOf = (token: string) => `/api/public/shares/${encodeURIComponent(token)}`;

export async function fetchShare(
  token: string,
  query: { days: number; tz: string; excludeBots: boolean },
  signal?: AbortSignal,
): Promise<PublicShare> {
  const search = new URLSearchParams({
    days: String(query.days),
    tz: query.tz,
    excludeBots: String(query.excludeBots),
  });
  const response = await fetch(`${pathOf(token)}?${search}`, {
    credentials: 'same-origin',
    ...(signal ? { signal } : {}),
  });
  return answerOf<PublicShare>(response);
}

export async function unlockShare(token: string, password: string): Promise<void> {
  const response = await fetch(`${pathOf(token)}/unlock`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  });
  await answerOf<{ unlocked: true }>(response);
}
