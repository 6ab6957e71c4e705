import { Group, Menu, Skeleton, Stack, Tooltip } from '@mantine/core';
import { useElementSize, useMediaQuery } from '@mantine/hooks';
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
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { cloneElement } from 'react';
import { qrTypeLabels } from '../../../src/qr/qr-types';
import { imageDataOf, type QrCode } from '../../../src/qr/qr.schema';
import { MountOnFirstUse, OpenedAfterMount } from '../../components/MountOnFirstUse';
import { translateShared } from '../../i18n/shared-messages';
import { middleTruncate } from '../../lib/format';
import { shareQr } from '../qr/share';
import { ScanVerdictBadge } from '../scan-safety/ScanSafetyBadge';
import { withDestinationMark, type CodeMark } from './code-marks';
import { CodeMarks } from './CodeMarks';
import { destinationOf } from './code-summary';
import classes from './my-qr-codes.module.css';
import { cx, Hidden, plain, PlainActionIcon } from './PlainControls';
import { LastScan, ScanCount, type FiguresState } from './ScanFigures';
import { useCodeDownloads } from './use-code-downloads';
import { useDestinationIssues } from './use-destination-issues';

/** The destination's font size in px. */
const DEST_PX = 13;
/** The desktop row's fixed columns, gaps, padding and border: its 2fr/3fr columns share the rest. */
const FIXED_PX = {
  withLast: 104 + 72 + 88 + 112 + 36 + 6 * 12 + 24 + 2,
  noLast: 104 + 80 + 112 + 36 + 5 * 12 + 24 + 2,
};

/**
 * The width the destination has: the whole row on a phone (less padding and border), three fifths of what
 * the fixed columns leave on a wider screen, less a few pixels to spare.
 */
function destinationWidth(listWidth: number, wide: boolean, showLastScan: boolean): number {
  const px = wide
    ? ((listWidth - (showLastScan ? FIXED_PX.withLast : FIXED_PX.noLast)) * 3) / 5
    : listWidth - 26;
  return px - 4;
}

let canvas: CanvasRenderingContext2D | null | undefined;

/**
 * The text cut in the middle (middleTruncate) to the most characters whose rendering fits `width` px in
 * the page's font at DEST_PX, measured on a canvas; without a canvas (or a width yet), an estimate. CSS
 * ellipsis stays the safety net.
 */
function fitMiddle(text: string, width: number): string {
  if (width <= 0) return middleTruncate(text, 40);
  if (canvas === undefined) {
    canvas = document.createElement('canvas').getContext('2d');
    if (canvas) canvas.font = `${DEST_PX}px ${getComputedStyle(document.body).fontFamily}`;
  }
  if (!canvas) return middleTruncate(text, Math.floor(width / 7.5));
  const fits = (t: string) => canvas!.measureText(t).width <= width;
  if (fits(text)) return text;
  let lo = 8;
  let hi = Array.from(text).length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(middleTruncate(text, mid))) lo = mid;
    else hi = mid - 1;
  }
  return middleTruncate(text, lo);
}

export interface ListEntry {
  code: QrCode;
  folderName: string | null;
  marks: CodeMark[];
  figures: FiguresState;
}

/**
 * My QR Codes as a compact list: per code its name (a link to its details) with its marks, type, where a
 * scan goes (cut in the middle so that its end shows), scans, last scan and scan check, and every action
 * of its card in one menu. `showLastScan` is false while the server does not send last-scan times.
 */
