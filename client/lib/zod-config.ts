// Only zod's core config, so the entry chunk does not carry the whole library (the schemas load with
// the pages that use them).
import { config } from 'zod/v4/core';

// Zod probes for eval (`new Function`) to compile faster parsers; under the app's CSP (script-src 'self')
// that probe is reported as a violation even though zod catches it. The client never needs the speed-up.
config({ jitless: true });
