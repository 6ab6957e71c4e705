import { t } from '@lingui/core/macro';
import { notify } from '../../lib/notify';

/** Native share with title, text and url where the browser has it; else the URL goes to the clipboard. */
export async function shareQr({ title, url }: { title: string; url: string }) {
  const data = { title, text: t`${title} — QR code`, url };
  if (typeof navigator.share === 'function' && (navigator.canShare?.(data) ?? true)) {
    try {
      await navigator.share(data);
      return;
    } catch (error) {
      if ((error as Error).name === 'AbortError') return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    notify.success(t`URL Copied`, t`URL copied to clipboard!`);
  } catch {
    notify.error(t`Share Failed`, t`Copy this link by hand: ${url}`);
  }
}
