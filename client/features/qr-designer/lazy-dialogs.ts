// The designer's rarely shown dialogs, loaded when first wanted (lib/use-lazy-dialog.ts).

/** The question before creating, saving or downloading a design that won't scan (UnscannableDialog.tsx). */
export const loadUnscannableDialog = () => import('./UnscannableDialog').then((m) => m.UnscannableDialog);

/** 'QR Code Limit Reached' (LimitDialog.tsx). */
export const loadLimitDialog = () => import('./LimitDialog').then((m) => m.LimitDialog);

/** 'Change the short link?', before a scanned code's short link changes (SlugChangeDialog.tsx). */
export const loadSlugChangeDialog = () => import('./SlugChangeDialog').then((m) => m.SlugChangeDialog);
