import './lib/zod-config';
// Mantine's reset, CSS variables and global rules; each component's styles come with its code (vite.config.ts).
import 'virtual:mantine-base-styles';
import '@mantine/notifications/styles.css';
import './a11y.css';
import { MantineProvider } from '@mantine/core';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { activateLanguage, initialLanguage } from './i18n/i18n';
import { LanguageProvider } from './i18n/LanguageProvider';
import { loadApi } from './lib/load-api';
import { createAppRouter, preloadPageCode } from './router';
import { SkipLink } from './components/SkipLink';
import { Toasts } from './components/Toasts';
import { cssVariablesResolver, theme } from './theme';

// The tRPC client and React Query load apart (lib/load-api.ts); their providers wrap the pages that use
// them (router.tsx).
const router = createAppRouter({ api: loadApi });
preloadPageCode(router, window.location.pathname);

function render() {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      {/* Light, dark or the system's choice; 'auto' follows the system until the user picks one. */}
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
        <LanguageProvider>
          <SkipLink />
          <Toasts />
          <RouterProvider router={router} />
        </LanguageProvider>
      </MantineProvider>
    </StrictMode>,
  );
}

// The first frame is drawn in the user's language: another language's messages are fetched first (English
// is in the code). A catalog that fails to load leaves the app in English rather than blank.
activateLanguage(initialLanguage()).then(render, () => activateLanguage('en').then(render));
