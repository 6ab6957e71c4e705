import { authRouter } from '../features/auth/auth.router.js';
import { router } from './init.js';

export const appRouter = router({
  auth: authRouter,
});

export type AppRouter = typeof appRouter;
