import { Skeleton, Text, Tooltip, VisuallyHidden, type TextProps } from '@mantine/core';
import { cloneElement } from 'react';
import { MountOnFirstUse } from '../../components/MountOnFirstUse';
import { exactTime, formatCount, lastScanLabel } from '../../lib/format';
import { NOT_TRACKED, NOT_TRACKED_REASON } from '../qr/use-static-codes';
import type { CodeScanFigures } from './code-summary';

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
  ...text
}: { isDynamic: boolean; state: FiguresState; stacked?: boolean } & TextProps) {
  if (!isDynamic) {
    const label = (
      <Text size="xs" c="dimmed" data-scans="untracked" style={{ cursor: 'help' }} {...text}>
        {NOT_TRACKED}
      </Text>
    );
    // The tooltip mounted when the text is first reached: one per static code of a long list.
    return (
      <MountOnFirstUse
        plain={label}
        full={(use, ref) => (
          <Tooltip
            label={NOT_TRACKED_REASON}
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
      <Text size="sm" c="dimmed" title="Scan counts could not be loaded" {...text}>
        –<VisuallyHidden>Scan count not available</VisuallyHidden>
      </Text>
    ) : (
      <Skeleton h={14} w={48} />
    );
  }
  const n = state.figures.scans;
  const unit = n === 1 ? 'scan' : 'scans';
  return stacked ? (
    <Text component="div" data-scans={n} lh={1.15} {...text}>
      <Text component="span" display="block" fw={700} size="md" inherit={false}>
        {formatCount(n)}
      </Text>
      <Text component="span" display="block" size="xs" c="dimmed" inherit={false}>
        {unit}
      </Text>
    </Text>
  ) : (
    <Text size="sm" fw={600} data-scans={n} {...text}>
      {formatCount(n)} {unit}
    </Text>
  );
}

/** 'Never', '2 h ago' (the exact time as a tooltip); nothing for a static code or while unknown. */
export function LastScan({
  isDynamic,
  state,
  now,
  ...text
}: { isDynamic: boolean; state: FiguresState; now: number } & TextProps) {
  const last = state.figures?.lastScanAt;
  if (!isDynamic || last === undefined) return null;
  return (
    <Text size="xs" c="dimmed" title={last === null ? undefined : exactTime(last)} data-last-scan {...text}>
      <VisuallyHidden>Last scan: </VisuallyHidden>
      {lastScanLabel(last, now)}
    </Text>
  );
}
