import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { config } from 'zod/v4/core';

describe('zod-config', () => {
  it('turns off zod’s eval probe and fast parsers through the global zod reads', async () => {
    const before = config().jitless;
    try {
      await import('./zod-config');
      expect(config().jitless).toBe(true);
      expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
    } finally {
      // The unit files share a worker: the server's tests keep zod's default.
      config({ jitless: before });
    }
  });
});
