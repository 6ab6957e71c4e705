import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { chunkGroups } from './scripts/build/chunk-groups.ts';
import { deepImports } from './scripts/build/deep-imports.ts';
import { linguiCatalogs, linguiMacros } from './scripts/build/lingui.ts';
import { MANTINE_BASE_ID, mantineStylesByComponent } from './scripts/build/mantine-styles.ts';
import { pagePreload } from './scripts/build/page-preload.ts';
import { precompressDir } from './scripts/build/precompress.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

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
  plugins: [
    // The screens' words in the user's language (client/i18n): Lingui's macros, and each language's catalogs.
    linguiMacros(),
    linguiCatalogs({ clientRoot: path.join(here, 'client') }),
    react(),
    // A first page loads a few chunks by what it needs, and only the styles of the components it draws.
    deepImports(['@mantine/core', '@mantine/hooks', '@tabler/icons-react']),
    mantineStylesByComponent(path.join(here, 'node_modules/@mantine/core/styles')),
    chunkGroups({ vendorAlso: MANTINE_BASE_ID }),
    // The page's chunks asked for with the app's, by the address (index.html's page-preload script).
    pagePreload({ clientRoot: path.join(here, 'client') }),
    precompress(),
  ],
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
