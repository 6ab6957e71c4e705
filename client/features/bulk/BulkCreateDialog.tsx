import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Button,
  FileInput,
  Group,
  List,
  Modal,
  Progress,
  Radio,
  SegmentedControl,
  Select,
  Stack,
  Stepper,
  Switch,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconAlertTriangle,
  IconCheck,
  IconCopy,
  IconDownload,
  IconFileSpreadsheet,
} from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import {
  bulkRow,
  guessBulkMapping,
  type BulkCodeInput,
  type BulkParseAnswer,
  type BulkTarget,
} from '../../../src/qr/bulk';
import { templates, type Customization } from '../../../src/qr/customization';
import { qrTypeLabels, qrTypes, type QrType } from '../../../src/qr/qr-types';
import { translateShared } from '../../i18n/shared-messages';
import { notify } from '../../lib/notify';
import { saveBlob } from '../../lib/save-blob';
import { trpc } from '../../lib/trpc';
import { QrPreview } from '../qr/QrPreview';
import { useQrCacheRefresh } from '../qr/use-qr-cache-refresh';
import { APP_DOMAIN, domainChoices, domainIdToSend, knownDomainId } from '../qr-designer/short-link';
import { TemplatePicker } from '../qr-designer/TemplatePicker';
import {
  callFailure,
  createInBulk,
  downloadArchive,
  findRepeats,
  formatBytes,
  parseSpreadsheet,
  sampleCsv,
  type BulkCreateResult,
  type RepeatsChoice,
} from './bulk-api';
import { BulkColumnsTable } from './BulkColumnsTable';
import { BulkPreviewTable } from './BulkPreviewTable';
import { BulkScanProgress } from './BulkScanProgress';

/** "menu.csv: 12 rows, 4 columns." */
function SheetSummary({ fileName, rows, columns }: { fileName: string; rows: number; columns: number }) {
  return (
    <Trans>
      {fileName}: <Plural value={rows} one="# row" other="# rows" />,{' '}
      <Plural value={columns} one="# column" other="# columns" />.
    </Trans>
  );
}

/** The repeats could not be asked for: why, and what happens then. */
function RepeatsUnknown({ reason }: { reason: string }) {
  return (
    <Trans>
      Repeats could not be looked up beforehand ({reason}). Rows that repeat a code you already have are still
      skipped unless you import again with Create anyway.
    </Trans>
  );
}

/** What happened to the rows that were not created, or where the created ones are. */
function ResultSummary({ result }: { result: BulkCreateResult }) {
  const { t } = useLingui();
  const parts: string[] = [];
  const repeated = result.repeated.length;
  if (repeated > 0)
    parts.push(
      plural(repeated, {
        one: '# row repeats a code you already have: skipped.',
        other: '# rows repeat codes you already have: skipped.',
      }),
    );
  const skipped = result.skipped.length;
  if (skipped > 0)
    parts.push(
      plural(skipped, {
        one: '# row did not fit your plan and was left out.',
        other: '# rows did not fit your plan and were left out.',
      }),
    );
  if (result.created.length > 0) parts.push(t`They are in My QR Codes; each is checked for scanning now.`);
  return parts.join(' ');
}

/**
 * Bulk create, from My QR Codes: a CSV or Excel file → its columns mapped to name, type, content fields,
 * folder and dynamic → every row checked with the designer's own schema (src/qr/bulk.ts) → one design
 * for all, and the dynamic codes' short domain when the workspace has any → one server call → a ZIP of
 * the images. The plan limit is said before anything is created.
 */
