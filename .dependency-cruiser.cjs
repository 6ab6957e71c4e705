/**
 * The folder rule (npm run lint): no two folders import each other, directly or round a longer loop.
 * dpdm (lint:cycles) already refuses file-level cycles; this sees folders, so a feature folder that
 * reaches into another which reaches back is refused even when no single file closes a loop.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment:
        'Two feature folders import each other. Move what both need into one of them, or into a folder both may use (src/, server/*.ts, client/lib, client/components).',
      scope: 'folder',
      from: { path: '^(server|client)/features/' },
      to: { path: '^(server|client)/features/', circular: true },
    },
  ],
  options: {
    // Only the feature folders are in the graph: the composition roots that import every feature
    // (server/app.ts, server/trpc/app-router.ts, client/router.tsx) and the shared folders features
    // use (server/*.ts, server/trpc, src/, client/lib, client/components) are not features.
    includeOnly: '^(server|client)/features/',
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|\\.test\\.tsx?$|\\.e2e\\.ts$|^client/e2e/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
