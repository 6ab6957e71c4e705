import { useNavigate } from '@tanstack/react-router';
import { apiError, queryClient, trpc, trpcUtils } from '../../lib/trpc';
import { notify } from '../../lib/notify';

/** The signed-in user (the app routes guarantee one is loaded before they render). */
export function useCurrentUser() {
  return trpc.auth.me.useQuery().data ?? null;
}

export function useLogout() {
  const navigate = useNavigate();
  return trpc.auth.logout.useMutation({
    onSuccess: async ({ logoutUrl }) => {
      queryClient.clear();
      trpcUtils.auth.me.setData(undefined, null);
      notify.success('Logged out', 'You have been logged out successfully.');
      // Signed in through a company account: its provider signs the person out too (its own page), else
      // the next visit would sign them straight back in.
      if (logoutUrl) window.location.assign(logoutUrl);
      else await navigate({ to: '/auth' });
    },
    onError: (error) => notify.error('Logout failed', apiError(error, 'Logout failed').message),
  });
}
