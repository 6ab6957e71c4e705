import { authRouter } from '../features/auth/auth.router.js';
import { foldersRouter } from '../features/folders/folders.router.js';
import { qrRouter } from '../features/qr/qr.router.js';
import { router } from './init.js';

export const appRouter = router({
  auth: authRouter,
  qr: qrRouter,
  folders: foldersRouter,
});

export type AppRouter = typeof appRouter;
