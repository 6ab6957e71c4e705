import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Tooltip } from '@mantine/core';
import { cloneElement } from 'react';
import { MountOnFirstUse } from '../../components/MountOnFirstUse';
import { exactTime, formatCount, lastScanLabel } from '../../lib/format';
import { NOT_TRACKED_MSG, NOT_TRACKED_REASON_MSG } from '../qr/use-static-codes';
import type { CodeScanFigures } from './code-summary';
import { cx, Hidden, plain } from './PlainControls';

export interface FiguresState {
  /** The code's figures; undefined while they load, or when they could not be read (`failed`). */
  figures: CodeScanFigures | undefined;
  failed: boolean;
}

/**
 * A code's scans: '12 scans' ('12' over 'scans' when `stacked`), 'Not tracked' for a static code (its
 * scans never reach the server), a placeholder while loading and a dash when the count could not be read.
 */
export function ScanCount({
  isDynamic,
  state,
  stacked = false,
}: {
  isDynamic: boolean;
  state: FiguresState;
  stacked?: boolean;
}) {
  const { t } = useLingui();
  if (!isDynamic) {
    const label = (
      <p className={cx(plain.text, plain.xs, plain.dimmed)} data-scans="untracked" style={{ cursor: 'help' }}>
        {t(NOT_TRACKED_MSG)}
      </p>
    );
    // The tooltip mounted when the text is first reached: one per static code of a long list.
    return (
      <MountOnFirstUse
        plain={label}
        full={(use, ref) => (
          <Tooltip
            label={t(NOT_TRACKED_REASON_MSG)}
            multiline
            w={260}
            events={{ hover: true, focus: true, touch: true }}
            defaultOpened={use !== 'click'}
          >
            {cloneElement(label, { ref })}
          </Tooltip>
        )}
      />
    );
  }
  if (state.figures === undefined) {
    return state.failed ? (
      <p className={cx(plain.text, plain.sm, plain.dimmed)} title={t`Scan counts could not be loaded`}>
        –
        <Hidden>
          <Trans>Scan count not available</Trans>
        </Hidden>
      </p>
    ) : (
      <div
        className={plain.skeleton}
        style={{ height: 14, width: 48, flex: 'none', borderRadius: 'var(--mantine-radius-md)' }}
      />
    );
  }
  const n = state.figures.scans;
  const count = formatCount(n);
  return stacked ? (
    <div className={plain.text} data-scans={n} style={{ lineHeight: 1.15 }}>
      <span className={plain.text} style={{ display: 'block', fontWeight: 700 }}>
        {formatCount(n)}
      </span>
      <span className={cx(plain.text, plain.xs, plain.dimmed)} style={{ display: 'block' }}>
        {plural(n, { one: 'scan', other: 'scans' })}
      </span>
    </div>
  ) : (
    <p className={cx(plain.text, plain.sm)} style={{ fontWeight: 600 }} data-scans={n}>
      {plural(n, { one: `${count} scan`, other: `${count} scans` })}
    </p>
  );
}

/** 'Never', '2 h ago' (the exact time as a tooltip); nothing for a static code or while unknown. */
export function LastScan({
  isDynamic,
  state,
  now,
}: {
  isDynamic: boolean;
  state: FiguresState;
  now: number;
}) {
  const { t } = useLingui();
  const last = state.figures?.lastScanAt;
  if (!isDynamic || last === undefined) return null;
  return (
    <p
      className={cx(plain.text, plain.xs, plain.dimmed)}
      title={last === null ? undefined : exactTime(last)}
      data-last-scan
    >
      <Hidden>{t`Last scan:`} </Hidden>
      {lastScanLabel(last, now)}
    </p>
  );
}
