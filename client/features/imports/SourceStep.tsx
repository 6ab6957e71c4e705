import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Card,
  Code,
  FileInput,
  Group,
  Loader,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
  useMatches,
} from '@mantine/core';
import { IconAlertTriangle, IconFileImport, IconPlugConnected } from '@tabler/icons-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import {
  IMPORT_FILE_MAX_BYTES,
  importSourceLabels,
  importSources,
  type ImportPreview,
  type ImportSource,
} from '../../../src/imports/import.schema';
import { trpc } from '../../lib/trpc';
import { callFailure, connectRefusalOf, type ConnectField } from './import-errors';
import { uploadImportFile } from './imports-api';

type Method = 'file' | 'api';

/** How each tool's links are read: a file, its API, or both. */
const sourceMethods: Record<ImportSource, readonly Method[]> = {
  shlink: ['file', 'api'],
  kutt: ['api'],
  yourls: ['file'],
  bitly: ['file'],
};

/** Where each tool's export is, in one line. */
function SourceHelp({ source }: { source: ImportSource }): ReactNode {
  switch (source) {
    case 'shlink':
      return (
        <Trans>
          Short URLs → Export, or connect with an API key (Shlink → Manage → API keys, or{' '}
          <Code>shlink api-key:generate</Code>). Connecting brings each link&apos;s visit history; the export
          only counts them.
        </Trans>
      );
    case 'kutt':
      return <Trans>Settings → API key. Kutt counts visits but keeps no history of them.</Trans>;
    case 'yourls':
      return (
        <Trans>
          phpMyAdmin or mysqldump of the <Code>yourls_url</Code> and <Code>yourls_log</Code> tables (with
          their visit history), or a CSV of <Code>yourls_url</Code>.
        </Trans>
      );
    case 'bitly':
      return <Trans>Links → Export (CSV). It counts visits but holds no history of them.</Trans>;
  }
}

const MAX_MB = IMPORT_FILE_MAX_BYTES / 1024 / 1024;

/** Step 1: which tool the links come from, and its export file or its server's API. */
export function SourceStep({ onRead }: { onRead: (preview: ImportPreview) => void }) {
  const { t } = useLingui();
  const [source, setSource] = useState<ImportSource>('shlink');
  const [shlinkMethod, setShlinkMethod] = useState<Method>('file');
  const methods = sourceMethods[source];
  const sourceName = importSourceLabels[source];
  const method: Method = methods.length === 1 ? methods[0]! : shlinkMethod;
  const methodsOrientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', xs: 'horizontal' });

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <Title order={3} size="h4">
          <Trans>Where are your links now?</Trans>
        </Title>
        <Stack gap={6}>
          <SegmentedControl
            aria-label={t({ message: 'Source', context: 'the tool the links come from' })}
            value={source}
            onChange={(value) => setSource(value)}
            data={importSources.map((s) => ({ value: s, label: importSourceLabels[s] }))}
            fullWidth
            maw={520}
          />
          <Text size="sm" c="dimmed" maw={640} data-source-help>
            <SourceHelp source={source} />
          </Text>
        </Stack>
        {methods.length > 1 && (
          <SegmentedControl
            aria-label={t`How to read ${sourceName}`}
            value={shlinkMethod}
            onChange={(value) => setShlinkMethod(value === 'api' ? 'api' : 'file')}
            data={[
              { value: 'file', label: t`Upload an export` },
              { value: 'api', label: t`Connect with an API key` },
            ]}
            // Side by side the two do not fit a phone: one above the other there.
            orientation={methodsOrientation}
            fullWidth
            maw={520}
          />
        )}
        {method === 'file' ? (
          <FileForm source={source as 'shlink' | 'yourls' | 'bitly'} onRead={onRead} />
        ) : (
          <ApiForm source={source as 'shlink' | 'kutt'} onRead={onRead} />
        )}
      </Stack>
    </Card>
  );
}

function Reading({ children }: { children: ReactNode }) {
  return (
    <Group gap="xs" role="status" wrap="nowrap">
      <Loader size="sm" aria-hidden />
      <Text size="sm">{children}</Text>
    </Group>
  );
}

