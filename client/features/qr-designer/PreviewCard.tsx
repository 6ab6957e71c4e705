import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Button, Card, Group, Menu, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconDownload, IconInfoCircle, IconShare2 } from '@tabler/icons-react';
import { useState } from 'react';
import type { Customization } from '../../../src/qr/customization';
import { TRANSPARENT } from '../../../src/qr/customization-values';
import { qrTypeLabels, type QrType } from '../../../src/qr/qr-types';
import { translateShared } from '../../i18n/shared-messages';
import { notify } from '../../lib/notify';
import { QrPreview } from '../qr/QrPreview';
import { downloadQr } from '../../lib/qr-render';
import { useFirstOpen } from '../../lib/use-first-open';
import type { PrintDownloadDialog as PrintDownloadDialogType } from '../qr/PrintDownloadDialog';
import { shareQr } from '../qr/share';
import type { ScanFixId } from '../../../src/qr/scan-safety';
import { ScanSafetyPanel } from '../scan-safety/ScanSafetyBadge';
import { useUnscannableGate } from '../scan-safety/use-unscannable-gate';
import type { ScanCheckState } from '../scan-safety/use-scan-check';
import type { ContentProblem } from './designer-values';
import classes from './qr-designer.module.css';
import { useLazyDialog } from '../../lib/use-lazy-dialog';
import { loadUnscannableDialog } from './lazy-dialogs';

type PrintDialog = typeof PrintDownloadDialogType;

/** What the greyed-out preview shows while the content is incomplete. */
const PLACEHOLDER_DATA = 'https://example.com';

type Format = 'png' | 'svg' | 'pdf';
const formats: { value: Format; label: MessageDescriptor }[] = [
  { value: 'png', label: msg`PNG image` },
  { value: 'svg', label: msg`SVG vector` },
  { value: 'pdf', label: msg`PDF document` },
];

export type { Format as DownloadFormat };

interface PreviewCardProps {
  /** What the code encodes, or null while the content is incomplete or invalid. */
  data: string | null;
  /** Why `data` is null: the first missing or invalid content field, as a sentence. */
  problem?: ContentProblem | null;
  customization: Customization;
  name: string;
  type: QrType;
  /** Creating a dynamic code: the printed code will hold a short link, not `data`. */
  pendingShortLink: boolean;
  /** Editing a saved dynamic code: its short link (what `data` is). */
  shortUrl?: string | null;
  /** Side by side (one-column layout) or stacked (the sticky side column). */
  layout: 'row' | 'column';
  /** The page's own actions (Save Draft, Create…), under the preview in the side column. */
  children?: React.ReactNode;
  /**
   * Creating a dynamic code: its downloads must hold the short link, which exists only once the code is
   * created, so Download offers "Create and download" (this callback) instead of saving the raw content.
   */
  onCreateAndDownload?: (format: Format) => void;
  /** The page is creating the code (Create and download waits for it). */
  creating?: boolean;
  /** The live scan-safety check of what the printed code will hold. */
  scanCheck?: ScanCheckState;
  onScanFix?: (id: ScanFixId) => void;
  scanNote?: string | null;
}

