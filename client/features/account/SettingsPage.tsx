import {
  Button,
  Card,
  Group,
  Radio,
  Select,
  Skeleton,
  Stack,
  Switch,
  Tabs,
  Text,
  Title,
  VisuallyHidden,
  useMantineColorScheme,
} from '@mantine/core';
import { IconBell, IconPalette, IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { themes, type Preferences, type Theme } from '../../../src/auth/account.schema';
import { isLocale, LOCALES, localeNames } from '../../../src/i18n/locales';
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
      notify.error('Error', apiError(error, 'Failed to save your settings').message);
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

const AUTOMATIC = 'auto';
const languageOptions = [
  { value: AUTOMATIC, label: "Automatic (your browser's language)" },
  ...LOCALES.map((locale) => ({ value: locale, label: localeNames[locale] })),
];

/** The language of the user's mails: automatic (the browser they last signed in with) or one of ours. */
function MailLanguageSelect({ prefs }: { prefs: Preferences }) {
  const save = usePreferenceSave('Notifications updated');
  return (
    <Select
      label="Language of e-mails"
      description="Account and notification e-mails are written in it."
      data={languageOptions}
      value={prefs.language ?? AUTOMATIC}
      onChange={(value) => {
        const language = value === null || value === AUTOMATIC ? null : value;
        if (language === prefs.language || !(language === null || isLocale(language))) return;
        save({ language });
      }}
      allowDeselect={false}
      // Each language's name is written in it: said as such by screen readers.
      renderOption={({ option }) => (
        <span lang={option.value === AUTOMATIC ? undefined : option.value}>{option.label}</span>
      )}
      maw={360}
    />
  );
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
  if (prefs.isPending) return <Skeleton h={120} radius="md" aria-label="Loading settings" />;
  if (prefs.isError) return <ErrorAlert>Error loading your settings. Please try again later.</ErrorAlert>;
  return <>{children(prefs.data)}</>;
}

function SecurityTab() {
  const toggle = usePreferenceSwitch('Security settings updated');
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg">
        <Title order={3} size="h4" mb="md">
          Change Password
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
                label="Login alerts"
                description="Get an e-mail when your account is signed in from a browser or address not seen before."
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
  const toggle = usePreferenceSwitch('Notifications updated');
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg">
        <Title order={3} size="h4" mb="md">
          Email notifications
        </Title>
        <PreferencesLoader>
          {(prefs) => (
            <Stack gap="lg">
              <PreferenceSwitch
                prefs={prefs}
                name="productUpdates"
                label="Product updates"
                description="News about QR Creator features."
                onToggle={toggle}
              />
              <PreferenceSwitch
                prefs={prefs}
                name="scanDigest"
                label="QR code scans"
                description="A daily e-mail digest of yesterday's scans of each of your codes (only when there were any)."
                onToggle={toggle}
              />
              <PreferenceSwitch
                prefs={prefs}
                name="scanThresholds"
                label="Scan thresholds"
                description="An e-mail when one of your codes passes 100, 1,000, 10,000… scans."
                onToggle={toggle}
              />
              <MailLanguageSelect prefs={prefs} />
            </Stack>
          )}
        </PreferencesLoader>
      </Card>
      {isAdmin && <EmailTester />}
    </Stack>
  );
}

const themeLabels: Record<Theme, string> = { light: 'Light', dark: 'Dark', system: 'System' };

function AppearanceForm({ stored }: { stored: Theme }) {
  const [theme, setTheme] = useState<Theme>(stored);
  const { setColorScheme } = useMantineColorScheme();
  const utils = trpc.useUtils();
  const save = trpc.account.updatePreferences.useMutation({
    onSuccess: (prefs) => {
      utils.account.preferences.setData(undefined, prefs);
      setColorScheme(colorSchemeOf(prefs.theme));
      notify.success('Preferences saved', `Theme: ${themeLabels[prefs.theme]}`);
    },
    onError: (error) => notify.error('Error', apiError(error, 'Failed to save your preferences').message),
  });
  return (
    <Stack gap="md">
      <Radio.Group
        label="Theme"
        description="System follows your device's light or dark setting."
        value={theme}
        onChange={(value) => setTheme(value)}
      >
        <Group mt="xs" gap="lg">
          {themes.map((t) => (
            <Radio key={t} value={t} label={themeLabels[t]} />
          ))}
        </Group>
      </Radio.Group>
      <Button
        loading={save.isPending}
        onClick={() => save.mutate({ theme })}
        style={{ alignSelf: 'flex-start' }}
      >
        Save Preferences
      </Button>
    </Stack>
  );
}

function AppearanceTab() {
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={3} size="h4" mb="md">
        Appearance
      </Title>
      <PreferencesLoader>{(prefs) => <AppearanceForm stored={prefs.theme} />}</PreferencesLoader>
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
            <Title order={2}>Settings</Title>
          </VisuallyHidden>
          <Text c="dimmed" size="sm">
            Security, notifications and appearance of your account.
          </Text>
        </div>
      </Group>
      <Tabs defaultValue="security" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="security" leftSection={<IconShieldLock size={16} aria-hidden />}>
            Security
          </Tabs.Tab>
          <Tabs.Tab value="notifications" leftSection={<IconBell size={16} aria-hidden />}>
            Notifications
          </Tabs.Tab>
          <Tabs.Tab value="appearance" leftSection={<IconPalette size={16} aria-hidden />}>
            Appearance
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