function FileForm({
  source,
  onRead,
}: {
  source: 'shlink' | 'yourls' | 'bitly';
  onRead: (preview: ImportPreview) => void;
}) {
  const { t } = useLingui();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const label = importSourceLabels[source];
  const fileName = file?.name;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file || reading) return;
    setError(null);
    if (file.size > IMPORT_FILE_MAX_BYTES) {
      setError(t`The file must be at most ${MAX_MB} MB`);
      return;
    }
    setReading(true);
    try {
      onRead(await uploadImportFile(file, source));
    } catch (failure) {
      setError(callFailure(failure, t`The file could not be read. Please try again.`));
    } finally {
      setReading(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="sm" maw={520}>
        <FileInput
          label={t`${label} export`}
          description={t`A .csv, .sql or .txt file of at most ${MAX_MB} MB. Nothing is created until you review it.`}
          placeholder={t`Choose a file`}
          // Mantine's placeholder grey reads at 2:1; the dimmed text colour is the theme's readable one.
          styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
          accept=".csv,.sql,.txt,text/csv,text/plain,application/sql"
          leftSection={<IconFileImport size={18} aria-hidden />}
          value={file}
          onChange={(next) => {
            setFile(next);
            setError(null);
          }}
          error={error}
          disabled={reading}
          clearable
        />
        <Group gap="sm">
          <Button type="submit" disabled={!file || reading}>
            <Trans>Read file</Trans>
          </Button>
          {reading && (
            <Reading>
              {fileName ? (
                <Trans>Reading links from {fileName}…</Trans>
              ) : (
                <Trans>Reading links from the file…</Trans>
              )}
            </Reading>
          )}
        </Group>
      </Stack>
    </form>
  );
}

function ApiForm({
  source,
  onRead,
}: {
  source: 'shlink' | 'kutt';
  onRead: (preview: ImportPreview) => void;
}) {
  const { t } = useLingui();
  const [url, setUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [errors, setErrors] = useState<Partial<Record<ConnectField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const connect = trpc.imports.connect.useMutation();
  const label = importSourceLabels[source];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (connect.isPending) return;
    const missing: Partial<Record<ConnectField, string>> = {};
    if (!url.trim()) missing.url = t`Give the address of your ${label} server`;
    if (!apiKey.trim()) missing.apiKey = t`API key is required`;
    setErrors(missing);
    setFormError(null);
    if (missing.url || missing.apiKey) return;
    connect.mutate(
      { source, url: url.trim(), apiKey: apiKey.trim() },
      {
        onSuccess: onRead,
        onError: (failure) => {
          // Said where it can be put right; the form keeps what was typed.
          const { field, message } = connectRefusalOf(failure);
          if (field) setErrors({ [field]: message });
          else setFormError(message);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm" maw={520}>
        <TextInput
          label={t`Server address`}
          description={t`Your ${label} server, such as https://s.example.com`}
          placeholder="https://s.example.com"
          type="url"
          inputMode="url"
          autoComplete="url"
          value={url}
          onChange={(e) => {
            setUrl(e.currentTarget.value);
            setErrors((current) => ({ ...current, url: undefined }));
          }}
          error={errors.url}
          disabled={connect.isPending}
          required
        />
        <PasswordInput
          label={t`API key`}
          description={t`Used only to read your links and their visits; forgotten once the import is done.`}
          autoComplete="off"
          value={apiKey}
          onChange={(e) => {
            setApiKey(e.currentTarget.value);
            setErrors((current) => ({ ...current, apiKey: undefined }));
          }}
          error={errors.apiKey}
          disabled={connect.isPending}
          required
        />
        {formError && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
            {formError}
          </Alert>
        )}
        <Group gap="sm">
          <Button
            type="submit"
            disabled={connect.isPending}
            leftSection={<IconPlugConnected size={18} aria-hidden />}
          >
            <Trans>Connect</Trans>
          </Button>
          {connect.isPending && (
            <Reading>
              <Trans>Reading links from {label}…</Trans>
            </Reading>
          )}
        </Group>
        {connect.isPending && (
          <Text size="xs" c="dimmed">
            <Trans>Every page of links is read: a large server takes a few seconds.</Trans>
          </Text>
        )}
      </Stack>
    </form>
  );
}
