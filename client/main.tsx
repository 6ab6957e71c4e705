import './lib/zod-config';
// Mantine's reset, CSS variables and global rules; each component's styles come with its code (vite.config.ts).
import 'virtual:mantine-base-styles';
import '@mantine/notifications/styles.css';
import './a11y.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { queryClient, trpc, trpcClient, trpcUtils } from './lib/trpc';
import { createAppRouter, preloadPageCode } from './router';
import { SkipLink } from './components/SkipLink';
import { Toasts } from './components/Toasts';
import { cssVariablesResolver, theme } from './theme';

const router = createAppRouter({ trpcUtils });
preloadPageCode(router, window.location.pathname);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* Light, dark or the system's choice; 'auto' follows the system until the user picks one. */}
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <SkipLink />
      <Toasts />
      <trpc.Provider client={trpcClient} queryClient={queryClient}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </trpc.Provider>
    </MantineProvider>
  </StrictMode>,
);
