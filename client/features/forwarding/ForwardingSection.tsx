import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  PasswordInput,
  Radio,
  Select,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type ChangeEvent } from 'react';
import {
  forwardingSettingsInput,
  PLAUSIBLE_DEFAULT_URL,
  providerLabels,
  type AddressMode,
  type ForwardingProvider,
  type ForwardingSettings,
  type ForwardingTestAnswer,
} from '../../../src/forwarding/forwarding.schema';
import { ErrorAlert } from '../../components/ErrorAlert';
import { exactTime, formatCount, relativeTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { apiError, trpc } from '../../lib/trpc';
import { useNow } from '../../lib/use-now';

type Choice = ForwardingProvider | 'none';

interface Draft {
  provider: Choice;
  matomoUrl: string;
  siteId: number | string;
  tokenAuth: string;
  plausibleUrl: string;
  domain: string;
  measurementId: string;
  apiSecret: string;
  enabled: boolean;
  address: AddressMode;
}

/** The draft's fields typed as text. */
type TextKey = 'matomoUrl' | 'tokenAuth' | 'plausibleUrl' | 'domain' | 'measurementId' | 'apiSecret';

const emptyDraft: Draft = {
  provider: 'none',
  matomoUrl: '',
  siteId: '',
  tokenAuth: '',
  plausibleUrl: PLAUSIBLE_DEFAULT_URL,
  domain: '',
  measurementId: '',
  apiSecret: '',
  enabled: true,
  address: 'masked',
};

/** The form's fields from the stored settings (secrets are never answered: their fields start empty). */
function draftOf(settings: ForwardingSettings | null): Draft {
  if (!settings) return emptyDraft;
  const base = {
    ...emptyDraft,
    provider: settings.provider,
    enabled: settings.enabled,
    address: settings.address,
  };
  if (settings.provider === 'matomo') return { ...base, matomoUrl: settings.url, siteId: settings.siteId };
  if (settings.provider === 'plausible')
    return { ...base, plausibleUrl: settings.url, domain: settings.domain };
  return { ...base, measurementId: settings.measurementId };
}

/** The request body of a draft (a secret left empty is left out: the server keeps the stored one). */
function inputOf(draft: Draft) {
  const common = { enabled: draft.enabled, address: draft.address };
  switch (draft.provider) {
    case 'matomo':
      return {
        provider: 'matomo' as const,
        url: draft.matomoUrl,
        siteId: draft.siteId,
        ...(draft.tokenAuth ? { tokenAuth: draft.tokenAuth } : {}),
        ...common,
      };
    case 'plausible':
      return { provider: 'plausible' as const, url: draft.plausibleUrl, domain: draft.domain, ...common };
    case 'ga4':
      return {
        provider: 'ga4' as const,
        measurementId: draft.measurementId,
        ...(draft.apiSecret ? { apiSecret: draft.apiSecret } : {}),
        ...common,
      };
    default:
      return null;
  }
}

const addressHelp: Record<AddressMode, string> = {
  none: 'No address is passed on: locations and unique visitors are less precise.',
  masked: 'The last part of the address is zeroed (IPv4: last number; IPv6: last 80 bits).',
  full: 'The address as this server keeps it (already masked when the server anonymizes addresses).',
};

/**
 * Forward scans to web analytics (issue 36, item 2): the workspace's provider (Matomo, Plausible, Google
 * Analytics 4) and its fields, what client address is passed on, on or off, a test event, and how the
 * last deliveries went. Its admins only: others see the server's refusal.
 */
export function ForwardingSection() {
  const query = trpc.forwarding.get.useQuery();
  const now = useNow();
  const settings = query.data?.settings ?? null;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="forwarding-title">
      <Stack gap="md">
        <div>
          <Title order={3} size="h4" id="forwarding-title">
            Forward scans to web analytics
          </Title>
          <Text size="sm" c="dimmed">
            Each scan of this workspace&apos;s codes is sent from the server to your analytics, with the
            code&apos;s name as the campaign (source and medium &quot;qr&quot;). No cookies are set; redirects
            never wait for it.
          </Text>
        </div>
        {query.isPending && (
          <Stack gap="sm" aria-busy="true" aria-label="Loading the forwarding settings">
            <Skeleton h={36} />
            <Skeleton h={36} />
            <Skeleton h={36} />
          </Stack>
        )}
        {query.isError && (
          <ErrorAlert>
            {apiError(query.error, 'Error loading the forwarding settings. Please try again later.').message}
          </ErrorAlert>
        )}
        {/* A new form each time the stored settings change (saved, removed): it starts from what is stored. */}
        {query.data && <ForwardingForm key={settings?.updatedAt ?? 'none'} settings={settings} now={now} />}
      </Stack>
    </Card>
  );
}

