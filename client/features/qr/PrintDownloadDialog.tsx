import {
  Alert,
  Button,
  Group,
  Modal,
  NumberInput,
  Radio,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconDownload } from '@tabler/icons-react';
import { useId, useState } from 'react';
import type { Customization } from '../../../src/qr/customization';
import {
  CAPTION_MAX,
  captionFor,
  captionPrintPt,
  designPrintWarning,
  formatDecimal,
  MIN_CAPTION_PT,
  minPrintCmForDistance,
  PRINT_DPI,
  PRINT_DPI_CHOICES,
  PRINT_PRESETS,
  PRINT_WIDTH_CM,
  printedShortUrl,
  printOptionsInput,
  pngPixelSize,
  pngSizeProblem,
  SCAN_DISTANCE_M,
  scanDistanceAdvice,
  type CaptionMode,
  type PrintFormat,
} from '../../../src/qr/print-size';
import { translateShared } from '../../i18n/shared-messages';
import { notify } from '../../lib/notify';
import { useScanCheck } from '../scan-safety/use-scan-check';
import { downloadQr } from '../../lib/qr-render';
import { qrFileName } from '../../../src/qr/render-options';

export interface PrintDownloadDialogProps {
  opened: boolean;
  onClose: () => void;
  /** What the code encodes. */
  data: string;
  customization: Customization;
  /** The code's name: the file is named after it (see qrFileName). */
  name: string;
  id?: number;
  /** A dynamic code's short link: offers it as the caption. */
  shortUrl?: string | null;
  onDownloaded?: (fileName: string) => void;
  /** Asked before each download (e.g. to confirm a design that won't scan); false cancels it. */
  beforeDownload?: () => Promise<boolean>;
}

interface FormValues {
  format: PrintFormat;
  /** '' while the field is empty. */
  widthCm: number | string;
  dpi: number;
  caption: CaptionMode;
  captionText: string;
}

const formatOptions = [
  { value: 'png', label: 'PNG' },
  { value: 'svg', label: 'SVG' },
  { value: 'pdf', label: 'PDF' },
];

/** qrFileName keeps at most this many characters of a name. */
const FILE_NAME_MAX = 60;

/**
 * The name a print-ready file is saved under: the code's file name and its printed width, so it never
 * overwrites the plain download of the same code ('Spring menu', 5 cm → spring-menu-5cm.pdf; 2.5 cm →
 * spring-menu-25mm.pdf, as a dot would read as a dash). The width is kept whatever the name's length.
 */
export function printFileBase(name: string, id: number | undefined, widthCm: number): string {
  const size = Number.isInteger(widthCm) ? `${widthCm}cm` : `${formatDecimal(widthCm * 10)}mm`;
  const base = qrFileName('png', name, id).replace(/\.png$/, '');
  return `${base.slice(0, FILE_NAME_MAX - size.length - 1).replace(/-+$/, '')}-${size}`;
}

const asNumber = (value: number | string): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/**
 * Print-ready download: PNG at a print width and DPI, SVG sized in cm, or a vector PDF, with an optional
 * caption under the code, and the smallest print size for a scanning distance (src/qr/print-size.ts).
 */
