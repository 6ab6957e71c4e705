import { I18nProvider } from '@lingui/react';
import { useLingui } from '@lingui/react/macro';
import {
  DirectionProvider,
  MantineThemeProvider,
  useDirection,
  type MantineThemeOverride,
} from '@mantine/core';
import { useCallback, useMemo, type ReactNode } from 'react';
import { directionOf, type Locale } from '../../src/i18n/locales';
import { activateLanguage, browserLanguage, currentLanguage, i18n, storeLanguage } from './i18n';

/** The few words Mantine's components write themselves, in the user's language. */
function MantineWords({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  const toggle = t`Toggle password visibility`;
  // The theme names every close button "Close" (client/theme.ts): the same, in the user's language.
  const close = t`Close`;
  const words = useMemo<MantineThemeOverride>(
    () => ({
      components: {
        PasswordInput: { defaultProps: { visibilityToggleButtonProps: { 'aria-label': toggle } } },
        CloseButton: { defaultProps: { 'aria-label': close } },
      },
    }),
    [toggle, close],
  );
  return <MantineThemeProvider theme={words}>{children}</MantineThemeProvider>;
}

/** Lingui's messages, Mantine's own words and its writing direction, for the whole app. */
export function LanguageProvider({ children }: { children: ReactNode }) {
  return (
    <I18nProvider i18n={i18n}>
      <DirectionProvider initialDirection={directionOf(currentLanguage())} detectDirection={false}>
        <MantineWords>{children}</MantineWords>
      </DirectionProvider>
    </I18nProvider>
  );
}

/**
 * Switches the screens to a language: `null` follows the browser's. Kept in this browser at once; the caller
 * saves it to the account.
 */
export function useSwitchLanguage() {
  const { setDirection } = useDirection();
  return useCallback(
    async (choice: Locale | null) => {
      const locale = choice ?? browserLanguage();
      await activateLanguage(locale);
      storeLanguage(choice);
      setDirection(directionOf(locale));
    },
    [setDirection],
  );
}
