import { useLingui } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import { imageDataOf, type QrCode } from '../../../src/qr/qr.schema';
import { notify } from '../../lib/notify';
import { useFirstOpen } from '../../lib/use-first-open';
import { downloadQr } from '../../lib/qr-render';
import { PrintDownloadDialog } from '../qr/PrintDownloadDialog';
import { UnscannableConfirm } from '../scan-safety/UnscannableConfirm';
import { useUnscannableGate } from '../scan-safety/use-unscannable-gate';

export type DownloadFormat = 'png' | 'svg' | 'pdf';
/** The downloads a code offers: a file at once, or the print-ready dialog. */
export type DownloadRequest = DownloadFormat | 'print';

/**
 * A code's downloads, as its card and its list row offer them: `request('svg')` saves the file (after a
 * confirmation when the design won't scan), `request('print')` opens the print-ready dialog. Render
 * `dialogs` once beside the buttons.
 */
export function useCodeDownloads(code: QrCode): {
  downloading: DownloadFormat | null;
  request: (request: DownloadRequest) => void;
  dialogs: ReactNode;
} {
  const { t } = useLingui();
  const [downloading, setDownloading] = useState<DownloadFormat | null>(null);
  const [printing, setPrinting] = useState(false);
  const data = imageDataOf(code);
  const verdict = code.scannable?.verdict ?? null;

  const download = async (format: DownloadFormat) => {
    setDownloading(format);
    try {
      const fileName = await downloadQr(format, data, code.customization, { name: code.name, id: code.id });
      notify.success(t`QR Code Downloaded`, t`Saved as ${fileName}.`);
    } catch {
      notify.error(t`Download Failed`, t`The QR code could not be downloaded. Please try again.`);
    } finally {
      setDownloading(null);
    }
  };

  // A code whose design won't scan is downloaded only after the user has read why.
  const go = (request: DownloadRequest) => (request === 'print' ? setPrinting(true) : void download(request));
  const gate = useUnscannableGate<DownloadRequest>(verdict === 'unscannable', go);
  // Each in the tree only once first opened: most rows never open either.
  const confirm = useFirstOpen(gate.dialog.opened);
  const print = useFirstOpen(printing);

  const dialogs = (
    <>
      {confirm.mounted && (
        <UnscannableConfirm
          reasons={code.scannable ? [code.scannable.reason] : []}
          hint={
            code.isDynamic
              ? t`Edit the design to fix it: the designer suggests one-click fixes.`
              : t`Create it again with a darker foreground, a smaller logo or a higher error correction.`
          }
          {...gate.dialog}
          opened={confirm.opened}
          confirmLabel={t`Download anyway`}
        />
      )}
      {print.mounted && (
        <PrintDownloadDialog
          opened={print.opened}
          onClose={() => setPrinting(false)}
          data={data}
          customization={code.customization}
          name={code.name}
          id={code.id}
          shortUrl={code.shortUrl}
        />
      )}
    </>
  );
  return { downloading, request: gate.request, dialogs };
}