export function PreviewCard({
  data,
  problem,
  customization,
  name,
  type,
  pendingShortLink,
  shortUrl,
  layout,
  children,
  onCreateAndDownload,
  creating = false,
  scanCheck,
  onScanFix,
  scanNote,
}: PreviewCardProps) {
  // The preview is 150 px under 640 px width, else 200.
  const { t } = useLingui();
  const narrow = useMediaQuery('(max-width: 39.99em)', false, { getInitialValueInEffect: false });
  const size = narrow ? 150 : 200;
  const [downloading, setDownloading] = useState<Format | null>(null);
  const ready = data !== null;
  const title = name.trim() || t`QR code`;

  const [printing, setPrinting] = useState(false);
  // The print and download dialog (its sizes, units and number fields) comes with its code when first
  // asked for; it is drawn once that has arrived, closed then open as a dialog always in the tree.
  const [PrintDownloadDialog, setPrintDialog] = useState<PrintDialog | null>(null);
  const print = useFirstOpen(printing && PrintDownloadDialog !== null);
  const openPrint = () => {
    setPrinting(true);
    if (!PrintDownloadDialog)
      void import('../qr/PrintDownloadDialog').then(
        (m) => setPrintDialog(() => m.PrintDownloadDialog),
        // Not there (offline): the button asks again on the next click.
        () => setPrinting(false),
      );
  };
  const download = async (format: Format) => {
    if (!data) return;
    setDownloading(format);
    try {
      const fileName = await downloadQr(format, data, customization, { name });
      notify.success(t`QR Code Downloaded`, t`Saved as ${fileName}.`);
    } catch {
      notify.error(t`Download Failed`, t`The file could not be created. Please try again.`);
    } finally {
      setDownloading(null);
    }
  };

  // A design that won't scan is downloaded only after the user confirms it.
  const unscannable = scanCheck?.status === 'done' && scanCheck.check.verdict === 'unscannable';
  const go = (request: Format | 'print') => (request === 'print' ? openPrint() : void download(request));
  const { request: requestDownload, dialog } = useUnscannableGate<Format | 'print'>(unscannable, go);
  const unscannableDialog = useLazyDialog(loadUnscannableDialog, dialog.opened, {
    preload: unscannable,
    onFailed: dialog.onClose,
  });

  const transparent = customization.backgroundColor === TRANSPARENT;
  const typeLabel = translateShared(qrTypeLabels[type]);
  // The code always sits on a light backdrop (a checkerboard shows a transparent background), so a dark
  // code or frame stays visible in dark mode.
  const image = (
    <Box
      className={`${classes.previewFrame} ${transparent ? classes.checker : ''}`}
      bg={transparent ? undefined : '#fff'}
      style={{ flexShrink: 0 }}
    >
      {ready ? (
        <QrPreview
          data={data}
          customization={customization}
          size={size}
          label={t`QR code preview: ${title}: ${typeLabel} code, encodes ${data}`}
          tile={false}
        />
      ) : (
        <div className={classes.placeholder}>
          <QrPreview
            data={PLACEHOLDER_DATA}
            customization={customization}
            size={size}
            label={t`Placeholder QR code: the content is not complete yet`}
            tile={false}
          />
        </div>
      )}
    </Box>
  );
  // A dynamic code's files hold its short link: before the code exists they can only come after creating.
  const createFirst = pendingShortLink && onCreateAndDownload !== undefined;

  const actions = (
    <Stack gap="xs" w={layout === 'row' && !narrow ? undefined : '100%'} style={{ flex: 1, minWidth: 0 }}>
      <Menu position="bottom-start" shadow="md" width={180} disabled={!ready}>
        <Menu.Target>
          <Button
            variant="light"
            fullWidth
            px="sm"
            leftSection={<IconDownload size={18} aria-hidden />}
            rightSection={narrow ? undefined : <IconChevronDown size={16} aria-hidden />}
            disabled={!ready}
            loading={downloading !== null || (createFirst && creating)}
          >
            {createFirst ? t`Create and download` : t`Download`}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            {createFirst
              ? t`Create the code, then download`
              : t({ message: 'Format', context: 'the download menu: the file format' })}
          </Menu.Label>
          {formats.map((f) => (
            <Menu.Item
              key={f.value}
              onClick={() => (createFirst ? onCreateAndDownload(f.value) : requestDownload(f.value))}
            >
              {t(f.label)}
            </Menu.Item>
          ))}
          {!createFirst && (
            <>
              <Menu.Divider />
              <Menu.Item onClick={() => requestDownload('print')}>
                <Trans>Print-ready…</Trans>
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      <Button
        variant="default"
        fullWidth
        px="sm"
        leftSection={<IconShare2 size={18} aria-hidden />}
        disabled={!ready || pendingShortLink}
        title={pendingShortLink ? t`Share the short link once the code is created` : undefined}
        onClick={() => data && void shareQr({ title, url: data })}
      >
        <Trans context="button: share the code">Share</Trans>
      </Button>
    </Stack>
  );

  const notes = (
    <Stack gap={4}>
      {ready && scanCheck && <ScanSafetyPanel state={scanCheck} onFix={onScanFix} note={scanNote} />}
      {!ready && (
        <Text size="xs" c={problem?.invalid ? 'red' : 'dimmed'} role="status">
          {problem?.text ?? t`Fill in the ${typeLabel} content to see your QR code.`}
        </Text>
      )}
      {pendingShortLink && (
        <Group gap={6} wrap="nowrap" align="flex-start">
          <IconInfoCircle size={16} aria-hidden style={{ flexShrink: 0, marginTop: 1 }} />
          <Text size="xs" c="dimmed">
            <Trans>
              Dynamic: the printed code will hold a short link to this content, so you can change it and track
              scans later. The short link exists once the code is created, so Create and download creates it
              first; Share is available after that.
            </Trans>
          </Text>
        </Group>
      )}
      {shortUrl && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          <Trans>Encodes your short link {shortUrl}</Trans>
        </Text>
      )}
    </Stack>
  );

  return (
    <Card withBorder padding="md" radius="md">
      <Stack gap="sm">
        <Text fw={600} size="sm">
          <Trans>Preview</Trans>
        </Text>
        {layout === 'row' && !narrow ? (
          <Group gap="sm" wrap="nowrap" align="center">
            {image}
            {actions}
          </Group>
        ) : (
          <Stack gap="sm" align="center">
            {image}
            {actions}
          </Stack>
        )}
        {/* The page's own actions (Create, Save Draft) before the notes, whose height changes as the scan
            check runs: the button stays where the pointer is going (under load, the check finishing
            during a click moved it away from the click). */}
        {children}
        {notes}
      </Stack>
      {unscannableDialog.Dialog && unscannableDialog.mounted && (
        <unscannableDialog.Dialog
          scanCheck={scanCheck}
          {...dialog}
          opened={unscannableDialog.opened}
          confirmLabel={t`Download anyway`}
        />
      )}
      {data !== null && PrintDownloadDialog && print.mounted && (
        <PrintDownloadDialog
          opened={print.opened}
          onClose={() => setPrinting(false)}
          data={data}
          customization={customization}
          name={title}
          shortUrl={shortUrl ?? null}
        />
      )}
    </Card>
  );
}
