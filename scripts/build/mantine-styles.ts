// Mantine's stylesheet by component, in the chunk of the code that draws it (vite.config.ts). The whole
// of @mantine/core/styles.css (250 KB, 30 KB brotli) was on every first page, the login form's included.
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** What main.tsx imports first: Mantine's reset, default CSS variables and global rules. */
export const MANTINE_BASE = 'virtual:mantine-base-styles';
/** Its module id, for the vendor chunk (chunk-groups.ts). */
export const MANTINE_BASE_ID = `\0${MANTINE_BASE}`;

/**
 * In a build, each component's class-name module (`Button.module.mjs`) imports its stylesheet
 * (`styles/Button.css`): the styles go wherever the component's code goes, after those of the components
 * it is made of (their modules are imported first), as in styles.css; a component no page uses brings
 * none. Under `vite` (dev), where Mantine is pre-bundled, `virtual:mantine-base-styles` is the whole
 * styles.css.
 */
export function mantineStylesByComponent(stylesDir: string): Plugin {
  let build = true;
  return {
    name: 'qr-creator:mantine-styles',
    configResolved(config) {
      build = config.command === 'build';
    },
    resolveId: {
      filter: { id: new RegExp(`^${MANTINE_BASE}$`) },
      handler: () => MANTINE_BASE_ID,
    },
    load: {
      filter: { id: new RegExp(`^\\0${MANTINE_BASE}$`) },
      handler: () =>
        build
          ? ['baseline', 'default-css-variables', 'global']
              .map((name) => `import '@mantine/core/styles/${name}.css';`)
              .join('\n')
          : `import '@mantine/core/styles.css';`,
    },
    transform: {
      filter: { id: /@mantine[\\/]core[\\/]esm[\\/].+\.module\.mjs$/ },
      handler(code, id) {
        if (!build) return null;
        const name = path.basename(id, '.module.mjs');
        if (!fs.existsSync(path.join(stylesDir, `${name}.css`))) return null;
        return { code: `import '@mantine/core/styles/${name}.css';\n${code}`, map: null };
      },
    },
  };
}
