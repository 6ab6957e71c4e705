import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { QrCode } from '../../../src/qr/qr.schema';
import { trpc } from '../../lib/trpc';

/** How often the list is asked for verdicts while some are pending. */
const POLL_MS = 1500;
/** No new verdict for this long: the rest are left to the background (a failed check stays pending). */
const STALL_MS = 60_000;

/**
 * The scan-safety checks of just-created codes, which the server makes in the background a few a second:
 * "Checking scans: 12 of 20 done", then how many scan well and how many may not.
 */
export function BulkScanProgress({ ids }: { ids: number[] }) {
  const { t } = useLingui();
  const [stalled, setStalled] = useState(false);
  const wanted = new Set(ids);
  const pending = (codes: QrCode[] | undefined) =>
    codes === undefined || codes.some((c) => wanted.has(c.id) && c.scannable === null);
  const list = trpc.qr.list.useQuery(undefined, {
    refetchInterval: (query) => (!stalled && pending(query.state.data) ? POLL_MS : false),
    refetchIntervalInBackground: true,
  });
  const codes = (list.data ?? []).filter((c) => wanted.has(c.id));
  const checkedNow = codes.filter((c) => c.scannable !== null);
  // Verdicts only arrive: an answer fetched before a later one never takes the count back.
  const [seen, setSeen] = useState({ checked: 0, problems: 0, finished: false });
  const finishedNow = !pending(list.data);
  if (checkedNow.length > seen.checked || (finishedNow && !seen.finished)) {
    setSeen({
      checked: checkedNow.length,
      problems: checkedNow.filter((c) => c.scannable?.verdict !== 'scannable').length,
      finished: finishedNow,
    });
  }
  const { checked, problems, finished } = seen;
  const total = ids.length;

  // Each new verdict restarts the clock; none for STALL_MS and the page stops asking.
  useEffect(() => {
    if (finished) return;
    const timer = setTimeout(() => setStalled(true), STALL_MS);
    return () => clearTimeout(timer);
  }, [checked, finished]);

  const loaded = list.data !== undefined;
  // Nothing answered yet: none checked.
  const done = loaded ? checked : 0;
  let text: string;
  if (!loaded || !finished)
    text =
      loaded && stalled
        ? t`Checking scans: ${done} of ${total} done. The rest are checked in the background; My QR Codes shows each result.`
        : t`Checking scans: ${done} of ${total} done`;
  else if (problems === 0)
    text = plural(total, {
      one: 'Scan checked: the code scans well.',
      other: `Scans checked: all ${total} scan well.`,
    });
  else text = t`Scans checked: ${problems} of ${total} may not scan well. My QR Codes says why for each.`;

  return (
    <Stack gap={4} role="status" aria-label={t`Scan checks`}>
      <Group gap={6} wrap="nowrap">
        {finished &&
          (problems === 0 ? (
            <IconCheck size={16} color="var(--mantine-color-teal-7)" aria-hidden />
          ) : (
            <IconAlertTriangle size={16} color="var(--mantine-color-yellow-8)" aria-hidden />
          ))}
        <Text size="sm">{text}</Text>
      </Group>
      {!finished && (
        <Progress
          value={total === 0 ? 100 : (checked / total) * 100}
          size="sm"
          aria-hidden
          animated={!stalled}
        />
      )}
    </Stack>
  );
}
