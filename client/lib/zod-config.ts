// Zod probes for eval (`new Function`) to compile faster parsers; under the app's CSP (script-src 'self')
// that probe is reported as a violation even though zod catches it. The client never needs the speed-up.
//
// Set through the global object zod reads its configuration from (`config()` of zod/v4/core keeps it
// there, whichever module loads first), so that this module, in the entry chunk, loads no zod at all:
// zod comes with the pages whose forms use it. zod-config.test.ts checks zod still reads it there.
const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(scope.__zod_globalConfig ??= {}).jitless = true;

export {};
