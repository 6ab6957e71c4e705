import { translateShared } from '../i18n/shared-messages';

/**
 * The server's { message } of a failed call (in the user's language when it is a known one), else
 * "status: body text", else the status text.
 */
export async function failureMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return translateShared(body.message);
  } catch {
    // not JSON: fall through to the text
  }
  return `${res.status}: ${text.trim() || res.statusText}`;
}
