import { useEffect } from 'react';
import { isLocale } from '../../src/i18n/locales';
import { trpc } from '../lib/trpc';
import { storedLanguage } from './i18n';
import { useSwitchLanguage } from './LanguageProvider';

/**
 * Applies the signed-in user's stored language (Settings → Appearance), so it follows them to every
 * browser; this browser keeps it too, so a reload paints in it before the server answers.
 */
export function useStoredLanguage() {
  const language = trpc.account.preferences.useQuery(undefined, { select: (p) => p.language }).data;
  const switchLanguage = useSwitchLanguage();
  useEffect(() => {
    if (language === undefined) return;
    const chosen = isLocale(language) ? language : null;
    if (chosen !== storedLanguage()) void switchLanguage(chosen);
  }, [language, switchLanguage]);
}
