import {
  Button,
  Card,
  Group,
  Radio,
  Skeleton,
  Stack,
  Switch,
  Tabs,
  Text,
  Title,
  VisuallyHidden,
  useMantineColorScheme,
} from '@mantine/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { IconBell, IconPalette, IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { themes, type Preferences, type Theme } from '../../../src/auth/account.schema';
import { localeNames, type Locale } from '../../../src/i18n/locales';
import { LanguageSelect } from '../../i18n/LanguageSelect';
import { useSwitchLanguage } from '../../i18n/LanguageProvider';
import { ErrorAlert } from '../../components/ErrorAlert';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { PasswordForm } from './PasswordForm';
import { ProfilePictureButton } from './ProfilePictureButton';
import { useCurrentUser } from '../auth/use-auth';
import { deviceTimeZone } from '../qr-designer/designer-values';
import { EmailTester } from './EmailTester';
import { ApiTokensCard } from './ApiTokensCard';
import { SessionsCard } from './SessionsCard';
import { TwoFactorSection } from './TwoFactorSection';
import { colorSchemeOf } from './use-stored-theme';

type Switchable = 'productUpdates' | 'scanDigest' | 'scanThresholds' | 'loginAlerts';

/** Saves preferences on change, with the toast the tab uses; the form shows the change at once. */
function usePreferenceSave(toast: string) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const update = trpc.account.updatePreferences.useMutation({
    // The switch moves at once; a refusal puts it back.
    onMutate: (input) => {
      const before = utils.account.preferences.getData();
      if (before) utils.account.preferences.setData(undefined, { ...before, ...input });
      return { before };
    },
    onSuccess: (prefs) => {
      utils.account.preferences.setData(undefined, prefs);
      notify.success(toast);
    },
    onError: (error, _input, context) => {
      if (context?.before) utils.account.preferences.setData(undefined, context.before);
      notify.error(t`Error`, apiError(error, t`Failed to save your settings`).message);
    },
  });
  return (changes: Partial<Preferences>) => update.mutate(changes);
}

/** A stored switch: saved on change, with the toast the tab uses. */
function usePreferenceSwitch(toast: string) {
  const save = usePreferenceSave(toast);
  return (key: Switchable, value: boolean) =>
    save({
      [key]: value,
      // The digest covers the user's yesterday: keep their zone with it.
      ...(key === 'scanDigest' && value ? { timeZone: deviceTimeZone() ?? 'UTC' } : {}),
    });
}

interface PreferenceSwitchProps {
  prefs: Preferences;
  name: Switchable;
  label: string;
  description: string;
  onToggle: (key: Switchable, value: boolean) => void;
}

function PreferenceSwitch({ prefs, name, label, description, onToggle }: PreferenceSwitchProps) {
  // Moves at once under the finger; when the stored value changes (saved, or put back after a refusal),
  // the switch follows it.
  const stored = prefs[name];
  const [checked, setChecked] = useState(stored);
  const [seen, setSeen] = useState(stored);
  if (stored !== seen) {
    setSeen(stored);
    setChecked(stored);
  }
  return (
    <Switch
      checked={checked}
      onChange={(e) => {
        setChecked(e.currentTarget.checked);
        onToggle(name, e.currentTarget.checked);
      }}
      label={label}
      description={description}
      size="md"
    />
  );
}

function PreferencesLoader({ children }: { children: (prefs: Preferences) => React.ReactNode }) {
  const prefs = trpc.account.preferences.useQuery();
  const { t } = useLingui();
  if (prefs.isPending) return <Skeleton h={120} radius="md" aria-label={t`Loading settings`} />;
  if (prefs.isError)
    return (
      <ErrorAlert>
        <Trans>Error loading your settings. Please try again later.</Trans>
      </ErrorAlert>
    );
  return <>{children(prefs.data)}</>;
}

function SecurityTab() {
  const { t } = useLingui();
  const toggle = usePreferenceSwitch(t`Security settings updated`);
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg">
        <Title order={3} size="h4" mb="md">
          <Trans>Change Password</Trans>
        </Title>
        <PasswordForm variant="settings" />
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Stack gap="lg">
          <TwoFactorSection />
          <PreferencesLoader>
            {(prefs) => (
              <PreferenceSwitch
                prefs={prefs}
                name="loginAlerts"
                label={t`Login alerts`}
                description={t`Get an e-mail when your account is signed in from a browser or address not seen before.`}
                onToggle={toggle}
              />
            )}
          </PreferencesLoader>
        </Stack>
      </Card>
      <SessionsCard />
      <ApiTokensCard />
    </Stack>
  );
}