export function BulkCreateDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useLingui();
  const isMobile = useMediaQuery('(max-width: 767px)');
  const [step, setStep] = useState(0);
  const [file, setFile] = useState<File | null>(null);
  const [sheet, setSheet] = useState<BulkParseAnswer | null>(null);
  const [reading, setReading] = useState(false);
  const [readError, setReadError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<BulkTarget[]>([]);
  const [defaultType, setDefaultType] = useState<QrType>('url');
  const [isDynamic, setIsDynamic] = useState(true);
  const [folderId, setFolderId] = useState<number | null>(null);
  /** The dynamic codes' short domain (null: the app's own address). */
  const [chosenDomainId, setDomainId] = useState<number | null>(null);
  const [customization, setCustomization] = useState<Customization>(() =>
    structuredClone<Customization>(templates[0]!.customization),
  );
  const [allOrNothing, setAllOrNothing] = useState(true);
  const [repeatsChoice, setRepeatsChoice] = useState<RepeatsChoice>('skip');
  const [result, setResult] = useState<BulkCreateResult | null>(null);
  const [createError, setCreateError] = useState<string | null>(null);
  const [archiveFormat, setArchiveFormat] = useState<'png' | 'svg'>('png');
  const [archiveBytes, setArchiveBytes] = useState<number | null>(null);

  const folders = trpc.folders.list.useQuery(undefined, { enabled: opened });
  const limit = trpc.qr.limit.useQuery(undefined, { enabled: opened });
  // The short domains this workspace may use (the designer's Domain list): asked for on opening, so the
  // Short domain select is known by the Check step and does not appear late.
  const domains = trpc.qr.domains.useQuery(undefined, { enabled: opened });
  const utils = trpc.useUtils();
  const refresh = useQrCacheRefresh();
  const create = useMutation({ mutationFn: createInBulk });

  const reset = () => {
    setStep(0);
    setFile(null);
    setSheet(null);
    setReadError(null);
    setMapping([]);
    setRepeatsChoice('skip');
    setResult(null);
    setCreateError(null);
    setArchiveBytes(null);
    create.reset();
  };
  const close = () => {
    if (create.isPending || archiveBytes !== null) return;
    reset();
    onClose();
  };

  const read = async (next: File | null) => {
    setFile(next);
    setSheet(null);
    setReadError(null);
    if (!next) return;
    setReading(true);
    try {
      const parsed = await parseSpreadsheet(next);
      setSheet(parsed);
      setMapping(guessBulkMapping(parsed.columns, defaultType));
      if (parsed.rows.length > 0) setStep(1);
      else setReadError(t`The file has a header row but no rows below it.`);
    } catch (error) {
      setReadError(callFailure(error, t`The file could not be read.`));
    } finally {
      setReading(false);
    }
  };

  const folderName = (id: number | null) => folders.data?.find((f) => f.id === id)?.name ?? null;
  const rows = useMemo(() => {
    if (!sheet) return [];
    const defaults = { type: defaultType, isDynamic, folder: null };
    return sheet.rows.map((cells) => bulkRow(cells, mapping, defaults));
  }, [sheet, mapping, defaultType, isDynamic]);
  const ready = useMemo(
    () =>
      rows.flatMap((r, index) =>
        r.ok ? [{ index, code: r.code }] : ([] as { index: number; code: BulkCodeInput }[]),
      ),
    [rows],
  );
  const problems = rows.length - ready.length;
  // A short domain names the links of dynamic codes only: no select when every code is static.
  const anyDynamic = ready.some((r) => r.code.isDynamic);
  const domainOptions = domainChoices(domains.data);
  // A domain taken from the workspace since it was chosen falls back to the app's own address.
  const domainId = anyDynamic ? knownDomainId(chosenDomainId, domains.data) : null;

  // Which ready rows repeat a code the user has: the server says (and decides again when creating).
  const repeatsKey = useMemo(() => ready.map((r) => [r.code.name, r.code.type, r.code.content]), [ready]);
  const repeatsQuery = useQuery({
    queryKey: ['bulk-repeats', repeatsKey],
    queryFn: () => findRepeats(ready.map((r) => r.code)),
    enabled: opened && step === 2 && ready.length > 0 && !result,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    gcTime: 60_000,
    retry: false,
  });
  const repeatRows = useMemo(
    () => new Set((repeatsQuery.data ?? []).map((r) => ready[r.row]?.index ?? -1)),
    [repeatsQuery.data, ready],
  );
  const repeats = repeatsQuery.isPlaceholderData ? 0 : (repeatsQuery.data?.length ?? 0);
  const skipping = repeatsChoice === 'skip' ? repeats : 0;
  const wanted = ready.length - skipping;
  const typeFromColumn = mapping.includes('type');
  const mapsContent = mapping.some((t) => t.startsWith('field:'));

  const max = limit.data?.maxCount ?? null;
  const room = max === null || !limit.data ? Infinity : Math.max(0, max - limit.data.currentCount);
  const overLimit = wanted > room;
  const toCreate = overLimit && !allOrNothing ? Math.min(wanted, room) : wanted;
  const canCreate = wanted > 0 && !repeatsQuery.isFetching && !(overLimit && (allOrNothing || room === 0));

  const submit = () => {
    setCreateError(null);
    create.mutate(
      {
        codes: ready.map((r) => r.code),
        customization,
        folderId,
        allOrNothing,
        repeats: repeatsChoice,
        domainId: domainIdToSend(domainId),
      },
      {
        onSuccess: (answer) => {
          setResult(answer);
          setStep(3);
          const made = answer.created.length;
          const repeatsSkipped = answer.repeated.length;
          const createdText = plural(made, { one: '# QR code created.', other: '# QR codes created.' });
          notify.success(
            t`QR Codes Created`,
            repeatsSkipped > 0
              ? `${createdText} ${plural(repeatsSkipped, {
                  one: '# repeat of codes you already have skipped.',
                  other: '# repeats of codes you already have skipped.',
                })}`
              : createdText,
          );
          void refresh();
        },
        onError: (error) => {
          setCreateError(callFailure(error, t`The QR codes could not be created.`));
          // Refused for a domain the workspace may no longer use: the select learns the list anew.
          if (domainId !== null) void utils.qr.domains.invalidate();
        },
      },
    );
  };

  const downloadZip = async () => {
    if (!result) return;
    setArchiveBytes(0);
    try {
      const fileName = await downloadArchive(
        result.created.map((c) => c.id),
        archiveFormat,
        setArchiveBytes,
      );
      notify.success(t`QR Codes Downloaded`, t`Saved as ${fileName}.`);
    } catch (error) {
      notify.error(
        t`Download Failed`,
        callFailure(error, t`The ZIP could not be downloaded. Please try again.`),
      );
    } finally {
      setArchiveBytes(null);
    }
  };

  const sample = ready[0]?.code;
  const sampleName = sample?.name ?? '';
  const typeName = translateShared(qrTypeLabels[defaultType]);
  const readyCount = ready.length;
  const maxCodes = max ?? 0;
  const have = limit.data?.currentCount ?? 0;
  const createdCount = result?.created.length ?? 0;
  const received = formatBytes(archiveBytes ?? 0);
  const moreSkipped = (result?.skipped.length ?? 0) - 5;

  return (
    <Modal
      opened={opened}
      onClose={close}
      size="xl"
      fullScreen={isMobile}
      title={t`Bulk create QR codes`}
      closeButtonProps={{ 'aria-label': t`Close` }}
    >
      <Stepper
        active={step}
        size="sm"
        allowNextStepsSelect={false}
        onStepClick={(s) => s < 3 && !result && setStep(s)}
      >
        <Stepper.Step label={t`File`} description={t`CSV or Excel`}>
          <Stack gap="sm" mt="md">
            <Text size="sm">
              <Trans>
                One row per QR code, with a header row naming the columns: a name, the content (for example a
                URL), and optionally the type, a folder and whether the code is dynamic.{' '}
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() => saveBlob(sampleCsv(), 'qr-codes-sample.csv')}
                >
                  Download a sample CSV
                </Anchor>
              </Trans>
            </Text>
            <FileInput
              label={t`Spreadsheet`}
              description={t`A .csv or .xlsx file of at most 5 MB; the first sheet is read.`}
              placeholder={t`Choose a file`}
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              leftSection={<IconFileSpreadsheet size={18} aria-hidden />}
              value={file}
              onChange={(next) => void read(next)}
              disabled={reading}
              clearable
            />
            {reading && (
              <Stack gap={4} role="status" aria-label={t`Reading the file`}>
                <Progress value={100} animated striped aria-hidden />
                <Text size="xs" c="dimmed">
                  <Trans>Reading the file…</Trans>
                </Text>
              </Stack>
            )}
            {readError && (
              <Alert color="red" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
                {readError}
              </Alert>
            )}
          </Stack>
        </Stepper.Step>

        <Stepper.Step label={t`Columns`} description={t`What each one holds`}>
          {sheet && (
            <Stack gap="sm" mt="md">
              <Text size="sm">
                <SheetSummary
                  fileName={sheet.fileName}
                  rows={sheet.rows.length}
                  columns={sheet.columns.length}
                />
                {sheet.truncated &&
                  ` ${t`Only the first rows were read: the file has more than this import takes.`}`}
              </Text>
              <Group gap="md" align="flex-end" wrap="wrap">
                <Select
                  label={typeFromColumn ? t`Type for rows without one` : t`Type`}
                  data={qrTypes.map((t) => ({ value: t, label: translateShared(qrTypeLabels[t]) }))}
                  value={defaultType}
                  onChange={(value) => {
                    if (!value) return;
                    const next = value;
                    setDefaultType(next);
                    // The content fields differ by type: guess the columns again for the new one.
                    setMapping(guessBulkMapping(sheet.columns, next));
                  }}
                  allowDeselect={false}
                  w={200}
                />
                <Select
                  label={t`Folder for rows without one`}
                  data={[
                    { value: '', label: t`No folder` },
                    ...(folders.data ?? []).map((f) => ({ value: String(f.id), label: f.name })),
                  ]}
                  value={folderId === null ? '' : String(folderId)}
                  onChange={(value) => setFolderId(value ? Number(value) : null)}
                  allowDeselect={false}
                  w={220}
                />
                <Switch
                  label={t`Dynamic (rows without a Dynamic column)`}
                  checked={isDynamic}
                  onChange={(e) => setIsDynamic(e.currentTarget.checked)}
                  mb={6}
                />
              </Group>
              <BulkColumnsTable
                columns={sheet.columns}
                firstRow={sheet.rows[0] ?? []}
                mapping={mapping}
                type={defaultType}
                onChange={setMapping}
              />
              {!mapsContent && (
                <Alert color="yellow" icon={<IconAlertTriangle size={18} aria-hidden />}>
                  <Trans>No column holds content yet: choose which column is the {typeName} content.</Trans>
                </Alert>
              )}
              <Group justify="space-between">
                <Button variant="default" onClick={() => setStep(0)}>
                  <Trans>Back</Trans>
                </Button>
                <Button onClick={() => setStep(2)} disabled={!mapsContent}>
                  <Trans>Check the rows</Trans>
                </Button>
              </Group>
            </Stack>
          )}
        </Stepper.Step>

        <Stepper.Step
          label={t({ message: 'Check', context: 'the step that checks the rows' })}
          description={t`Rows and design`}
        >
          {sheet && (
            <Stack gap="sm" mt="md">
              <Group gap="xs" role="status" aria-label={t`Rows checked`}>
                <IconCheck size={18} color="var(--mantine-color-teal-7)" aria-hidden />
                <Text size="sm" fw={500}>
                  {problems > 0
                    ? t`${plural(readyCount, { one: '# row ready', other: '# rows ready' })}, ${plural(
                        problems,
                        {
                          one: '# row with problems (left out; fix them in the file and import again)',
                          other: '# rows with problems (left out; fix them in the file and import again)',
                        },
                      )}.`
                    : plural(readyCount, { one: '# row ready.', other: '# rows ready.' })}
                </Text>
              </Group>
              {repeats > 0 && (
                <Alert
                  color="yellow"
                  icon={<IconCopy size={18} aria-hidden />}
                  title={plural(repeats, {
                    one: '# row repeats a code you already have',
                    other: '# rows repeat codes you already have',
                  })}
                >
                  <Stack gap="xs">
                    <Text size="sm">
                      <Plural
                        value={repeats}
                        one="Same name, type and content as one of your QR codes (marked Repeat below): creating it would give you that code twice."
                        other="Same name, type and content as one of your QR codes (marked Repeat below): creating them would give you those codes twice."
                      />
                    </Text>
                    <Radio.Group
                      value={repeatsChoice}
                      onChange={(v) => setRepeatsChoice(v === 'create' ? 'create' : 'skip')}
                      label={t`Repeated rows`}
                    >
                      <Group gap="lg" mt={4}>
                        <Radio value="skip" label={t`Skip repeats`} />
                        <Radio value="create" label={t`Create anyway`} />
                      </Group>
                    </Radio.Group>
                  </Stack>
                </Alert>
              )}
              {repeatsQuery.isError && (
                <Text size="xs" c="dimmed">
                  <RepeatsUnknown reason={callFailure(repeatsQuery.error, t`no answer`)} />
                </Text>
              )}
              <BulkPreviewTable
                rows={rows}
                cells={sheet.rows}
                folderName={folderName(folderId)}
                repeatRows={repeatsQuery.isPlaceholderData ? undefined : repeatRows}
              />
              {overLimit && (
                <Alert
                  color="yellow"
                  icon={<IconAlertTriangle size={18} aria-hidden />}
                  title={
                    room === 0
                      ? t`Your plan is full`
                      : plural(room, {
                          one: 'Only # more code fits your plan',
                          other: 'Only # more codes fit your plan',
                        })
                  }
                >
                  <Stack gap="xs">
                    <Text size="sm">
                      <Trans>
                        <Plural
                          value={wanted}
                          one="# row is to be created"
                          other="# rows are to be created"
                        />
                        ; your plan allows <Plural value={maxCodes} one="# QR code" other="# QR codes" /> and
                        you have {have}.{' '}
                        <Anchor component={Link} to="/upgrade" size="sm">
                          Upgrade
                        </Anchor>{' '}
                        to create them all.
                      </Trans>
                    </Text>
                    {room > 0 && (
                      <Radio.Group
                        value={allOrNothing ? 'all' : 'first'}
                        onChange={(v) => setAllOrNothing(v === 'all')}
                        label={t`What to create`}
                      >
                        <Stack gap={6} mt={4}>
                          <Radio value="all" label={t`Nothing unless all of them fit`} />
                          <Radio
                            value="first"
                            label={plural(room, {
                              one: 'The first row, and leave out the rest',
                              other: 'The first # rows, and leave out the rest',
                            })}
                          />
                        </Stack>
                      </Radio.Group>
                    )}
                  </Stack>
                </Alert>
              )}
              {anyDynamic && domainOptions.length > 0 && (
                <Select
                  label={t`Short domain`}
                  description={t`Where the dynamic codes' short links start; static codes have none.`}
                  data={domainOptions}
                  value={domainId === null ? APP_DOMAIN : String(domainId)}
                  onChange={(value) => setDomainId(value && value !== APP_DOMAIN ? Number(value) : null)}
                  allowDeselect={false}
                  disabled={create.isPending}
                  styles={{ wrapper: { maxWidth: 360 } }}
                  comboboxProps={{ withinPortal: true }}
                />
              )}
              <Text fw={600} size="sm" mt="xs">
                <Trans>Design for all codes</Trans>
              </Text>
              <Group align="flex-start" gap="md" wrap="wrap">
                {sample && (
                  <QrPreview
                    data={sample.content}
                    customization={customization}
                    size={120}
                    label={t`QR code preview: ${sampleName}`}
                  />
                )}
                <div style={{ flex: '1 1 280px', minWidth: 0 }}>
                  <TemplatePicker value={customization} onApply={setCustomization} />
                </div>
              </Group>
              {createError && (
                <Alert color="red" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
                  {createError}
                </Alert>
              )}
              {create.isPending && (
                <Stack gap={4} role="status" aria-label={t`Creating the QR codes`}>
                  <Progress value={100} animated striped aria-hidden />
                  <Text size="xs" c="dimmed">
                    <Plural value={toCreate} one="Creating # QR code…" other="Creating # QR codes…" />
                  </Text>
                </Stack>
              )}
              <Group justify="space-between">
                <Button variant="default" onClick={() => setStep(1)} disabled={create.isPending}>
                  <Trans>Back</Trans>
                </Button>
                <Button onClick={submit} disabled={!canCreate} loading={create.isPending}>
                  {plural(toCreate, { one: 'Create # QR code', other: 'Create # QR codes' })}
                </Button>
              </Group>
            </Stack>
          )}
        </Stepper.Step>

        <Stepper.Completed>
          {result && (
            <Stack gap="sm" mt="md">
              <Alert
                color="teal"
                icon={<IconCheck size={18} aria-hidden />}
                title={plural(createdCount, { one: '# QR code created', other: '# QR codes created' })}
              >
                <ResultSummary result={result} />
              </Alert>
              {result.created.length > 0 && <BulkScanProgress ids={result.created.map((c) => c.id)} />}
              {result.skipped.length > 0 && (
                <List size="sm" spacing={2}>
                  {result.skipped.slice(0, 5).map((s) => {
                    const row = (ready[s.row]?.index ?? s.row) + 1;
                    const reason = translateShared(s.message);
                    return (
                      <List.Item key={s.row}>
                        <Trans>
                          Row {row}: {reason}
                        </Trans>
                      </List.Item>
                    );
                  })}
                  {result.skipped.length > 5 && (
                    <List.Item>
                      <Trans>…and {moreSkipped} more</Trans>
                    </List.Item>
                  )}
                </List>
              )}
              {result.created.length > 0 && (
                <Stack gap="xs">
                  <Text size="sm">
                    <Trans>
                      Download every image in one ZIP, named after each code, with a codes.csv of their ids,
                      names and short links.
                    </Trans>
                  </Text>
                  <Group gap="sm" wrap="wrap">
                    <SegmentedControl
                      aria-label={t`Image format`}
                      data={[
                        { value: 'png', label: 'PNG' },
                        { value: 'svg', label: 'SVG' },
                      ]}
                      value={archiveFormat}
                      onChange={(v) => setArchiveFormat(v)}
                      disabled={archiveBytes !== null}
                    />
                    <Button
                      leftSection={<IconDownload size={18} aria-hidden />}
                      onClick={() => void downloadZip()}
                      loading={archiveBytes !== null}
                    >
                      <Trans>Download ZIP</Trans>
                    </Button>
                  </Group>
                  {archiveBytes !== null && (
                    <Stack gap={4} role="status" aria-label={t`Downloading the ZIP`}>
                      <Progress value={100} animated striped aria-hidden />
                      <Text size="xs" c="dimmed">
                        <Plural
                          value={createdCount}
                          one={`Drawing # image… ${received} received`}
                          other={`Drawing # images… ${received} received`}
                        />
                      </Text>
                    </Stack>
                  )}
                </Stack>
              )}
              <Group justify="flex-end">
                <Button variant="default" onClick={close} disabled={archiveBytes !== null}>
                  <Trans context="close the finished dialog">Done</Trans>
                </Button>
              </Group>
            </Stack>
          )}
        </Stepper.Completed>
      </Stepper>
    </Modal>
  );
}
