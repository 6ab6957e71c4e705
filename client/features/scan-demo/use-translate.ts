// The scan result's words. ScanResult is also drawn on its own, with no I18nProvider around it, next to the
// landing pages it must match (src/qr/actions.test.ts): there Lingui's `useLingui` would throw, so the
// result reads the provider when there is one (and follows a change of language), else writes English.
import { setupI18n, type I18n, type MessageDescriptor } from '@lingui/core';
import { LinguiContext } from '@lingui/react';
import { useContext } from 'react';

let english: I18n | undefined;

/** `_` of the app's I18nProvider; English without one. */
export function useTranslate(): (descriptor: MessageDescriptor) => string {
  const lingui = useContext(LinguiContext);
  if (lingui) return lingui._;
  english ??= setupI18n({ locale: 'en', messages: { en: {} } });
  const i18n = english;
  return (descriptor) => i18n._(descriptor);
}
