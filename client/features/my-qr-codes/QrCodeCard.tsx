import { ActionIcon, Badge, Button, Card, Group, Menu, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconChartBar,
  IconDots,
  IconDownload,
  IconEdit,
  IconFolderShare,
  IconPrinter,
  IconShare,
  IconTrash,
} from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { describeContent } from '../../../src/qr/content';
import { qrTypeLabels } from '../../../src/qr/qr-types';
import { imageDataOf, type QrCode } from '../../../src/qr/qr.schema';
import { notify } from '../../lib/notify';
import { qrImageLabel } from '../qr/qr-image-label';
import { PrintDownloadDialog } from '../qr/PrintDownloadDialog';
import { QrPreview } from '../qr/QrPreview';
import { downloadQr } from '../../lib/qr-render';
import { shareQr } from '../qr/share';
import { ScanVerdictBadge } from '../scan-safety/ScanSafetyBadge';
import { UnscannableConfirm } from '../scan-safety/UnscannableConfirm';
import { useUnscannableGate } from '../scan-safety/use-unscannable-gate';

type Format = 'png' | 'svg' | 'pdf';
/** The downloads a card offers: a file at once, or the print-ready dialog. */
type Request = Format | 'print';

export function QrCodeCard({
  code,
  folderName,
  onMove,
  onDelete,
}: {
  code: QrCode;
  folderName: string | null;
  onMove: () => void;
  onDelete: () => void;
}) {
  const [downloading, setDownloading] = useState<Format | null>(null);
  const [printing, setPrinting] = useState(false);
  const data = imageDataOf(code);
  const verdict = code.scannable?.verdict ?? null;

  const download = async (format: Format) => {
    setDownloading(format);
    try {
      const fileName = await downloadQr(format, data, code.customization, { name: code.name, id: code.id });
      notify.success('QR Code Downloaded', `Saved as ${fileName}.`);
    } catch {
      notify.error('Download Failed', 'The QR code could not be downloaded. Please try again.');
    } finally {
      setDownloading(null);
    }
  };

  // A code whose design won't scan is downloaded only after the user has read why.
  const go = (request: Request) => (request === 'print' ? setPrinting(true) : void download(request));
  const gate = useUnscannableGate<Request>(verdict === 'unscannable', go);
  const requestDownload = gate.request;

  return (
    <Card withBorder padding="md" radius="md" component="article" aria-label={code.name}>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <QrPreview data={data} customization={code.customization} size={160} label={qrImageLabel(code)} />
        <Stack gap={6} style={{ minWidth: 0, flex: 1 }}>
          <Text fw={700} lineClamp={2}>
            {code.name}
          </Text>
          <Group gap={6}>
            <Badge variant="light">{qrTypeLabels[code.type]}</Badge>
            <Badge variant="light" color={code.isDynamic ? 'teal' : 'gray'}>
              {code.isDynamic ? 'Dynamic' : 'Static'}
            </Badge>
            {verdict && verdict !== 'scannable' && <ScanVerdictBadge verdict={verdict} size="sm" />}
          </Group>
          {verdict && verdict !== 'scannable' && (
            <Text size="xs" c={verdict === 'unscannable' ? 'red.8' : 'dimmed'} data-scan-reason>
              {code.scannable?.reason}
            </Text>
          )}
          <Text size="sm" c="dimmed" lineClamp={2} style={{ wordBreak: 'break-word' }}>
            {describeContent(code.type, code.content)}
          </Text>
          {code.shortUrl && (
            <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
              {code.shortUrl}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {folderName ? `In ${folderName} · ` : ''}Created {new Date(code.created).toLocaleDateString()}
          </Text>
        </Stack>
      </Group>
      <Group gap="xs" mt="md" wrap="wrap">
        {/* PNG, SVG and PDF each one click away; the SVG/PDF names leave 'Download' to the PNG button. */}
        <Button.Group>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={downloading === 'png'}
            disabled={downloading !== null && downloading !== 'png'}
            onClick={() => requestDownload('png')}
          >
            Download
          </Button>
          {(['svg', 'pdf'] as const).map((format) => (
            <Tooltip key={format} label={`Download as ${format.toUpperCase()}`}>
              <Button
                size="xs"
                variant="light"
                px={8}
                style={{ borderLeft: '1px solid var(--mantine-color-default-border)' }}
                loading={downloading === format}
                disabled={downloading !== null && downloading !== format}
                onClick={() => requestDownload(format)}
              >
                {format.toUpperCase()}
              </Button>
            </Tooltip>
          ))}
        </Button.Group>
        {code.isDynamic && (
          <Button
            size="xs"
            variant="default"
            component={Link}
            to={`/edit-qr/${code.id}`}
            leftSection={<IconEdit size={16} aria-hidden />}
          >
            Edit
          </Button>
        )}
        <Button
          size="xs"
          variant="default"
          leftSection={<IconFolderShare size={16} aria-hidden />}
          onClick={onMove}
        >
          Move
        </Button>
        <Button
          size="xs"
          variant="default"
          component={Link}
          to={`/qr-details/${code.id}`}
          leftSection={<IconChartBar size={16} aria-hidden />}
        >
          Stats
        </Button>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Tooltip label="More actions">
              <ActionIcon variant="default" size="md" aria-label={`More actions for ${code.name}`}>
                <IconDots size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={() => requestDownload('svg')}
            >
              Download SVG
            </Menu.Item>
            <Menu.Item
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={() => requestDownload('pdf')}
            >
              Download PDF
            </Menu.Item>
            <Menu.Item
              leftSection={<IconPrinter size={16} aria-hidden />}
              onClick={() => requestDownload('print')}
            >
              Print-ready download…
            </Menu.Item>
            <Menu.Item
              leftSection={<IconShare size={16} aria-hidden />}
              onClick={() => void shareQr({ title: code.name, url: data })}
            >
              Share
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={onDelete}>
              Delete
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      <UnscannableConfirm
        reasons={code.scannable ? [code.scannable.reason] : []}
        hint={
          code.isDynamic
            ? 'Edit the design to fix it: the designer suggests one-click fixes.'
            : 'Create it again with a darker foreground, a smaller logo or a higher error correction.'
        }
        {...gate.dialog}
        confirmLabel="Download anyway"
      />
      <PrintDownloadDialog
        opened={printing}
        onClose={() => setPrinting(false)}
        data={data}
        customization={code.customization}
        name={code.name}
        id={code.id}
        shortUrl={code.shortUrl}
      />
    </Card>
  );
}
