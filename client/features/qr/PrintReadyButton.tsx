import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { imageDataOf } from '../../../src/qr/qr-limits';
import type { QrCode } from '../../../src/qr/qr.schema';
import { UnscannableConfirm } from '../scan-safety/UnscannableConfirm';
import { useUnscannableGate } from '../scan-safety/use-unscannable-gate';
import { PrintDownloadDialog } from './PrintDownloadDialog';

/**
 * A saved code's print-ready download (size, DPI, caption); a code the server found unscannable asks first.
 */
export function PrintReadyButton({ code }: { code: QrCode }) {
  const { t } = useLingui();
  const [printing, setPrinting] = useState(false);
  const gate = useUnscannableGate<true>(code.scannable?.verdict === 'unscannable', () => setPrinting(true));
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconPrinter size={18} aria-hidden />}
        onClick={() => gate.request(true)}
      >
        <Trans>Print-ready download</Trans>
      </Button>
      <UnscannableConfirm
        reasons={code.scannable ? [code.scannable.reason] : []}
        hint={code.isDynamic ? t`Edit the design to fix it: the designer suggests one-click fixes.` : null}
        {...gate.dialog}
        confirmLabel={t`Download anyway`}
      />
      <PrintDownloadDialog
        opened={printing}
        onClose={() => setPrinting(false)}
        data={imageDataOf(code)}
        customization={code.customization}
        name={code.name}
        id={code.id}
        shortUrl={code.shortUrl}
      />
    </>
  );
}
