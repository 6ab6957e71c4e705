// Unit files share their worker's module cache (vitest.config.ts: isolate off). jsdom decides once, when
// first loaded, which JavaScript globals to copy into the windows it runs scripts in; a package loaded
// earlier by another file may have polyfilled a global that Node 20's fresh contexts lack (`Iterator`),
// and every window would then fail to start. Loading jsdom first in each worker keeps that list Node's own.
import 'jsdom';
