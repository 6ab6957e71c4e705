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
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { translateShared } from '../../i18n/shared-messages';
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

const addressHelp: Record<AddressMode, MessageDescriptor> = {
  none: msg`No address is passed on: locations and unique visitors are less precise.`,
  masked: msg`The last part of the address is zeroed (IPv4: last number; IPv6: last 80 bits).`,
  full: msg`The address as this server keeps it (already masked when the server anonymizes addresses).`,
};

/**
 * Forward scans to web analytics (issue 36, item 2): the workspace's provider (Matomo, Plausible, Google
 * Analytics 4) and its fields, what client address is passed on, on or off, a test event, and how the
 * last deliveries went. Its admins only: others see the server's refusal.
 */
export function ForwardingSection() {
  const { t } = useLingui();
  const query = trpc.forwarding.get.useQuery();
  const now = useNow();
  const settings = query.data?.settings ?? null;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="forwarding-title">
      <Stack gap="md">
        <div>
          <Title order={3} size="h4" id="forwarding-title">
            <Trans>Forward scans to web analytics</Trans>
          </Title>
          <Text size="sm" c="dimmed">
            <Trans>
              Each scan of this workspace&apos;s codes is sent from the server to your analytics, with the
              code&apos;s name as the campaign (source and medium &quot;qr&quot;). No cookies are set;
              redirects never wait for it.
            </Trans>
          </Text>
        </div>
        {query.isPending && (
          <Stack gap="sm" aria-busy="true" aria-label={t`Loading the forwarding settings`}>
            <Skeleton h={36} />
            <Skeleton h={36} />
            <Skeleton h={36} />
          </Stack>
        )}
        {query.isError && (
          <ErrorAlert>
            {apiError(query.error, t`Error loading the forwarding settings. Please try again later.`).message}
          </ErrorAlert>
        )}
        {/* A new form each time the stored settings change (saved, removed): it starts from what is stored. */}
        {query.data && <ForwardingForm key={settings?.updatedAt ?? 'none'} settings={settings} now={now} />}
      </Stack>
    </Card>
  );
}

