import { Trans, useLingui } from '@lingui/react/macro';
import { Menu, Tooltip } from '@mantine/core';
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
import { cloneElement } from 'react';
import { qrTypeLabels } from '../../../src/qr/qr-types';
import { imageDataOf, type QrCode } from '../../../src/qr/qr.schema';
import { MountOnFirstUse, OpenedAfterMount } from '../../components/MountOnFirstUse';
import { translateShared } from '../../i18n/shared-messages';
import { middleTruncate } from '../../lib/format';
import { qrImageLabel } from '../qr/qr-image-label';
import { shareQr } from '../qr/share';
import { ScanVerdictBadge } from '../scan-safety/ScanSafetyBadge';
import { withDestinationMark, type CodeMark } from './code-marks';
import { CodeMarks } from './CodeMarks';
import { destinationOf } from './code-summary';
import {
  cx,
  Hidden,
  plain,
  PlainActionIcon,
  PlainBadge,
  PlainButton,
  PlainButtonGroup,
  PlainLinkButton,
} from './PlainControls';
import { QrThumbnail } from './QrThumbnail';
import { LastScan, ScanCount, type FiguresState } from './ScanFigures';
import { useCodeDownloads } from './use-code-downloads';
import { useDestinationIssues } from './use-destination-issues';

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
  const { t, i18n } = useLingui();
  const data = imageDataOf(code);
  const codeName = code.name;
  // English keeps the browser's own date format, as before; another language writes the date its way.
  const created = new Date(code.created).toLocaleDateString(i18n.locale === 'en' ? undefined : i18n.locale);
  const verdict = code.scannable?.verdict ?? null;
  const { downloading, request: requestDownload, dialogs } = useCodeDownloads(code);
  const destination = destinationOf(code);
  const shown = middleTruncate(destination, CARD_DESTINATION_MAX);
  // A down destination adds its red mark (one query for the whole page, shared by every card).
  const issues = useDestinationIssues()?.get(code.id);
  const moreButton = (
    <PlainActionIcon
      variant="default"
      aria-label={t`More actions for ${codeName}`}
      aria-haspopup="menu"
      aria-expanded={false}
    >
      <IconDots size={16} aria-hidden />
    </PlainActionIcon>
  );

  return (
    <article className={plain.card} aria-label={code.name}>
      <div className={plain.cardTop}>
        <QrThumbnail data={data} customization={code.customization} label={qrImageLabel(code)} />
        <div className={plain.cardText}>
          <p className={cx(plain.text, plain.clamp2)} style={{ fontWeight: 700 }}>
            {code.name}
          </p>
          <div className={plain.badges}>
            <PlainBadge color="blue">{translateShared(qrTypeLabels[code.type])}</PlainBadge>
            <PlainBadge color={code.isDynamic ? 'teal' : 'gray'}>
              {code.isDynamic ? t`Dynamic` : t`Static`}
            </PlainBadge>
            {verdict && verdict !== 'scannable' && <ScanVerdictBadge verdict={verdict} size="sm" />}
            <CodeMarks marks={withDestinationMark(marks, issues, now)} />
          </div>
          {verdict && verdict !== 'scannable' && (
            <p
              className={cx(plain.text, plain.xs, verdict !== 'unscannable' && plain.dimmed)}
              style={verdict === 'unscannable' ? { color: 'var(--mantine-color-red-8)' } : undefined}
              data-scan-reason
            >
              {translateShared(code.scannable?.reason ?? '')}
            </p>
          )}
          <p
            className={cx(plain.text, plain.sm, plain.dimmed, plain.clamp2)}
            style={{ wordBreak: 'break-word' }}
            title={shown === destination ? undefined : destination}
            data-destination
          >
            {shown === destination ? (
              destination
            ) : (
              <>
                <span aria-hidden>{shown}</span>
                <Hidden>{destination}</Hidden>
              </>
            )}
          </p>
          {code.shortUrl && (
            <p className={cx(plain.text, plain.xs, plain.dimmed)} style={{ wordBreak: 'break-all' }}>
              {code.shortUrl}
            </p>
          )}
          <div className={plain.figuresLine}>
            <ScanCount isDynamic={code.isDynamic} state={figures} />
            <LastScan isDynamic={code.isDynamic} state={figures} now={now} />
          </div>
          <p className={cx(plain.text, plain.xs, plain.dimmed)}>
            {folderName ? t`In ${folderName} · Created ${created}` : t`Created ${created}`}
          </p>
        </div>
      </div>
      <div className={plain.actions}>
        {/* PNG, SVG and PDF each one click away; the SVG/PDF names leave 'Download' to the PNG button. */}
        <PlainButtonGroup>
          <PlainButton
            variant="light"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={downloading === 'png'}
            disabled={downloading !== null && downloading !== 'png'}
            onClick={() => requestDownload('png')}
          >
            <Trans>Download</Trans>
          </PlainButton>
          {(['svg', 'pdf'] as const).map((format) => {
            const formatName = format.toUpperCase();
            const button = (
              <PlainButton
                variant="light"
                className={plain.format}
                loading={downloading === format}
                disabled={downloading !== null && downloading !== format}
                onClick={() => requestDownload(format)}
              >
                {format.toUpperCase()}
              </PlainButton>
            );
            // The tooltip mounted when the button is first reached (components/MountOnFirstUse.tsx).
            return (
              <MountOnFirstUse
                key={format}
                plain={button}
                full={(use, ref) => (
                  <Tooltip label={t`Download as ${formatName}`} defaultOpened={use === 'hover'}>
                    {cloneElement(button, { ref })}
                  </Tooltip>
                )}
              />
            );
          })}
        </PlainButtonGroup>
        {canEdit && code.isDynamic && (
          <PlainLinkButton
            variant="default"
            to="/edit-qr/$id"
            id={code.id}
            leftSection={<IconEdit size={16} aria-hidden />}
          >
            <Trans>Edit</Trans>
          </PlainLinkButton>
        )}
        {canEdit && (
          <PlainButton
            variant="default"
            leftSection={<IconFolderShare size={16} aria-hidden />}
            onClick={onMove}
          >
            <Trans>Move</Trans>
          </PlainButton>
        )}
        <PlainLinkButton
          variant="default"
          to="/qr-details/$id"
          id={code.id}
          leftSection={<IconChartBar size={16} aria-hidden />}
        >
          <Trans>Stats</Trans>
        </PlainLinkButton>
        {/* The menu and its tooltip mounted when the button is first reached (components/MountOnFirstUse.tsx). */}
        <MountOnFirstUse
          plain={moreButton}
          full={(use, ref) => (
            <OpenedAfterMount open={use === 'click'}>
              {(state) => (
                <Menu position="bottom-end" withinPortal {...state}>
                  <Menu.Target>
                    <Tooltip label={t`More actions`} defaultOpened={use === 'hover'}>
                      {cloneElement(moreButton, { ref })}
                    </Tooltip>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item
                      leftSection={<IconDownload size={16} aria-hidden />}
                      onClick={() => requestDownload('svg')}
                    >
                      <Trans>Download SVG</Trans>
                    </Menu.Item>
                    <Menu.Item
                      leftSection={<IconDownload size={16} aria-hidden />}
                      onClick={() => requestDownload('pdf')}
                    >
                      <Trans>Download PDF</Trans>
                    </Menu.Item>
                    <Menu.Item
                      leftSection={<IconPrinter size={16} aria-hidden />}
                      onClick={() => requestDownload('print')}
                    >
                      <Trans>Print-ready download…</Trans>
                    </Menu.Item>
                    <Menu.Item
                      leftSection={<IconShare size={16} aria-hidden />}
                      onClick={() => void shareQr({ title: code.name, url: data })}
                    >
                      <Trans>Share</Trans>
                    </Menu.Item>
                    {onMoveToTeam && (
                      <Menu.Item
                        leftSection={<IconUsersGroup size={16} aria-hidden />}
                        onClick={onMoveToTeam}
                      >
                        <Trans>Move to team…</Trans>
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
    </article>
  );
}
