import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  Menu,
  Stack,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconChartBar,
  IconDots,
  IconDownload,
  IconEdit,
  IconFolderShare,
  IconPrinter,
  IconShare,
  IconTrash,
  IconUsersGroup,
} from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { cloneElement } from 'react';
import { qrTypeLabels } from '../../../src/qr/qr-types';
import { imageDataOf, type QrCode } from '../../../src/qr/qr.schema';
import { MountOnFirstUse, OpenedAfterMount } from '../../components/MountOnFirstUse';
import { middleTruncate } from '../../lib/format';
import { qrImageLabel } from '../qr/qr-image-label';
import { QrPreview } from '../qr/QrPreview';
import { shareQr } from '../qr/share';
import { ScanVerdictBadge } from '../scan-safety/ScanSafetyBadge';
import type { CodeMark } from './code-marks';
import { CodeMarks } from './CodeMarks';
import { destinationOf } from './code-summary';
import { LastScan, ScanCount, type FiguresState } from './ScanFigures';
import { useCodeDownloads } from './use-code-downloads';

/** Characters of the destination a card shows: both ends of a long URL, on one or two lines. */
const CARD_DESTINATION_MAX = 60;

export function QrCodeCard({
  code,
  folderName,
  marks,
  figures,
  now,
  canEdit,
  onMove,
  onDelete,
  onMoveToTeam,
}: {
  code: QrCode;
  folderName: string | null;
  marks: CodeMark[];
  figures: FiguresState;
  now: number;
  /** Editor and up in this workspace: Edit, Move and Delete are offered (a viewer sees none of them). */
  canEdit: boolean;
  onMove: () => void;
  onDelete: () => void;
  /** Offered in the personal workspace when the user edits a team. */
  onMoveToTeam?: () => void;
}) {
  const data = imageDataOf(code);
  const verdict = code.scannable?.verdict ?? null;
  const { downloading, request: requestDownload, dialogs } = useCodeDownloads(code);
  const destination = destinationOf(code);
  const shown = middleTruncate(destination, CARD_DESTINATION_MAX);
  const moreButton = (
    <ActionIcon
      variant="default"
      size="md"
      aria-label={`More actions for ${code.name}`}
      aria-haspopup="menu"
      aria-expanded={false}
    >
      <IconDots size={16} aria-hidden />
    </ActionIcon>
  );

  return (
    <Card withBorder padding="md" radius="md" component="article" aria-label={code.name}>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <QrPreview
          data={data}
          customization={code.customization}
          size={160}
          label={qrImageLabel(code)}
          deferred
        />
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
            <CodeMarks marks={marks} />
          </Group>
          {verdict && verdict !== 'scannable' && (
            <Text size="xs" c={verdict === 'unscannable' ? 'red.8' : 'dimmed'} data-scan-reason>
              {code.scannable?.reason}
            </Text>
          )}
          <Text
            size="sm"
            c="dimmed"
            lineClamp={2}
            style={{ wordBreak: 'break-word' }}
            title={shown === destination ? undefined : destination}
            data-destination
          >
            {shown === destination ? (
              destination
            ) : (
              <>
                <span aria-hidden>{shown}</span>
                <VisuallyHidden>{destination}</VisuallyHidden>
              </>
            )}
          </Text>
          {code.shortUrl && (
            <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
              {code.shortUrl}
            </Text>
          )}
          <Group gap={8} wrap="wrap" align="baseline">
            <ScanCount isDynamic={code.isDynamic} state={figures} />
            <LastScan isDynamic={code.isDynamic} state={figures} now={now} />
          </Group>
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
          {(['svg', 'pdf'] as const).map((format) => {
            const button = (
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
            );
            // The tooltip mounted when the button is first reached (components/MountOnFirstUse.tsx).
            return (
              <MountOnFirstUse
                key={format}
                plain={button}
                full={(use, ref) => (
                  <Tooltip label={`Download as ${format.toUpperCase()}`} defaultOpened={use === 'hover'}>
                    {cloneElement(button, { ref })}
                  </Tooltip>
                )}
              />
            );
          })}
        </Button.Group>
        {canEdit && code.isDynamic && (
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
        {canEdit && (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconFolderShare size={16} aria-hidden />}
            onClick={onMove}
          >
            Move
          </Button>
        )}
        <Button
          size="xs"
          variant="default"
          component={Link}
          to={`/qr-details/${code.id}`}
          leftSection={<IconChartBar size={16} aria-hidden />}
        >
          Stats
        </Button>
        {/* The menu and its tooltip mounted when the button is first reached (components/MountOnFirstUse.tsx). */}
        <MountOnFirstUse
          plain={moreButton}
          full={(use, ref) => (
            <OpenedAfterMount open={use === 'click'}>
              {(state) => (
                <Menu position="bottom-end" withinPortal {...state}>
                  <Menu.Target>
                    <Tooltip label="More actions" defaultOpened={use === 'hover'}>
                      {cloneElement(moreButton, { ref })}
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
                    {onMoveToTeam && (
                      <Menu.Item
                        leftSection={<IconUsersGroup size={16} aria-hidden />}
                        onClick={onMoveToTeam}
                      >
                        Move to team…
                      </Menu.Item>
                    )}
                    {canEdit && (
                      <>
                        <Menu.Divider />
                        <Menu.Item
                          color="red"
                          leftSection={<IconTrash size={16} aria-hidden />}
                          onClick={onDelete}
                        >
                          Delete
                        </Menu.Item>
                      </>
                    )}
                  </Menu.Dropdown>
                </Menu>
              )}
            </OpenedAfterMount>
          )}
        />
      </Group>
      {dialogs}
    </Card>
  );
}