function ForwardingForm({ settings, now }: { settings: ForwardingSettings | null; now: number }) {
  const utils = trpc.useUtils();
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [testResult, setTestResult] = useState<ForwardingTestAnswer | null>(null);

  const refresh = () => utils.forwarding.get.invalidate();
  const save = trpc.forwarding.save.useMutation({
    onSuccess: async () => {
      notify.success('Saved', 'Scans are forwarded as set.');
      await refresh();
    },
    onError: (error) => notify.error('Error', apiError(error, 'Failed to save the forwarding').message),
  });
  const remove = trpc.forwarding.remove.useMutation({
    onSuccess: async () => {
      notify.success('Saved', 'Scans are no longer forwarded.');
      setTestResult(null);
      await refresh();
    },
    onError: (error) => notify.error('Error', apiError(error, 'Failed to stop the forwarding').message),
  });
  const test = trpc.forwarding.test.useMutation({
    onSuccess: async (answer) => {
      setTestResult(answer);
      await refresh();
    },
    onError: (error) => notify.error('Error', apiError(error, 'Failed to send a test event').message),
  });

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };
  /** A text field's value, change and error, bound to its key of the draft. */
  const textProps = (key: TextKey) => ({
    value: draft[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(key, e.currentTarget.value),
    error: errors[key],
  });

  const onSave = () => {
    const input = inputOf(draft);
    if (input === null) {
      if (settings) remove.mutate();
      return;
    }
    const parsed = forwardingSettingsInput.safeParse(input);
    if (!parsed.success) {
      const byField: Record<string, string> = {};
      const fieldOf: Record<string, keyof Draft> = {
        url: draft.provider === 'matomo' ? 'matomoUrl' : 'plausibleUrl',
      };
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? '');
        byField[fieldOf[key] ?? key] ??= issue.message;
      }
      setErrors(byField);
      return;
    }
    if (
      draft.provider === 'ga4' &&
      !draft.apiSecret &&
      !(settings?.provider === 'ga4' && settings.hasApiSecret)
    ) {
      setErrors({ apiSecret: 'apiSecret is required for Google Analytics 4' });
      return;
    }
    save.mutate(parsed.data);
  };

  const secretKept = (kind: 'tokenAuth' | 'apiSecret') =>
    kind === 'tokenAuth'
      ? settings?.provider === 'matomo' && settings.hasTokenAuth
      : settings?.provider === 'ga4' && settings.hasApiSecret;
  const unsaved = JSON.stringify(draft) !== JSON.stringify(draftOf(settings));

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
      noValidate
    >
      <Stack gap="md">
        <Select
          label="Provider"
          data={[
            { value: 'none', label: 'None' },
            { value: 'matomo', label: providerLabels.matomo },
            { value: 'plausible', label: providerLabels.plausible },
            { value: 'ga4', label: providerLabels.ga4 },
          ]}
          value={draft.provider}
          onChange={(value) => {
            set('provider', value ?? 'none');
            setTestResult(null);
          }}
          allowDeselect={false}
          maw={360}
        />

        {draft.provider === 'matomo' && (
          <>
            <TextInput
              label="Matomo address"
              description="Your Matomo, e.g. https://matomo.example.com (its matomo.php is used)."
              placeholder="https://matomo.example.com"
              {...textProps('matomoUrl')}
              required
            />
            <NumberInput
              label="Site ID"
              description="The website's ID in Matomo (Administration → Websites → Manage)."
              value={draft.siteId}
              onChange={(value) => set('siteId', value)}
              error={errors.siteId}
              min={1}
              allowDecimal={false}
              required
              maw={360}
            />
            <PasswordInput
              label="Auth token (optional)"
              description={
                secretKept('tokenAuth')
                  ? 'A token is kept. Type a new one to replace it; leave empty to keep it.'
                  : "A token_auth with write access to the site lets Matomo take the scanner's address and the exact time."
              }
              {...textProps('tokenAuth')}
              autoComplete="off"
            />
          </>
        )}

        {draft.provider === 'plausible' && (
          <>
            <TextInput
              label="Plausible address"
              description="https://plausible.io, or your own Plausible server."
              {...textProps('plausibleUrl')}
              required
            />
            <TextInput
              label="Site domain"
              description="The domain as you added the site in Plausible, e.g. example.com."
              placeholder="example.com"
              {...textProps('domain')}
              required
            />
          </>
        )}

        {draft.provider === 'ga4' && (
          <>
            <TextInput
              label="Measurement ID"
              description="Admin → Data streams → your web stream → Measurement ID (G-…)."
              placeholder="G-XXXXXXXXXX"
              {...textProps('measurementId')}
              required
              maw={360}
            />
            <PasswordInput
              label="API secret"
              description={
                secretKept('apiSecret')
                  ? 'A secret is kept. Type a new one to replace it; leave empty to keep it.'
                  : 'Admin → Data streams → your stream → Measurement Protocol API secrets → Create.'
              }
              {...textProps('apiSecret')}
              autoComplete="off"
              required={!secretKept('apiSecret')}
            />
          </>
        )}

        {draft.provider !== 'none' && (
          <>
            <Radio.Group
              label="Scanner's address"
              description={addressHelp[draft.address]}
              value={draft.address}
              onChange={(value) => set('address', value)}
            >
              <Group gap="md" mt={6} wrap="wrap">
                <Radio value="none" label="Not passed on" />
                <Radio value="masked" label="Masked" />
                <Radio value="full" label="As stored" />
              </Group>
            </Radio.Group>
            <Switch
              label="Enabled"
              description="Off: the settings are kept and nothing is sent."
              checked={draft.enabled}
              onChange={(e) => set('enabled', e.currentTarget.checked)}
            />
          </>
        )}

        <Group gap="sm" wrap="wrap">
          <Button
            type="submit"
            loading={save.isPending || remove.isPending}
            disabled={!unsaved && !(draft.provider === 'none' && settings !== null)}
          >
            Save
          </Button>
          {settings && draft.provider === settings.provider && (
            <Button
              variant="default"
              loading={test.isPending}
              onClick={() => test.mutate()}
              disabled={unsaved}
            >
              Send a test event
            </Button>
          )}
        </Group>

        {testResult && (
          <Alert
            color={testResult.ok ? 'teal' : 'red'}
            variant="light"
            title={
              testResult.ok
                ? 'The provider accepted the test event'
                : 'The provider did not accept the test event'
            }
            role="status"
          >
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {testResult.httpStatus === null ? 'No answer' : `HTTP ${testResult.httpStatus}`}:{' '}
              {testResult.message}
            </Text>
          </Alert>
        )}

        {settings && <DeliveryStatus settings={settings} now={now} />}
      </Stack>
    </form>
  );
}

function DeliveryStatus({ settings, now }: { settings: ForwardingSettings; now: number }) {
  return (
    <Stack gap={6} aria-label="Delivery status">
      <Group gap="xs" wrap="wrap">
        <Badge variant="light" color={settings.enabled ? 'teal' : 'gray'}>
          {settings.enabled ? 'On' : 'Off'}
        </Badge>
        <Text size="sm" c="dimmed">
          {formatCount(settings.sentCount)} sent · {formatCount(settings.failedCount)} not delivered
        </Text>
      </Group>
      <Text size="sm">
        Last success:{' '}
        {settings.lastSuccessAt ? (
          <span title={exactTime(settings.lastSuccessAt)}>{relativeTime(settings.lastSuccessAt, now)}</span>
        ) : (
          'none yet'
        )}
      </Text>
      {settings.lastError && (
        <Alert color="red" variant="light" title="Last error" role="status">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {settings.lastError.httpStatus === null ? 'No answer' : `HTTP ${settings.lastError.httpStatus}`}:{' '}
            {settings.lastError.message} ·{' '}
            <span title={exactTime(settings.lastError.at)}>{relativeTime(settings.lastError.at, now)}</span>
          </Text>
        </Alert>
      )}
    </Stack>
  );
}
