import { Button, Stack } from '@mantine/core';
import { Trans } from '@lingui/react/macro';
import { IconBuilding } from '@tabler/icons-react';
import type { PublicConfig } from '../../../src/auth/auth.schema';

/** Where "Sign in with <name>" goes: the server's start of the provider's sign-in (a full page load). */
export function ssoStartHref(providerId: string, returnTo: string): string {
  return `/api/auth/oidc/${encodeURIComponent(providerId)}/start?${new URLSearchParams({ redirect: returnTo }).toString()}`;
}

/**
 * One full-width "Sign in with <name>" per configured OpenID Connect provider. Plain links, not fetches:
 * the browser itself goes through the provider's sign-in page and comes back to the app.
 */
export function SsoButtons({
  providers,
  returnTo,
}: {
  providers: PublicConfig['sso']['providers'];
  returnTo: string;
}) {
  if (providers.length === 0) return null;
  return (
    <Stack gap="sm">
      {providers.map(({ id, name }) => (
        <Button
          key={id}
          component="a"
          href={ssoStartHref(id, returnTo)}
          variant="default"
          fullWidth
          leftSection={<IconBuilding aria-hidden size={18} />}
        >
          <Trans>Sign in with {name}</Trans>
        </Button>
      ))}
    </Stack>
  );
}