function NotificationsTab({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useLingui();
  const toggle = usePreferenceSwitch(t`Notifications updated`);
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg">
        <Title order={3} size="h4" mb="md">
          <Trans>Email notifications</Trans>
        </Title>
        <PreferencesLoader>
          {(prefs) => (
            <Stack gap="lg">
              <PreferenceSwitch
                prefs={prefs}
                name="productUpdates"
                label={t`Product updates`}
                description={t`News about QR Creator features.`}
                onToggle={toggle}
              />
              <PreferenceSwitch
                prefs={prefs}
                name="scanDigest"
                label={t`QR code scans`}
                description={t`A daily e-mail digest of yesterday's scans of each of your codes (only when there were any).`}
                onToggle={toggle}
              />
              <PreferenceSwitch
                prefs={prefs}
                name="scanThresholds"
                label={t`Scan thresholds`}
                description={t`An e-mail when one of your codes passes 100, 1,000, 10,000… scans.`}
                onToggle={toggle}
              />
            </Stack>
          )}
        </PreferencesLoader>
      </Card>
      {isAdmin && <EmailTester />}
    </Stack>
  );
}

const themeLabels: Record<Theme, MessageDescriptor> = {
  light: msg({ message: 'Light', context: 'colour theme' }),
  dark: msg({ message: 'Dark', context: 'colour theme' }),
  system: msg({ message: 'System', context: 'colour theme: follow the device' }),
};

function AppearanceForm({ stored }: { stored: Preferences }) {
  const { t } = useLingui();
  const [theme, setTheme] = useState<Theme>(stored.theme);
  const [language, setLanguage] = useState<Locale | null>(stored.language);
  const { setColorScheme } = useMantineColorScheme();
  const switchLanguage = useSwitchLanguage();
  const utils = trpc.useUtils();
  const save = trpc.account.updatePreferences.useMutation({
    onSuccess: async (prefs) => {
      utils.account.preferences.setData(undefined, prefs);
      setColorScheme(colorSchemeOf(prefs.theme));
      // The toast is written in the language just chosen.
      if (prefs.language !== stored.language) await switchLanguage(prefs.language);
      const themeName = t(themeLabels[prefs.theme]);
      const languageName = prefs.language ? localeNames[prefs.language] : t`Automatic`;
      notify.success(
        t`Preferences saved`,
        prefs.language !== stored.language
          ? t`Theme: ${themeName} · Language: ${languageName}`
          : t`Theme: ${themeName}`,
      );
    },
    onError: (error) => notify.error(t`Error`, apiError(error, t`Failed to save your preferences`).message),
  });
  return (
    <Stack gap="md">
      <Radio.Group
        label={t`Theme`}
        description={t`System follows your device's light or dark setting.`}
        value={theme}
        onChange={(value) => setTheme(value)}
      >
        <Group mt="xs" gap="lg">
          {themes.map((option) => (
            <Radio key={option} value={option} label={t(themeLabels[option])} />
          ))}
        </Group>
      </Radio.Group>
      <LanguageSelect value={language} onChange={setLanguage} />
      <Button
        loading={save.isPending}
        onClick={() => save.mutate({ theme, language })}
        style={{ alignSelf: 'flex-start' }}
      >
        <Trans>Save Preferences</Trans>
      </Button>
    </Stack>
  );
}

function AppearanceTab() {
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={3} size="h4" mb="md">
        <Trans>Appearance</Trans>
      </Title>
      <PreferencesLoader>{(prefs) => <AppearanceForm stored={prefs} />}</PreferencesLoader>
    </Card>
  );
}

/** /settings: Security, Notifications, Appearance, and the profile picture. */
export function SettingsPage() {
  const user = useCurrentUser();
  if (!user) return null;
  return (
    <Stack gap="lg" maw={820}>
      <Group gap="lg" wrap="nowrap">
        <ProfilePictureButton user={user} size={72} />
        <div>
          {/* The header already shows the page's name: said once on screen, kept for the outline. */}
          <VisuallyHidden>
            <Title order={2}>
              <Trans>Settings</Trans>
            </Title>
          </VisuallyHidden>
          <Text c="dimmed" size="sm">
            <Trans>Security, notifications and appearance of your account.</Trans>
          </Text>
        </div>
      </Group>
      <Tabs defaultValue="security" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="security" leftSection={<IconShieldLock size={16} aria-hidden />}>
            <Trans>Security</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="notifications" leftSection={<IconBell size={16} aria-hidden />}>
            <Trans>Notifications</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="appearance" leftSection={<IconPalette size={16} aria-hidden />}>
            <Trans>Appearance</Trans>
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="security" pt="lg">
          <SecurityTab />
        </Tabs.Panel>
        <Tabs.Panel value="notifications" pt="lg">
          <NotificationsTab isAdmin={user.isAdmin} />
        </Tabs.Panel>
        <Tabs.Panel value="appearance" pt="lg">
          <AppearanceTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
