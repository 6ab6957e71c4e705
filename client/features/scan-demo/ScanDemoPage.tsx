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
import { Trans, useLingui } from '@lingui/react/macro';
import { IconArrowLeft, IconScan } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState } from 'react';
import { qrIdFromText } from '../../../src/qr/qr-id';
import { normalizeQrType, qrTypeLabels } from '../../../src/qr/qr-types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { translateShared } from '../../i18n/shared-messages';
import { apiError, queryClient, trpc } from '../../lib/trpc';
import { scanDemoRoute } from '../../routes';
import { INVALID_ID_MESSAGE } from './scan-links';
import { ScanResult } from './ScanResult';

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
  const { t } = useLingui();
  const failed = t`Failed to scan QR code`;
  const { message } = apiError(error, failed);
  return (
    <ErrorAlert>
      <Text fw={600} size="sm">
        {failed}
      </Text>
      {message !== failed && (
        <Text size="xs" mt={2} style={{ overflowWrap: 'anywhere' }}>
          {message}
        </Text>
      )}
    </ErrorAlert>
  );
}

/** The form and result for one `?id=` value; a new value in the address starts afresh (see the key below). */
function ScanDemo({ initialId }: { initialId: string | undefined }): React.JSX.Element {
  const { t } = useLingui();
  const [value, setValue] = useState(initialId ?? '');
  // Whether the field holds no valid ID (its message is drawn in the language of the moment).
  const [invalid, setInvalid] = useState(() => initialId !== undefined && qrIdFromText(initialId) === null);
  const scan = trpc.qr.scan.useMutation({ onSuccess: refreshAfterScan });
  const { mutate } = scan;
  // The interface never shows ids: pick one of your codes and its id fills the field.
  const codes = trpc.qr.list.useQuery();
  const options = useMemo(
    () =>
      (codes.data ?? []).map((c) => {
        const name = c.name;
        // The type's name comes from src/qr/qr-types.ts.
        const type = translateShared(qrTypeLabels[normalizeQrType(c.type)]);
        return {
          value: String(c.id),
          label: c.isDynamic ? t`${name} (${type}, dynamic)` : t`${name} (${type}, static)`,
        };
      }),
    [codes.data, t],
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
      setInvalid(true);
      scan.reset();
      return;
    }
    setInvalid(false);
    scan.mutate({ id });
  };

  return (
    <>
      <form onSubmit={submit} noValidate aria-label={t`Scan a QR code`}>
        <Select
          label={t`Your QR codes`}
          description={t`Choose a code to fill in its ID.`}
          placeholder={codes.isPending ? t`Loading your codes…` : t`Search your codes`}
          data={options}
          value={options.some((o) => o.value === value.trim()) ? value.trim() : null}
          onChange={(id) => {
            if (id === null) return;
            setValue(id);
            setInvalid(false);
          }}
          searchable
          nothingFoundMessage={t`No code with that name`}
          disabled={codes.isError}
          mb="sm"
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          label={t`QR code ID`}
          placeholder={t`e.g. 12`}
          inputMode="numeric"
          autoComplete="off"
          value={value}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            if (invalid) setInvalid(false);
          }}
          error={invalid ? t(INVALID_ID_MESSAGE) : null}
          inputContainer={(input) => (
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Box style={{ flex: 1, minWidth: 0 }}>{input}</Box>
              <Button
                type="submit"
                loading={scan.isPending}
                leftSection={<IconScan size={18} aria-hidden />}
                style={{ flexShrink: 0 }}
              >
                <Trans context="button: scan the code">Scan</Trans>
              </Button>
            </Group>
          )}
        />
      </form>

      <div aria-live="polite">
        {scan.isPending && (
          <Group gap="xs" c="dimmed">
            <Loader size="xs" aria-hidden />
            <Text size="sm">
              <Trans>Scanning…</Trans>
            </Text>
          </Group>
        )}
        {scan.isSuccess && (
          <VisuallyHidden>
            <ScannedType type={scan.data.type} />
          </VisuallyHidden>
        )}
      </div>

      {scan.isError && <ScanError error={scan.error} />}

      {scan.isSuccess && <ScanResult result={scan.data} />}
    </>
  );
}

/** For screen readers: 'Scanned a Website code.' (the type's name comes from src/qr/qr-types.ts). */
function ScannedType({ type }: { type: string }) {
  const { t } = useLingui();
  const typeName = translateShared(qrTypeLabels[normalizeQrType(type)]);
  return t`Scanned a ${typeName} code.`;
}

export function ScanDemoPage(): React.JSX.Element {
  const { t } = useLingui();
  const { id } = scanDemoRoute.useSearch();
  return (
    <Stack gap="md" maw={720} w="100%">
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <Title order={2}>{t`Scan simulator`}</Title>
        <Button
          component={Link}
          to="/my-qr-codes"
          variant="default"
          leftSection={<IconArrowLeft size={18} aria-hidden />}
        >
          <Trans>Back</Trans>
        </Button>
      </Group>
      <Text c="dimmed">
        <Trans>
          Simulates a phone scanning one of your codes (no camera needed) and shows what the phone would get.
          Scanning here counts as a scan in your analytics.
        </Trans>
      </Text>
      <ScanDemo key={id ?? ''} initialId={id} />
    </Stack>
  );
}
