import './lib/zod-config';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './a11y.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { queryClient, trpc, trpcClient, trpcUtils } from './lib/trpc';
import { createAppRouter } from './router';
import { SkipLink } from './components/SkipLink';
import { cssVariablesResolver, theme } from './theme';

const router = createAppRouter({ trpcUtils });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* Light, dark or the system's choice; 'auto' follows the system until the user picks one. */}
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <SkipLink />
      <Notifications limit={1} autoClose={5000} position="bottom-right" />
      <trpc.Provider client={trpcClient} queryClient={queryClient}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </trpc.Provider>
    </MantineProvider>
  </StrictMode>,
);
