// Modules that vite.config.ts makes up.

/** Mantine's reset, default CSS variables and global rules (the whole styles.css under `vite` dev). */
declare module 'virtual:mantine-base-styles' {}

/** One language's messages, every catalog of the client merged and compiled (scripts/build/lingui.ts). */
declare module 'virtual:lingui-messages/*' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
