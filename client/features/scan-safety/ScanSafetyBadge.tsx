import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Loader, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import {
  scanVerdictLabels,
  type ScanCheck,
  type ScanFixId,
  type ScanVerdict,
} from '../../../src/qr/scan-safety';
import { translateShared } from '../../i18n/shared-messages';
import type { ScanCheckState } from './use-scan-check';

export const verdictColors: Record<ScanVerdict, string> = {
  scannable: 'teal',
  risky: 'yellow',
  unscannable: 'red',
};

const verdictIcons: Record<ScanVerdict, typeof IconCircleCheck> = {
  scannable: IconCircleCheck,
  risky: IconAlertTriangle,
  unscannable: IconCircleX,
};

/** The verdict as a badge: Scannable, Risky or Won't scan. */
export function ScanVerdictBadge({ verdict, size = 'md' }: { verdict: ScanVerdict; size?: 'sm' | 'md' }) {
  const Icon = verdictIcons[verdict];
  return (
    <Badge
      color={verdictColors[verdict]}
      variant={verdict === 'scannable' ? 'light' : 'filled'}
      size={size}
      leftSection={<Icon size={size === 'sm' ? 12 : 14} aria-hidden />}
      // Dark text on yellow: the filled yellow badge's white text would not read.
      c={verdict === 'risky' ? 'dark.9' : undefined}
      data-scan-verdict={verdict}
    >
      {translateShared(scanVerdictLabels[verdict])}
    </Badge>
  );
}

function Verdict({
  check,
  onFix,
  busy,
}: {
  check: ScanCheck;
  onFix?: (id: ScanFixId) => void;
  busy: boolean;
}) {
  const { t } = useLingui();
  return (
    <Stack gap={6} style={{ opacity: busy ? 0.6 : 1 }}>
      <Group gap="xs">
        <ScanVerdictBadge verdict={check.verdict} />
        {busy && <Loader size={12} aria-label={t`Checking again`} />}
      </Group>
      {check.reasons.length === 1 ? (
        <Text size="xs" c={check.verdict === 'scannable' ? 'dimmed' : undefined}>
          {translateShared(check.reasons[0] ?? '')}
        </Text>
      ) : (
        <List size="xs" spacing={2}>
          {check.reasons.map((reason) => (
            <List.Item key={reason}>{translateShared(reason)}</List.Item>
          ))}
        </List>
      )}
      {onFix && check.fixes.length > 0 && (
        <Group gap={6}>
          {check.fixes.map((fix) => (
            <Button
              key={fix.id}
              size="compact-xs"
              variant="light"
              onClick={() => onFix(fix.id)}
              disabled={busy}
            >
              {translateShared(fix.label)}
            </Button>
          ))}
        </Group>
      )}
    </Stack>
  );
}

/**
 * The designer's live scan-safety check under the preview: the verdict, why, and one-click fixes.
 * Announced politely to screen readers when it changes.
 */
export function ScanSafetyPanel({
  state,
  onFix,
  note,
}: {
  state: ScanCheckState;
  onFix?: (id: ScanFixId) => void;
  /** A line under the verdict (e.g. what a dynamic code is checked with). */
  note?: string | null;
}) {
  const { t } = useLingui();
  let body: React.ReactNode = null;
  if (state.status === 'checking') {
    body = state.previous ? (
      <Verdict check={state.previous} busy />
    ) : (
      <Group gap="xs">
        <Loader size={14} aria-hidden />
        <Text size="xs" c="dimmed">
          <Trans>Checking that it scans…</Trans>
        </Text>
      </Group>
    );
  } else if (state.status === 'done') {
    body = <Verdict check={state.check} onFix={onFix} busy={false} />;
  } else if (state.status === 'error') {
    body = (
      <Text size="xs" c="dimmed">
        <Trans>
          The scan check could not run in this browser; the code is checked again when it is saved.
        </Trans>
      </Text>
    );
  }
  if (body === null) return null;
  return (
    <Stack gap={4} role="status" aria-live="polite" aria-label={t`Scan check`} data-scan-check={state.status}>
      {body}
      {note && state.status !== 'error' && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
    </Stack>
  );
}
