import { useRouter } from '@tanstack/react-router';
import type { User } from '../../../src/auth/auth.schema';
import { loadApi } from '../../lib/load-api';
import { workspaceInUse } from '../../lib/workspace-state';
import { rememberUsername } from './last-username';

/**
 * After a sign-in or a registration: remembers the username (the login form offers it next time instead
 * of the demo account), stores the user, then fetches the app shell's and the dashboard's code while the
 * form's button still spins (and the workspace it opens in), and only then goes to /. The page turns into the app in one step: never a
 * blank full-page spinner in between while those chunks load.
 */
export function useEnterApp(demoUsername: string | undefined) {
  const router = useRouter();
  return async (user: User) => {
    rememberUsername(user.username, demoUsername);
    const { trpcUtils } = await loadApi();
    trpcUtils.auth.me.setData(undefined, user);
    // A workspace another person chose in this tab is not theirs: forgotten before anything is asked.
    workspaceInUse(user.id);
    try {
      // The workspace the app opens in (the user's remembered one) too: the shell's route asks for it
      // before it draws, and a round trip more there would show the blank spinner.
      await Promise.all([router.preloadRoute({ to: '/' }), trpcUtils.workspaces.current.prefetch()]);
    } catch {
      // A chunk that failed to load is loaded (and its failure shown) by the navigation itself.
    }
    await router.navigate({ to: '/' });
  };
}
