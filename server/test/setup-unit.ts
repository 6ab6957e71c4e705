// Unit files share their worker's module cache (vitest.config.ts: isolate off). jsdom decides once, when
// first loaded, which JavaScript globals to copy into the windows it runs scripts in; a package loaded
// earlier by another file may have polyfilled a global that Node 20's fresh contexts lack (`Iterator`),
// and every window would then fail to start. Loading jsdom first in each worker keeps that list Node's own.
import 'jsdom';
import { i18n } from '@lingui/core';

// The client's words (Lingui): English, as the app activates it before drawing anything (client/i18n/i18n.ts),
// for the client modules a unit file imports alone.
if (!i18n.locale) i18n.loadAndActivate({ locale: 'en', messages: {} });