export function QrCodeList({
  entries,
  showLastScan,
  now,
  canEdit,
  onMove,
  onDelete,
  onMoveToTeam,
}: {
  entries: ListEntry[];
  showLastScan: boolean;
  now: number;
  /** Editor and up: Edit, Move and Delete are offered. */
  canEdit: boolean;
  onMove: (code: QrCode) => void;
  onDelete: (code: QrCode) => void;
  onMoveToTeam?: (code: QrCode) => void;
}) {
  const { t } = useLingui();
  const wide = useMediaQuery('(min-width: 62em)') ?? false;
  const { ref, width } = useElementSize<HTMLDivElement>();
  const destWidth = destinationWidth(width, wide, showLastScan);
  // A down destination adds its red mark to the code's row (one query for the whole list).
  const issues = useDestinationIssues();
  return (
    <div className={showLastScan ? undefined : classes.noLast} data-view="list">
      <div className={classes.list} ref={ref}>
        {/* Headings for the eye; each row says what its figures are to a screen reader itself. */}
        <div className={classes.header} aria-hidden>
          <span>
            <Trans>Name</Trans>
          </span>
          <span>
            <Trans>Type</Trans>
          </span>
          <span>
            <Trans>Destination</Trans>
          </span>
          <span style={{ textAlign: 'right' }}>
            <Trans>Scans</Trans>
          </span>
          {showLastScan && (
            <span style={{ textAlign: 'right' }}>
              <Trans>Last scan</Trans>
            </span>
          )}
          <span>
            <Trans>Scan check</Trans>
          </span>
          <span />
        </div>
        <ul aria-label={t`QR codes`} className={classes.rows}>
          {entries.map((entry) => (
            <QrCodeRow
              key={entry.code.id}
              {...entry}
              marks={withDestinationMark(entry.marks, issues?.get(entry.code.id), now)}
              fit={(text) => fitMiddle(text, destWidth)}
              wide={wide}
              now={now}
              canEdit={canEdit}
              onMove={() => onMove(entry.code)}
              onDelete={() => onDelete(entry.code)}
              onMoveToTeam={onMoveToTeam && (() => onMoveToTeam(entry.code))}
            />
          ))}
        </ul>
      </div>
    </div>
  );
}

