/**
 * The scan-safety check on its own thread (what the built server runs) gives the verdicts the check gives
 * on the calling thread, logo included, and the thread ends when idle or closed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { customizationSchema, type Customization } from '../../../src/qr/customization';
import { renderQrPng, renderQrSvgNode } from './qr-image';
import { checkDesign } from './scan-check';
import { startScanCheckThread } from './scan-check-thread';

const design = (c: Partial<Customization>) => customizationSchema.parse(c);
const UPLOAD = '/api/uploads/0b7d2c1e-3f4a-4b5c-8d6e-7f8091a2b3c4';

describe('the scan check thread', { timeout: 60_000 }, () => {
  const thread = startScanCheckThread({ idleMs: 300 });
  afterAll(() => thread.close());

  it('gives the same verdicts as the check on this thread', async () => {
    // A logo: any PNG will do, here a rendered code of its own.
    const png = renderQrPng(await renderQrSvgNode('logo', design({}), 120), 120);
    const reads: string[] = [];
    const resolveLogo = (url: string) => {
      reads.push(url);
      return Promise.resolve(url === UPLOAD ? { bytes: png, mime: 'image/png' } : null);
    };
    const cases: [string, Customization][] = [
      ['https://example.com/menu', design({})],
      ['https://example.com/menu', design({ foregroundColor: '#EEEEEE', backgroundColor: '#FFFFFF' })],
      [
        'WIFI:T:WPA;S:Cafe;P:secret;;',
        design({
          style: 'dots',
          frame: { enabled: true, text: 'Scan Me', style: 'rounded', color: '#047857' },
        }),
      ],
      ['https://example.com/logo', design({ logo: { url: UPLOAD, size: 40 }, errorCorrectionLevel: 'H' })],
    ];
    const verdicts: string[] = [];
    for (const [data, customization] of cases) {
      const here = await checkDesign(data, customization, resolveLogo);
      const there = await thread.check(data, customization, resolveLogo);
      expect(there).toEqual(here);
      verdicts.push(there.verdict);
    }
    // The pale design does not scan: the cases are not all alike.
    expect(verdicts[0]).toBe('scannable');
    expect(verdicts[1]).toBe('unscannable');
    // The logo was read on this thread, once for each check that drew it.
    expect(reads).toEqual([UPLOAD, UPLOAD]);
  });

  it('ends when idle, and starts again for the next check', async () => {
    await thread.check('https://example.com/idle', design({}));
    expect(thread.running()).toBe(true);
    await expect.poll(() => thread.running(), { timeout: 10_000 }).toBe(false);
    const check = await thread.check('https://example.com/again', design({}));
    expect(check.verdict).toBe('scannable');
  });

  it('refuses the checks waiting when closed', async () => {
    const refused = expect(thread.check('https://example.com/closed', design({}))).rejects.toThrow(/closed/);
    await thread.close();
    await refused;
    expect(thread.running()).toBe(false);
  });
});
