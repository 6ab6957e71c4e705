import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, AppShell, Box, Burger, Button, Group, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconApi, IconCrown, IconHelpCircle } from '@tabler/icons-react';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { Suspense, lazy, useEffect } from 'react';
import { FullPageLoader } from '../../components/FullPageLoader';
import { translateShared } from '../../i18n/shared-messages';
import { useLazyDialog } from '../../lib/use-lazy-dialog';
import { useCurrentUser } from '../auth/use-auth';
import { useStoredTheme } from '../account/use-stored-theme';
import { useStoredLanguage } from '../../i18n/use-stored-language';
import { useCurrentWorkspace } from '../workspaces/use-current-workspace';
import { WorkspaceNotFound } from '../workspaces/WorkspaceNotFound';
import { Brand } from './Brand';
import { documentTitle, headerTitle } from './header-title';
import { NavContent } from './NavContent';
import { UserMenu } from './UserMenu';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';
import { useWorkspacePlan } from '../workspaces/use-workspace-plan';
import { useIdlePreload } from './use-idle-preload';

const HelpDialog = lazy(() => import('../help/HelpDialog').then((m) => ({ default: m.HelpDialog })));

/** 64 spacing units of 4 px, as the spec's sidebar. */
const SIDEBAR_WIDTH = 256;

/** The phone's navigation drawer, loaded on the menu's first opening (lib/use-lazy-dialog.ts). */
const loadNavDrawer = () => import('./NavDrawer').then((m) => m.NavDrawer);

/** Under every page: where the REST API is documented. */
function Footer() {
  return (
    <Box
      component="footer"
      mt="xl"
      pt="md"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group gap="lg" justify="center">
        <Anchor href="/api/docs" size="sm" c="dimmed">
          <Group gap={6} wrap="nowrap" component="span">
            <IconApi size={16} aria-hidden />
            <Trans>API documentation</Trans>
          </Group>
        </Anchor>
      </Group>
    </Box>
  );
}

export function AppLayout() {
  // The titles below are translated with the global i18n: this re-renders them when the language changes.
  const { t } = useLingui();
  const user = useCurrentUser();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const [menuOpened, menu] = useDisclosure(false);
  const [helpOpened, help] = useDisclosure(false);
  // The phone's navigation drawer (its modal, scroll lock and focus trap) comes with its code when the menu
  // is first opened; it is drawn once that has arrived, closed then open, as a drawer always in the tree.
  const drawer = useLazyDialog(loadNavDrawer, menuOpened, { onFailed: menu.close });
  const { notFound } = useCurrentWorkspace();
  const { offer } = useWorkspacePlan(user ?? { isAdmin: false });
  const title = documentTitle(pathname);
  const heading = headerTitle(pathname);
  useStoredTheme();
  useStoredLanguage();
  useIdlePreload();
  // Mantine's sm breakpoint: 48em = 768 px. Read synchronously so the first paint is right.
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });

  useEffect(() => {
    document.title = title;
  }, [title]);

  if (!user) return <FullPageLoader />;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: SIDEBAR_WIDTH, breakpoint: 'sm', collapsed: { mobile: true } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Burger
              opened={menuOpened}
              onClick={menu.toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={menuOpened ? t`Close menu` : t`Open menu`}
            />
            {wide && (
              <Box w={SIDEBAR_WIDTH - 16} style={{ flexShrink: 0 }}>
                <Brand />
              </Box>
            )}
            <Title order={1} size="h3" lineClamp={1}>
              {heading}
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {/* On a phone the switcher heads the navigation drawer instead. */}
            {wide && <WorkspaceSwitcher />}
            <Button
              visibleFrom="sm"
              variant="subtle"
              leftSection={<IconHelpCircle size={18} aria-hidden />}
              onClick={help.open}
            >
              <Trans>Help</Trans>
            </Button>
            {offer && (
              <Button
                visibleFrom="sm"
                component={Link}
                to="/upgrade"
                variant="gradient"
                gradient={{ from: 'blue', to: 'grape' }}
                leftSection={<IconCrown size={18} aria-hidden />}
              >
                {translateShared(offer.label)}
              </Button>
            )}
            <UserMenu user={user} onHelp={help.open} />
          </Group>
        </Group>
      </AppShell.Header>

      {wide ? (
        <AppShell.Navbar>
          <NavContent user={user} />
        </AppShell.Navbar>
      ) : (
        // Under 768 px: a slide-in sidebar over a dark overlay (NavDrawer.tsx), drawn from its first opening.
        drawer.Dialog &&
        drawer.mounted && (
          <drawer.Dialog opened={drawer.opened} onClose={menu.close} width={SIDEBAR_WIDTH} user={user} />
        )
      )}

      <AppShell.Main>
        <Box mih="calc(100dvh - 60px - 2 * var(--mantine-spacing-md) - 5rem)">
          {notFound ? <WorkspaceNotFound personalId={user.id} /> : <Outlet />}
        </Box>
        <Footer />
      </AppShell.Main>

      {helpOpened && (
        <Suspense fallback={null}>
          <HelpDialog opened={helpOpened} onClose={help.close} />
        </Suspense>
      )}
    </AppShell>
  );
}
