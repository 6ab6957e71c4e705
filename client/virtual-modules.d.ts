// Modules that vite.config.ts makes up.

/** Mantine's reset, default CSS variables and global rules (the whole styles.css under `vite` dev). */
declare module 'virtual:mantine-base-styles' {}
