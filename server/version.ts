// The running build's version, from package.json (inlined into dist/server.mjs by esbuild).
// CHANGELOG.md has a section per version; the start log, `version`, /metrics and the executable name it.
import pkg from '../package.json' with { type: 'json' };

export const APP_VERSION: string = pkg.version;
