import { useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { useEffect } from 'react';
import type { Theme } from '../../../src/auth/account.schema';
import { trpc } from '../../lib/trpc';

export const colorSchemeOf = (theme: Theme): MantineColorScheme => (theme === 'system' ? 'auto' : theme);

/**
 * Applies the signed-in user's stored theme, so it follows them to every browser. Mantine keeps the last
 * scheme in localStorage too, so a reload paints the right one before the server answers.
 */
export function useStoredTheme() {
  const { setColorScheme } = useMantineColorScheme();
  const theme = trpc.account.preferences.useQuery(undefined, { select: (p) => p.theme }).data;
  useEffect(() => {
    if (theme) setColorScheme(colorSchemeOf(theme));
  }, [theme, setColorScheme]);
}
