import {
  Box,
  Button,
  Group,
  Loader,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowLeft, IconScan } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState } from 'react';
import { qrIdFromText } from '../../../src/qr/qr-id';
import { normalizeQrType, qrTypeLabels } from '../../../src/qr/qr-types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { apiError, queryClient, trpc } from '../../lib/trpc';
import { scanDemoRoute } from '../../routes';
import { INVALID_ID_MESSAGE } from './scan-links';
import { ScanResult } from './ScanResult';

const FAILED = 'Failed to scan QR code';

/**
 * A scan counts like a real one, so cached data that may show scan numbers is refreshed; the signed-in
 * user is left alone.
 */
function refreshAfterScan() {
  void queryClient.invalidateQueries({
    predicate: (query) => {
      const path = query.queryKey[0];
      return !(Array.isArray(path) && path[0] === 'auth');
    },
  });
}

function ScanError({ error }: { error: unknown }) {
  const { message } = apiError(error, FAILED);
  return (
    <ErrorAlert>
      <Text fw={600} size="sm">
        {FAILED}
      </Text>
      {message !== FAILED && (
        <Text size="xs" mt={2} style={{ overflowWrap: 'anywhere' }}>
          {message}
        </Text>
      )}
    </ErrorAlert>
  );
}

/** The form and result for one `?id=` value; a new value in the address starts afresh (see the key below). */
function ScanDemo({ initialId }: { initialId: string | undefined }): React.JSX.Element {
  const [value, setValue] = useState(initialId ?? '');
  const [error, setError] = useState<string | null>(() =>
    initialId !== undefined && qrIdFromText(initialId) === null ? INVALID_ID_MESSAGE : null,
  );
  const scan = trpc.qr.scan.useMutation({ onSuccess: refreshAfterScan });
  const { mutate } = scan;
  // The interface never shows ids: pick one of your codes and its id fills the field.
  const codes = trpc.qr.list.useQuery();
  const options = useMemo(
    () =>
      (codes.data ?? []).map((c) => ({
        value: String(c.id),
        label: `${c.name} (${qrTypeLabels[normalizeQrType(c.type)]}, ${c.isDynamic ? 'dynamic' : 'static'})`,
      })),
    [codes.data],
  );

  // Scan the id from the address once, also under StrictMode's double effects (each scan is counted).
  const started = useRef(false);
  useEffect(() => {
    if (started.current || initialId === undefined) return;
    started.current = true;
    const id = qrIdFromText(initialId);
    if (id !== null) mutate({ id });
  }, [initialId, mutate]);

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (scan.isPending) return;
    const id = qrIdFromText(value);
    if (id === null) {
      setError(INVALID_ID_MESSAGE);
      scan.reset();
      return;
    }
    setError(null);
    scan.mutate({ id });
  };

  return (
    <>
      <form onSubmit={submit} noValidate aria-label="Scan a QR code">
        <Select
          label="Your QR codes"
          description="Choose a code to fill in its ID."
          placeholder={codes.isPending ? 'Loading your codes…' : 'Search your codes'}
          data={options}
          value={options.some((o) => o.value === value.trim()) ? value.trim() : null}
          onChange={(id) => {
            if (id === null) return;
            setValue(id);
            setError(null);
          }}
          searchable
          nothingFoundMessage="No code with that name"
          disabled={codes.isError}
          mb="sm"
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          label="QR code ID"
          placeholder="e.g. 12"
          inputMode="numeric"
          autoComplete="off"
          value={value}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            if (error) setError(null);
          }}
          error={error}
          inputContainer={(input) => (
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Box style={{ flex: 1, minWidth: 0 }}>{input}</Box>
              <Button
                type="submit"
                loading={scan.isPending}
                leftSection={<IconScan size={18} aria-hidden />}
                style={{ flexShrink: 0 }}
              >
                Scan
              </Button>
            </Group>
          )}
        />
      </form>

      <div aria-live="polite">
        {scan.isPending && (
          <Group gap="xs" c="dimmed">
            <Loader size="xs" aria-hidden />
            <Text size="sm">Scanning…</Text>
          </Group>
        )}
        {scan.isSuccess && (
          <VisuallyHidden>Scanned a {qrTypeLabels[normalizeQrType(scan.data.type)]} code.</VisuallyHidden>
        )}
      </div>

      {scan.isError && <ScanError error={scan.error} />}

      {scan.isSuccess && <ScanResult result={scan.data} />}
    </>
  );
}

export function ScanDemoPage(): React.JSX.Element {
  const { id } = scanDemoRoute.useSearch();
  return (
    <Stack gap="md" maw={720} w="100%">
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <Title order={2}>Scan simulator</Title>
        <Button
          component={Link}
          to="/my-qr-codes"
          variant="default"
          leftSection={<IconArrowLeft size={18} aria-hidden />}
        >
          Back
        </Button>
      </Group>
      <Text c="dimmed">
        Simulates a phone scanning one of your codes (no camera needed) and shows what the phone would get.
        Scanning here counts as a scan in your analytics.
      </Text>
      <ScanDemo key={id ?? ''} initialId={id} />
    </Stack>
  );
}
