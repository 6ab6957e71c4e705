import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompressDir } from './scripts/build/precompress.ts';

/** Brotli and gzip copies of the built client, beside each file (scripts/build/precompress.ts). */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'qr-creator:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}

const api = 'http://localhost:3000';

export default defineConfig({
  root: 'client',
  plugins: [react(), precompress()],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
  },
  // The scan check's decoder worker (client/features/scan-safety) is a module worker.
  worker: { format: 'es' },
  server: {
    port: 5173,
    proxy: { '/trpc': api, '/api': api, '^/r/': api },
  },
});
