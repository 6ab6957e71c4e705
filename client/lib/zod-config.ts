import { z } from 'zod';

// Zod probes for eval (`new Function`) to compile faster parsers; under the app's CSP (script-src 'self')
// that probe is reported as a violation even though zod catches it. The client never needs the speed-up.
z.config({ jitless: true });
