// The public page's calls: plain fetch to the REST paths (no tRPC client, no React Query), as /auth does
// without them (lib/load-api.ts).
import { t } from '@lingui/core/macro';
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
    // The server's message; without one, ours (in the language active when the call fails).
    const status = response.status;
    throw new ShareCallError(status, body?.message ?? t`The server answered ${status}`);
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