function ForwardingForm({ settings, now }: { settings: ForwardingSettings | null; now: number }) {
  const { t } = useLingui();
  const answerText = useAnswerText();
  const utils = trpc.useUtils();
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [testResult, setTestResult] = useState<ForwardingTestAnswer | null>(null);

  const refresh = () => utils.forwarding.get.invalidate();
  const save = trpc.forwarding.save.useMutation({
    onSuccess: async () => {
      notify.success(t`Saved`, t`Scans are forwarded as set.`);
      await refresh();
    },
    onError: (error) => notify.error(t`Error`, apiError(error, t`Failed to save the forwarding`).message),
  });
  const remove = trpc.forwarding.remove.useMutation({
    onSuccess: async () => {
      notify.success(t`Saved`, t`Scans are no longer forwarded.`);
      setTestResult(null);
      await refresh();
    },
    onError: (error) => notify.error(t`Error`, apiError(error, t`Failed to stop the forwarding`).message),
  });
  const test = trpc.forwarding.test.useMutation({
    onSuccess: async (answer) => {
      setTestResult(answer);
      await refresh();
    },
    onError: (error) => notify.error(t`Error`, apiError(error, t`Failed to send a test event`).message),
  });

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };
  /** A field's error: src/'s checks write theirs in English, shown in the active language. */
  const errorOf = (key: string) => {
    const message = errors[key];
    return message && translateShared(message);
  };
  /** A text field's value, change and error, bound to its key of the draft. */
  const textProps = (key: TextKey) => ({
    value: draft[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(key, e.currentTarget.value),
    error: errorOf(key),
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
      setErrors({ apiSecret: t`apiSecret is required for Google Analytics 4` });
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
          label={t`Provider`}
          data={[
            { value: 'none', label: t({ message: 'None', context: 'no analytics provider' }) },
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
              label={t`Matomo address`}
              description={t`Your Matomo, e.g. https://matomo.example.com (its matomo.php is used).`}
              placeholder="https://matomo.example.com"
              {...textProps('matomoUrl')}
              required
            />
            <NumberInput
              label={t`Site ID`}
              description={t`The website's ID in Matomo (Administration → Websites → Manage).`}
              value={draft.siteId}
              onChange={(value) => set('siteId', value)}
              error={errorOf('siteId')}
              min={1}
              allowDecimal={false}
              required
              maw={360}
            />
            <PasswordInput
              label={t`Auth token (optional)`}
              description={
                secretKept('tokenAuth')
                  ? t`A token is kept. Type a new one to replace it; leave empty to keep it.`
                  : t`A token_auth with write access to the site lets Matomo take the scanner's address and the exact time.`
              }
              {...textProps('tokenAuth')}
              autoComplete="off"
            />
          </>
        )}

        {draft.provider === 'plausible' && (
          <>
            <TextInput
              label={t`Plausible address`}
              description={t`https://plausible.io, or your own Plausible server.`}
              {...textProps('plausibleUrl')}
              required
            />
            <TextInput
              label={t`Site domain`}
              description={t`The domain as you added the site in Plausible, e.g. example.com.`}
              placeholder="example.com"
              {...textProps('domain')}
              required
            />
          </>
        )}

        {draft.provider === 'ga4' && (
          <>
            <TextInput
              label={t`Measurement ID`}
              description={t`Admin → Data streams → your web stream → Measurement ID (G-…).`}
              placeholder="G-XXXXXXXXXX"
              {...textProps('measurementId')}
              required
              maw={360}
            />
            <PasswordInput
              label={t`API secret`}
              description={
                secretKept('apiSecret')
                  ? t`A secret is kept. Type a new one to replace it; leave empty to keep it.`
                  : t`Admin → Data streams → your stream → Measurement Protocol API secrets → Create.`
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
              label={t`Scanner's address`}
              description={t(addressHelp[draft.address])}
              value={draft.address}
              onChange={(value) => set('address', value)}
            >
              <Group gap="md" mt={6} wrap="wrap">
                <Radio value="none" label={t`Not passed on`} />
                <Radio value="masked" label={t`Masked`} />
                <Radio value="full" label={t`As stored`} />
              </Group>
            </Radio.Group>
            <Switch
              label={t`Enabled`}
              description={t`Off: the settings are kept and nothing is sent.`}
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
            <Trans>Save</Trans>
          </Button>
          {settings && draft.provider === settings.provider && (
            <Button
              variant="default"
              loading={test.isPending}
              onClick={() => test.mutate()}
              disabled={unsaved}
            >
              <Trans>Send a test event</Trans>
            </Button>
          )}
        </Group>

        {testResult && (
          <Alert
            color={testResult.ok ? 'teal' : 'red'}
            variant="light"
            title={
              testResult.ok
                ? t`The provider accepted the test event`
                : t`The provider did not accept the test event`
            }
            role="status"
          >
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {answerText(testResult.httpStatus, testResult.message)}
            </Text>
          </Alert>
        )}

        {settings && <DeliveryStatus settings={settings} now={now} />}
      </Stack>
    </form>
  );
}

/** What the provider answered, in one line: 'HTTP 400: bad request', or 'No answer: timed out'. */
function useAnswerText() {
  const { t } = useLingui();
  return (httpStatus: number | null, answer: string): string => {
    const status = httpStatus === null ? t`No answer` : `HTTP ${httpStatus}`;
    // The server's words for a failure are English (forwarding.sender.ts); a provider's own answer stays.
    const detail = translateShared(answer);
    return t({
      message: `${status}: ${detail}`,
      comment: 'an HTTP status (or "No answer"), then what went wrong',
    });
  };
}

function DeliveryStatus({ settings, now }: { settings: ForwardingSettings; now: number }) {
  const { t } = useLingui();
  const answerText = useAnswerText();
  const sent = formatCount(settings.sentCount);
  const failed = formatCount(settings.failedCount);
  const lastSuccess = settings.lastSuccessAt ? (
    <span title={exactTime(settings.lastSuccessAt)}>{relativeTime(settings.lastSuccessAt, now)}</span>
  ) : (
    t({ message: 'none yet', context: 'no successful delivery yet' })
  );
  return (
    <Stack gap={6} aria-label={t`Delivery status`}>
      <Group gap="xs" wrap="wrap">
        <Badge variant="light" color={settings.enabled ? 'teal' : 'gray'}>
          {settings.enabled
            ? t({ message: 'On', context: 'forwarding is on' })
            : t({ message: 'Off', context: 'forwarding is off' })}
        </Badge>
        <Text size="sm" c="dimmed">
          <Trans>
            {sent} sent · {failed} not delivered
          </Trans>
        </Text>
      </Group>
      <Text size="sm">
        <Trans>Last success: {lastSuccess}</Trans>
      </Text>
      {settings.lastError && (
        <Alert color="red" variant="light" title={t`Last error`} role="status">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {answerText(settings.lastError.httpStatus, settings.lastError.message)} ·{' '}
            <span title={exactTime(settings.lastError.at)}>{relativeTime(settings.lastError.at, now)}</span>
          </Text>
        </Alert>
      )}
    </Stack>
  );
}
