import { Button } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { imageDataOf, type QrCode } from '../../../src/qr/qr.schema';
import { UnscannableConfirm } from '../scan-safety/UnscannableConfirm';
import { PrintDownloadDialog } from './PrintDownloadDialog';

/**
 * A saved code's print-ready download (size, DPI, caption); a code the server found unscannable asks first.
 */
export function PrintReadyButton({ code }: { code: QrCode }) {
  const [confirming, setConfirming] = useState(false);
  const [printing, setPrinting] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconPrinter size={18} aria-hidden />}
        onClick={() => (code.scannable?.verdict === 'unscannable' ? setConfirming(true) : setPrinting(true))}
      >
        Print-ready download
      </Button>
      <UnscannableConfirm
        reasons={code.scannable ? [code.scannable.reason] : []}
        hint={code.isDynamic ? 'Edit the design to fix it: the designer suggests one-click fixes.' : null}
        opened={confirming}
        confirmLabel="Download anyway"
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          setPrinting(true);
        }}
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
