import { useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { apiError, queryClient, trpc, trpcUtils } from '../../lib/trpc';
import { notify } from '../../lib/notify';

/** The signed-in user (the app routes guarantee one is loaded before they render). */
export function useCurrentUser() {
  return trpc.auth.me.useQuery().data ?? null;
}

export function useLogout() {
  const { t } = useLingui();
  const navigate = useNavigate();
  return trpc.auth.logout.useMutation({
    onSuccess: async ({ logoutUrl }) => {
      queryClient.clear();
      trpcUtils.auth.me.setData(undefined, null);
      notify.success(t`Logged out`, t`You have been logged out successfully.`);
      // Signed in through a company account: its provider signs the person out too (its own page), else
      // the next visit would sign them straight back in.
      if (logoutUrl) window.location.assign(logoutUrl);
      else await navigate({ to: '/auth' });
    },
    onError: (error) => notify.error(t`Logout failed`, apiError(error, t`Logout failed`).message),
  });
}
