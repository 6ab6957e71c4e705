import { useEffect, useState } from 'react';
import type { Customization } from '../../../src/qr/customization';
import type { ScanCheck } from '../../../src/qr/scan-safety';
import { checkInBrowser } from './check-in-browser';

export type ScanCheckState =
  | { status: 'idle' }
  | { status: 'checking'; previous: ScanCheck | null }
  | { status: 'done'; check: ScanCheck }
  | { status: 'error' };

const DEBOUNCE_MS = 250;

/**
 * The live scan-safety check of a design: re-run 250 ms after the content or design stops changing; a
 * result that arrives after a newer change is dropped. `data` null: nothing to check. While a newer
 * check runs, the last verdict stays on screen (dimmed) instead of flickering away.
 */
export function useScanCheck(data: string | null, customization: Customization): ScanCheckState {
  const key = data === null ? null : JSON.stringify([data, customization]);
  const [result, setResult] = useState<{ key: string; check: ScanCheck | null } | null>(null);

  useEffect(() => {
    if (data === null || key === null) return;
    let current = true;
    const timer = setTimeout(() => {
      checkInBrowser(data, customization).then(
        (check) => current && setResult({ key, check }),
        () => current && setResult({ key, check: null }),
      );
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // `key` stands for data and customization (a new object on every render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  if (key === null) return { status: 'idle' };
  if (result?.key === key)
    return result.check ? { status: 'done', check: result.check } : { status: 'error' };
  return { status: 'checking', previous: result?.check ?? null };
}
