import { Box, Center, Group, Paper, SimpleGrid, Stack, Tabs, Text, ThemeIcon, Title } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { ForgotPasswordPanel } from './ForgotPasswordPanel';
import { LoginForm } from './LoginForm';
import { MarketingPanel } from './MarketingPanel';
import { RegisterForm } from './RegisterForm';

type Panel = 'login' | 'register' | 'forgot';

export function AuthPage() {
  const [panel, setPanel] = useState<Panel>('login');
  useEffect(() => {
    document.title = 'Sign in · QR Creator';
  }, []);

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing={0} mih="100dvh">
      <Center p="md" component="main">
        <Stack w="100%" maw={420} gap="lg">
          <Group gap="sm" justify="center">
            <ThemeIcon size={44} radius="md" aria-hidden>
              <IconQrcode size={28} />
            </ThemeIcon>
            <div>
              <Title order={1} size="h2">
                QR Creator
              </Title>
              <Text size="sm" c="dimmed">
                Create, manage and track QR codes
              </Text>
            </div>
          </Group>
          <Paper withBorder shadow="sm" p="lg" radius="md">
            {panel === 'forgot' ? (
              <ForgotPasswordPanel onBack={() => setPanel('login')} />
            ) : (
              <Tabs
                keepMounted={false}
                value={panel}
                onChange={(v) => setPanel(v === 'register' ? 'register' : 'login')}
              >
                <Tabs.List grow mb="lg">
                  <Tabs.Tab value="login">Login</Tabs.Tab>
                  <Tabs.Tab value="register">Register</Tabs.Tab>
                </Tabs.List>
                <Tabs.Panel value="login">
                  <LoginForm onForgotPassword={() => setPanel('forgot')} />
                </Tabs.Panel>
                <Tabs.Panel value="register">
                  <RegisterForm onVerificationRequired={() => setPanel('login')} />
                </Tabs.Panel>
              </Tabs>
            )}
          </Paper>
        </Stack>
      </Center>
      {/* The marketing panel is shown on large screens only. */}
      <Box visibleFrom="md">
        <MarketingPanel />
      </Box>
    </SimpleGrid>
  );
}