function QrCodeRow({
  code,
  folderName,
  marks,
  figures,
  fit,
  wide,
  now,
  canEdit,
  onMove,
  onDelete,
  onMoveToTeam,
}: ListEntry & {
  fit: (text: string) => string;
  wide: boolean;
  now: number;
  canEdit: boolean;
  onMove: () => void;
  onDelete: () => void;
  onMoveToTeam?: () => void;
}) {
  const { t } = useLingui();
  const { downloading, request, dialogs } = useCodeDownloads(code);
  const codeName = code.name;
  const destination = destinationOf(code);
  const shown = fit(destination);
  const verdict = code.scannable?.verdict ?? null;
  const menuButton = (
    <PlainActionIcon
      variant="subtle"
      aria-label={t`Actions for ${codeName}`}
      aria-haspopup="menu"
      aria-expanded={false}
      loading={downloading !== null}
    >
      <IconDots size={18} aria-hidden />
    </PlainActionIcon>
  );
  // The server's words (src/qr/scan-safety.ts), in the user's language where they are translated.
  const reason = code.scannable && translateShared(code.scannable.reason);
  const badge = verdict && (
    <span style={{ display: 'inline-flex' }}>
      <ScanVerdictBadge verdict={verdict} size="sm" />
    </span>
  );
  return (
    <li className={classes.row} data-code-row={code.id}>
      <div className={cx(classes.name, classes.nameGroup)}>
        <Link
          to="/qr-details/$id"
          params={{ id: code.id }}
          className={cx('mantine-focus-auto', plain.anchor, plain.text, plain.sm, plain.truncate)}
          style={{ fontWeight: 600 }}
          title={code.name}
        >
          {code.name}
        </Link>
        <CodeMarks marks={marks} />
      </div>
      <div className={classes.meta}>
        <div className={cx(classes.type, plain.text, plain.xs, plain.dimmed)}>
          <Hidden>{t`Type:`} </Hidden>
          {translateShared(qrTypeLabels[code.type])} · {code.isDynamic ? t`Dynamic` : t`Static`}
          {folderName && (
            <Hidden>
              <Trans>, in folder {folderName}</Trans>
            </Hidden>
          )}
        </div>
        <div className={classes.verdict}>
          {badge && reason ? (
            <MountOnFirstUse
              plain={badge}
              full={(use, ref) => (
                <Tooltip label={reason} multiline w={260} defaultOpened={use === 'hover'}>
                  {cloneElement(badge, { ref })}
                </Tooltip>
              )}
            />
          ) : badge ? (
            badge
          ) : (
            <p className={cx(plain.text, plain.xs, plain.dimmed)}>
              <Trans>Checking…</Trans>
            </p>
          )}
          {verdict && verdict !== 'scannable' && <Hidden>{reason}</Hidden>}
        </div>
      </div>
      <p
        className={cx(classes.dest, plain.text)}
        style={{ fontSize: DEST_PX }}
        title={destination}
        data-destination
      >
        <Hidden>
          <Trans>Destination: {destination}</Trans>
        </Hidden>
        <span aria-hidden>{shown}</span>
      </p>
      <div className={classes.figures}>
        <div className={classes.scans}>
          <ScanCount isDynamic={code.isDynamic} state={figures} stacked={!wide} />
        </div>
        <div className={classes.last}>
          <LastScan isDynamic={code.isDynamic} state={figures} now={now} />
        </div>
      </div>
      <div className={classes.menu}>
        {/* The menu mounted when its button is first reached (components/MountOnFirstUse.tsx). */}
        <MountOnFirstUse
          plain={menuButton}
          full={(use, ref) => (
            <OpenedAfterMount open={use === 'click'}>
              {(state) => (
                <Menu position="bottom-end" withinPortal {...state}>
                  <Menu.Target>{cloneElement(menuButton, { ref })}</Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item
                      component={Link}
                      to={`/qr-details/${code.id}`}
                      leftSection={<IconChartBar size={16} aria-hidden />}
                    >
                      <Trans>Stats</Trans>
                    </Menu.Item>
                    {canEdit && code.isDynamic && (
                      <Menu.Item
                        component={Link}
                        to={`/edit-qr/${code.id}`}
                        leftSection={<IconEdit size={16} aria-hidden />}
                      >
                        <Trans>Edit</Trans>
                      </Menu.Item>
                    )}
                    {canEdit && (
                      <Menu.Item leftSection={<IconFolderShare size={16} aria-hidden />} onClick={onMove}>
                        <Trans>Move</Trans>
                      </Menu.Item>
                    )}
                    {onMoveToTeam && (
                      <Menu.Item
                        leftSection={<IconUsersGroup size={16} aria-hidden />}
                        onClick={onMoveToTeam}
                      >
                        <Trans>Move to team…</Trans>
                      </Menu.Item>
                    )}
                    <Menu.Divider />
                    <Menu.Item
                      leftSection={<IconDownload size={16} aria-hidden />}
                      onClick={() => request('png')}
                    >
                      <Trans>Download PNG</Trans>
                    </Menu.Item>
                    <Menu.Item
                      leftSection={<IconDownload size={16} aria-hidden />}
                      onClick={() => request('svg')}
                    >
                      <Trans>Download SVG</Trans>
                    </Menu.Item>
                    <Menu.Item
                      leftSection={<IconDownload size={16} aria-hidden />}
                      onClick={() => request('pdf')}
                    >
                      <Trans>Download PDF</Trans>
                    </Menu.Item>
                    <Menu.Item
                      leftSection={<IconPrinter size={16} aria-hidden />}
                      onClick={() => request('print')}
                    >
                      <Trans>Print-ready download…</Trans>
                    </Menu.Item>
                    <Menu.Item
                      leftSection={<IconShare size={16} aria-hidden />}
                      onClick={() => void shareQr({ title: code.name, url: imageDataOf(code) })}
                    >
                      <Trans>Share</Trans>
                    </Menu.Item>
                    {canEdit && (
                      <>
                        <Menu.Divider />
                        <Menu.Item
                          color="red"
                          leftSection={<IconTrash size={16} aria-hidden />}
                          onClick={onDelete}
                        >
                          <Trans>Delete</Trans>
                        </Menu.Item>
                      </>
                    )}
                  </Menu.Dropdown>
                </Menu>
              )}
            </OpenedAfterMount>
          )}
        />
      </div>
      {dialogs}
    </li>
  );
}

/** The list while the codes load: rows of placeholders. */
export function QrCodeListSkeleton({ count = 6 }: { count?: number }) {
  const { t } = useLingui();
  return (
    <Stack gap={0} className={classes.list} aria-busy="true" aria-label={t`Loading QR codes`} role="region">
      {Array.from({ length: count }, (_, i) => (
        <Group
          key={i}
          wrap="nowrap"
          p="sm"
          style={i > 0 ? { borderTop: '1px solid var(--mantine-color-default-border)' } : undefined}
        >
          <Stack gap={6} style={{ flex: 1 }}>
            <Skeleton h={14} w="45%" />
            <Skeleton h={12} w="70%" />
          </Stack>
          <Skeleton h={14} w={40} />
        </Group>
      ))}
    </Stack>
  );
}
