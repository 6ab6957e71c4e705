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

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** What happened to the rows that were not created, or where the created ones are. */
function resultSummary(result: BulkCreateResult): string {
  const parts: string[] = [];
  const repeated = result.repeated.length;
  if (repeated > 0)
    parts.push(
      repeated === 1
        ? '1 row repeats a code you already have: skipped.'
        : `${count(repeated, 'row')} repeat codes you already have: skipped.`,
    );
  const skipped = result.skipped.length;
  if (skipped > 0)
    parts.push(
      `${count(skipped, 'row')} did not fit your plan and ${skipped === 1 ? 'was' : 'were'} left out.`,
    );
  if (result.created.length > 0) parts.push('They are in My QR Codes; each is checked for scanning now.');
  return parts.join(' ');
}

/**
 * Bulk create, from My QR Codes: a CSV or Excel file → its columns mapped to name, type, content fields,
 * folder and dynamic → every row checked with the designer's own schema (src/qr/bulk.ts) → one design
 * for all, and the dynamic codes' short domain when the workspace has any → one server call → a ZIP of
 * the images. The plan limit is said before anything is created.
 */
export function BulkCreateDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
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
      else setReadError('The file has a header row but no rows below it.');
    } catch (error) {
      setReadError(callFailure(error, 'The file could not be read.'));
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
          notify.success(
            'QR Codes Created',
            `${count(answer.created.length, 'QR code')} created.` +
              (answer.repeated.length > 0
                ? ` ${count(answer.repeated.length, 'repeat')} of codes you already have skipped.`
                : ''),
          );
          void refresh();
        },
        onError: (error) => {
          setCreateError(callFailure(error, 'The QR codes could not be created.'));
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
      notify.success('QR Codes Downloaded', `Saved as ${fileName}.`);
    } catch (error) {
      notify.error(
        'Download Failed',
        callFailure(error, 'The ZIP could not be downloaded. Please try again.'),
      );
    } finally {
      setArchiveBytes(null);
    }
  };

  const sample = ready[0]?.code;

  return (
    <Modal
      opened={opened}
      onClose={close}
      size="xl"
      fullScreen={isMobile}
      title="Bulk create QR codes"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stepper
        active={step}
        size="sm"
        allowNextStepsSelect={false}
        onStepClick={(s) => s < 3 && !result && setStep(s)}
      >
        <Stepper.Step label="File" description="CSV or Excel">
          <Stack gap="sm" mt="md">
            <Text size="sm">
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
            </Text>
            <FileInput
              label="Spreadsheet"
              description="A .csv or .xlsx file of at most 5 MB; the first sheet is read."
              placeholder="Choose a file"
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              leftSection={<IconFileSpreadsheet size={18} aria-hidden />}
              value={file}
              onChange={(next) => void read(next)}
              disabled={reading}
              clearable
            />
            {reading && (
              <Stack gap={4} role="status" aria-label="Reading the file">
                <Progress value={100} animated striped aria-hidden />
                <Text size="xs" c="dimmed">
                  Reading the file…
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

        <Stepper.Step label="Columns" description="What each one holds">
          {sheet && (
            <Stack gap="sm" mt="md">
              <Text size="sm">
                {sheet.fileName}: {count(sheet.rows.length, 'row')}, {count(sheet.columns.length, 'column')}.
                {sheet.truncated &&
                  ' Only the first rows were read: the file has more than this import takes.'}
              </Text>
              <Group gap="md" align="flex-end" wrap="wrap">
                <Select
                  label={typeFromColumn ? 'Type for rows without one' : 'Type'}
                  data={qrTypes.map((t) => ({ value: t, label: qrTypeLabels[t] }))}
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
                  label="Folder for rows without one"
                  data={[
                    { value: '', label: 'No folder' },
                    ...(folders.data ?? []).map((f) => ({ value: String(f.id), label: f.name })),
                  ]}
                  value={folderId === null ? '' : String(folderId)}
                  onChange={(value) => setFolderId(value ? Number(value) : null)}
                  allowDeselect={false}
                  w={220}
                />
                <Switch
                  label="Dynamic (rows without a Dynamic column)"
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
                  No column holds content yet: choose which column is the {qrTypeLabels[defaultType]} content.
                </Alert>
              )}
              <Group justify="space-between">
                <Button variant="default" onClick={() => setStep(0)}>
                  Back
                </Button>
                <Button onClick={() => setStep(2)} disabled={!mapsContent}>
                  Check the rows
                </Button>
              </Group>
            </Stack>
          )}
        </Stepper.Step>

        <Stepper.Step label="Check" description="Rows and design">
          {sheet && (
            <Stack gap="sm" mt="md">
              <Group gap="xs" role="status" aria-label="Rows checked">
                <IconCheck size={18} color="var(--mantine-color-teal-7)" aria-hidden />
                <Text size="sm" fw={500}>
                  {count(ready.length, 'row')} ready
                  {problems > 0 &&
                    `, ${count(problems, 'row')} with problems (left out; fix them in the file and import again)`}
                  .
                </Text>
              </Group>
              {repeats > 0 && (
                <Alert
                  color="yellow"
                  icon={<IconCopy size={18} aria-hidden />}
                  title={
                    repeats === 1
                      ? '1 row repeats a code you already have'
                      : `${count(repeats, 'row')} repeat codes you already have`
                  }
                >
                  <Stack gap="xs">
                    <Text size="sm">
                      Same name, type and content as one of your QR codes (marked Repeat below): creating{' '}
                      {repeats === 1 ? 'it' : 'them'} would give you{' '}
                      {repeats === 1 ? 'that code' : 'those codes'} twice.
                    </Text>
                    <Radio.Group
                      value={repeatsChoice}
                      onChange={(v) => setRepeatsChoice(v === 'create' ? 'create' : 'skip')}
                      label="Repeated rows"
                    >
                      <Group gap="lg" mt={4}>
                        <Radio value="skip" label="Skip repeats" />
                        <Radio value="create" label="Create anyway" />
                      </Group>
                    </Radio.Group>
                  </Stack>
                </Alert>
              )}
              {repeatsQuery.isError && (
                <Text size="xs" c="dimmed">
                  Repeats could not be looked up beforehand ({callFailure(repeatsQuery.error, 'no answer')}).
                  Rows that repeat a code you already have are still skipped unless you import again with
                  Create anyway.
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
                      ? 'Your plan is full'
                      : `Only ${count(room, 'more code')} ${room === 1 ? 'fits' : 'fit'} your plan`
                  }
                >
                  <Stack gap="xs">
                    <Text size="sm">
                      {count(wanted, 'row')} {wanted === 1 ? 'is' : 'are'} to be created; your plan allows{' '}
                      {count(max ?? 0, 'QR code')} and you have {limit.data?.currentCount ?? 0}.{' '}
                      <Anchor component={Link} to="/upgrade" size="sm">
                        Upgrade
                      </Anchor>{' '}
                      to create them all.
                    </Text>
                    {room > 0 && (
                      <Radio.Group
                        value={allOrNothing ? 'all' : 'first'}
                        onChange={(v) => setAllOrNothing(v === 'all')}
                        label="What to create"
                      >
                        <Stack gap={6} mt={4}>
                          <Radio value="all" label="Nothing unless all of them fit" />
                          <Radio
                            value="first"
                            label={
                              room === 1
                                ? 'The first row, and leave out the rest'
                                : `The first ${count(room, 'row')}, and leave out the rest`
                            }
                          />
                        </Stack>
                      </Radio.Group>
                    )}
                  </Stack>
                </Alert>
              )}
              {anyDynamic && domainOptions.length > 0 && (
                <Select
                  label="Short domain"
                  description="Where the dynamic codes' short links start; static codes have none."
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
                Design for all codes
              </Text>
              <Group align="flex-start" gap="md" wrap="wrap">
                {sample && (
                  <QrPreview
                    data={sample.content}
                    customization={customization}
                    size={120}
                    label={`QR code preview: ${sample.name}`}
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
                <Stack gap={4} role="status" aria-label="Creating the QR codes">
                  <Progress value={100} animated striped aria-hidden />
                  <Text size="xs" c="dimmed">
                    Creating {count(toCreate, 'QR code')}…
                  </Text>
                </Stack>
              )}
              <Group justify="space-between">
                <Button variant="default" onClick={() => setStep(1)} disabled={create.isPending}>
                  Back
                </Button>
                <Button onClick={submit} disabled={!canCreate} loading={create.isPending}>
                  {`Create ${count(toCreate, 'QR code')}`}
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
                title={`${count(result.created.length, 'QR code')} created`}
              >
                {resultSummary(result)}
              </Alert>
              {result.created.length > 0 && <BulkScanProgress ids={result.created.map((c) => c.id)} />}
              {result.skipped.length > 0 && (
                <List size="sm" spacing={2}>
                  {result.skipped.slice(0, 5).map((s) => (
                    <List.Item key={s.row}>
                      Row {(ready[s.row]?.index ?? s.row) + 1}: {s.message}
                    </List.Item>
                  ))}
                  {result.skipped.length > 5 && <List.Item>…and {result.skipped.length - 5} more</List.Item>}
                </List>
              )}
              {result.created.length > 0 && (
                <Stack gap="xs">
                  <Text size="sm">
                    Download every image in one ZIP, named after each code, with a codes.csv of their ids,
                    names and short links.
                  </Text>
                  <Group gap="sm" wrap="wrap">
                    <SegmentedControl
                      aria-label="Image format"
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
                      Download ZIP
                    </Button>
                  </Group>
                  {archiveBytes !== null && (
                    <Stack gap={4} role="status" aria-label="Downloading the ZIP">
                      <Progress value={100} animated striped aria-hidden />
                      <Text size="xs" c="dimmed">
                        Drawing {count(result.created.length, 'image')}… {formatBytes(archiveBytes)} received
                      </Text>
                    </Stack>
                  )}
                </Stack>
              )}
              <Group justify="flex-end">
                <Button variant="default" onClick={close} disabled={archiveBytes !== null}>
                  Done
                </Button>
              </Group>
            </Stack>
          )}
        </Stepper.Completed>
      </Stepper>
    </Modal>
  );
}