export function PrintDownloadDialog({
  opened,
  onClose,
  data,
  customization,
  name,
  id,
  shortUrl,
  onDownloaded,
  beforeDownload,
}: PrintDownloadDialogProps) {
  const { t } = useLingui();
  const isMobile = useMediaQuery('(max-width: 767px)');
  // The presets' names come from src/qr/print-size.ts (English), translated where they are.
  const presetOptions = PRINT_PRESETS.map((p) => {
    const preset = translateShared(p.label);
    const widthCm = formatDecimal(p.widthCm);
    const distanceM = formatDecimal(p.distanceM);
    return { value: p.id, label: t`${preset}: ${widthCm} cm, scanned from ${distanceM} m` };
  });
  const formatLabelId = useId();
  const [distance, setDistance] = useState<number | string>(SCAN_DISTANCE_M.default);
  const [phase, setPhase] = useState<'idle' | 'confirming' | 'downloading'>('idle');

  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: {
      format: 'png',
      widthCm: PRINT_WIDTH_CM.default,
      dpi: PRINT_DPI.default,
      caption: 'none',
      captionText: '',
    },
    validate: schemaResolver(printOptionsInput, { sync: true }),
    validateInputOnChange: true,
  });
  const { values } = form;
  // A field's props with its error (src/qr/print-size.ts's checks, in English) in the user's language.
  const inputProps = (field: 'widthCm' | 'captionText') => {
    const props = form.getInputProps(field);
    const error: unknown = props.error;
    return {
      ...props,
      error: typeof error === 'string' ? translateShared(error) : (error as React.ReactNode),
    };
  };
  // The PNG size limit and the custom caption's text depend on other fields: recheck them on a change.
  const setAndRevalidate = (change: Partial<Pick<FormValues, 'format' | 'dpi' | 'caption'>>) => {
    form.setValues(change);
    form.validateField('widthCm');
    form.validateField('captionText');
  };
  const hasShortUrl = typeof shortUrl === 'string' && shortUrl.trim() !== '';
  // The short URL option disappears when there is none; a stale choice then prints nothing.
  const captionMode: CaptionMode = values.caption === 'short-url' && !hasShortUrl ? 'none' : values.caption;
  const width = asNumber(values.widthCm);
  const distanceM = asNumber(distance);
  const minCm = distanceM !== null && distanceM > 0 ? minPrintCmForDistance(distanceM) : null;
  // The design's own smallest print, from the same scan check as the designer's (run while open).
  const scan = useScanCheck(opened && data !== '' ? data : null, customization);
  const designWarning =
    scan.status === 'done' && scan.check.verdict !== 'unscannable' && width !== null
      ? designPrintWarning(width, scan.check)
      : null;
  const caption = captionFor({ caption: captionMode, captionText: values.captionText }, shortUrl);
  const captionPt = caption !== null && width !== null ? captionPrintPt(width, caption) : null;
  const pngSize =
    values.format === 'png' && width !== null && pngSizeProblem(width, values.dpi) === null
      ? pngPixelSize(width, values.dpi, caption !== null)
      : null;
  const preset = PRINT_PRESETS.find((p) => p.widthCm === width && p.distanceM === distanceM)?.id ?? null;

  // The figures the dialog's sentences name.
  const widthText = width !== null ? formatDecimal(width) : '…';
  const distanceText = distanceM !== null ? formatDecimal(distanceM) : '';
  const minCmText = minCm !== null ? formatDecimal(minCm) : '';
  const captionPtText = captionPt !== null ? formatDecimal(captionPt) : '';
  const minCaptionPt = MIN_CAPTION_PT;
  const captionLength = values.captionText.length;
  const captionMax = CAPTION_MAX;
  const printedUrl = shortUrl ? printedShortUrl(shortUrl) : '';

  const download = async (raw: FormValues) => {
    if (phase !== 'idle' || data === '') return;
    try {
      const options = printOptionsInput.parse({ ...raw, caption: captionMode });
      if (beforeDownload) {
        setPhase('confirming');
        if (!(await beforeDownload())) return;
      }
      setPhase('downloading');
      const fileName = await downloadQr(
        options.format,
        data,
        customization,
        { name: printFileBase(name, id, options.widthCm), id },
        { widthCm: options.widthCm, dpi: options.dpi, caption: captionFor(options, shortUrl) },
      );
      notify.success(t`QR Code Downloaded`, t`Saved as ${fileName}.`);
      onDownloaded?.(fileName);
    } catch {
      notify.error(t`Download Failed`, t`The file could not be created. Please try again.`);
    } finally {
      setPhase('idle');
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t`Print-ready download`}
      size="md"
      fullScreen={isMobile}
      closeButtonProps={{ 'aria-label': t`Close` }}
    >
      <form onSubmit={form.onSubmit((v) => void download(v))} noValidate>
        <Stack gap="md">
          <Select
            label={t`Printed on`}
            placeholder={t`Choose to fill in width and distance`}
            data={presetOptions}
            value={preset}
            onChange={(value) => {
              const p = PRINT_PRESETS.find((x) => x.id === value);
              if (!p) return;
              form.setFieldValue('widthCm', p.widthCm);
              setDistance(p.distanceM);
            }}
          />
          <div>
            <Text size="sm" fw={500} mb={6} id={formatLabelId}>
              <Trans>Format</Trans>
            </Text>
            <SegmentedControl
              aria-labelledby={formatLabelId}
              fullWidth
              data={formatOptions}
              value={values.format}
              onChange={(value) => setAndRevalidate({ format: value as PrintFormat })}
            />
          </div>
          <Group grow align="flex-start" gap="sm" wrap={isMobile ? 'wrap' : 'nowrap'}>
            <NumberInput
              label={t`Print width (cm)`}
              min={PRINT_WIDTH_CM.min}
              max={PRINT_WIDTH_CM.max}
              step={0.5}
              decimalScale={2}
              clampBehavior="none"
              required
              {...inputProps('widthCm')}
            />
            {values.format === 'png' && (
              <Select
                label="DPI"
                data={PRINT_DPI_CHOICES.map(String)}
                value={String(values.dpi)}
                allowDeselect={false}
                description={pngSize ? `${pngSize.width} × ${pngSize.height} px` : undefined}
                onChange={(value) => value && setAndRevalidate({ dpi: Number(value) })}
              />
            )}
          </Group>
          {values.format !== 'png' && (
            <Text size="xs" c="dimmed">
              <Trans>Vector: exactly {widthText} cm wide, sharp at any size.</Trans>
            </Text>
          )}
          <Radio.Group
            label={t`Caption`}
            value={captionMode}
            onChange={(value) => setAndRevalidate({ caption: value })}
          >
            <Group gap="md" mt={6}>
              <Radio value="none" label={t({ message: 'None', comment: 'No caption under the code' })} />
              {hasShortUrl && <Radio value="short-url" label={t`Short URL`} />}
              <Radio value="custom" label={t`Custom text`} />
            </Group>
          </Radio.Group>
          {captionMode === 'short-url' && shortUrl && (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              <Trans>Prints {printedUrl} under the code.</Trans>
            </Text>
          )}
          {captionMode === 'custom' && (
            <TextInput
              label={t`Caption text`}
              maxLength={CAPTION_MAX}
              description={t`${captionLength}/${captionMax} characters`}
              {...inputProps('captionText')}
            />
          )}
          {captionPt !== null && captionPt < MIN_CAPTION_PT && (
            <Text size="xs" c="dimmed">
              <Trans>
                The caption prints about {captionPtText} pt high, hard to read below {minCaptionPt} pt:
                shorten it or print the code wider.
              </Trans>
            </Text>
          )}
          <NumberInput
            label={t`Scanning distance (m)`}
            min={SCAN_DISTANCE_M.min}
            max={SCAN_DISTANCE_M.max}
            step={0.1}
            decimalScale={2}
            value={distance}
            onChange={setDistance}
          />
          {minCm !== null && distanceM !== null && (
            <Text size="sm" role="status">
              {translateShared(scanDistanceAdvice(distanceM))}
            </Text>
          )}
          {minCm !== null && distanceM !== null && width !== null && width < minCm && (
            <Alert
              color="yellow"
              variant="light"
              title={t`Smaller than recommended`}
              icon={<IconAlertTriangle size={20} aria-hidden />}
            >
              <Trans>
                At {widthText} cm it may not scan from {distanceText} m away. Print it at least {minCmText} cm
                wide, or place it where people scan from closer.
              </Trans>
            </Alert>
          )}
          {designWarning !== null && (
            <Alert
              color="yellow"
              variant="light"
              title={t`Too small for this design`}
              icon={<IconAlertTriangle size={20} aria-hidden />}
            >
              {translateShared(designWarning)}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button
              type="submit"
              leftSection={<IconDownload size={18} aria-hidden />}
              loading={phase === 'downloading'}
              disabled={phase === 'confirming' || data === ''}
            >
              <Trans>Download</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
