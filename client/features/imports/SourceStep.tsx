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

/** Where each tool's export is, in one line; and how it is read (a file, its API, or both). */
const sourceHelp: Record<ImportSource, { help: ReactNode; methods: readonly Method[] }> = {
  shlink: {
    help: (
      <>
        Short URLs → Export, or connect with an API key (Shlink → Manage → API keys, or{' '}
        <Code>shlink api-key:generate</Code>). Connecting brings each link&apos;s visit history; the export
        only counts them.
      </>
    ),
    methods: ['file', 'api'],
  },
  kutt: { help: 'Settings → API key. Kutt counts visits but keeps no history of them.', methods: ['api'] },
  yourls: {
    help: (
      <>
        phpMyAdmin or mysqldump of the <Code>yourls_url</Code> and <Code>yourls_log</Code> tables (with their
        visit history), or a CSV of <Code>yourls_url</Code>.
      </>
    ),
    methods: ['file'],
  },
  bitly: { help: 'Links → Export (CSV). It counts visits but holds no history of them.', methods: ['file'] },
};

const MAX_MB = IMPORT_FILE_MAX_BYTES / 1024 / 1024;

/** Step 1: which tool the links come from, and its export file or its server's API. */
export function SourceStep({ onRead }: { onRead: (preview: ImportPreview) => void }) {
  const [source, setSource] = useState<ImportSource>('shlink');
  const [shlinkMethod, setShlinkMethod] = useState<Method>('file');
  const { help, methods } = sourceHelp[source];
  const method: Method = methods.length === 1 ? methods[0]! : shlinkMethod;
  const methodsOrientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', xs: 'horizontal' });

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <Title order={3} size="h4">
          Where are your links now?
        </Title>
        <Stack gap={6}>
          <SegmentedControl
            aria-label="Source"
            value={source}
            onChange={(value) => setSource(value)}
            data={importSources.map((s) => ({ value: s, label: importSourceLabels[s] }))}
            fullWidth
            maw={520}
          />
          <Text size="sm" c="dimmed" maw={640} data-source-help>
            {help}
          </Text>
        </Stack>
        {methods.length > 1 && (
          <SegmentedControl
            aria-label={`How to read ${importSourceLabels[source]}`}
            value={shlinkMethod}
            onChange={(value) => setShlinkMethod(value === 'api' ? 'api' : 'file')}
            data={[
              { value: 'file', label: 'Upload an export' },
              { value: 'api', label: 'Connect with an API key' },
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
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const label = importSourceLabels[source];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file || reading) return;
    setError(null);
    if (file.size > IMPORT_FILE_MAX_BYTES) {
      setError(`The file must be at most ${MAX_MB} MB`);
      return;
    }
    setReading(true);
    try {
      onRead(await uploadImportFile(file, source));
    } catch (failure) {
      setError(callFailure(failure, 'The file could not be read. Please try again.'));
    } finally {
      setReading(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="sm" maw={520}>
        <FileInput
          label={`${label} export`}
          description={`A .csv, .sql or .txt file of at most ${MAX_MB} MB. Nothing is created until you review it.`}
          placeholder="Choose a file"
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
            Read file
          </Button>
          {reading && <Reading>Reading links from {file?.name ?? 'the file'}…</Reading>}
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
    if (!url.trim()) missing.url = `Give the address of your ${label} server`;
    if (!apiKey.trim()) missing.apiKey = 'API key is required';
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
          label="Server address"
          description={`Your ${label} server, such as https://s.example.com`}
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
          label="API key"
          description="Used only to read your links and their visits; forgotten once the import is done."
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
            Connect
          </Button>
          {connect.isPending && <Reading>Reading links from {label}…</Reading>}
        </Group>
        {connect.isPending && (
          <Text size="xs" c="dimmed">
            Every page of links is read: a large server takes a few seconds.
          </Text>
        )}
      </Stack>
    </form>
  );
}
