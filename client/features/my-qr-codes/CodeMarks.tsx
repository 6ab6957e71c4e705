import { Group, Text, Tooltip } from '@mantine/core';
import {
  IconArrowsSplit,
  IconClock,
  IconGauge,
  IconLinkOff,
  IconLock,
  IconPlayerPause,
} from '@tabler/icons-react';
import type { CodeMark, CodeMarkKind } from './code-marks';

const icons: Record<CodeMarkKind, typeof IconLock> = {
  destination: IconLinkOff,
  password: IconLock,
  rules: IconArrowsSplit,
  schedule: IconClock,
  limit: IconGauge,
  paused: IconPlayerPause,
};

/**
 * A code's marks as small icons, each named for screen readers and explained by a tooltip (hover, focus
 * or touch). A mark that refuses scans right now (paused, not started, ended) is drawn in orange, one that
 * wants the owner's attention (a destination down) in red.
 */
export function CodeMarks({ marks }: { marks: CodeMark[] }) {
  if (marks.length === 0) return null;
  return (
    <Group gap={6} wrap="nowrap" data-code-marks>
      {marks.map((mark) => {
        const Icon = icons[mark.kind];
        return (
          <Tooltip
            key={mark.kind}
            label={mark.label}
            events={{ hover: true, focus: true, touch: true }}
            // A down destination's words can be long (a rule's URL, the fallback): wrapped, not a wide strip.
            multiline={mark.alert}
            maw={mark.alert ? 300 : undefined}
          >
            <Group
              component="span"
              role="img"
              aria-label={mark.label}
              data-mark={mark.kind}
              gap={1}
              wrap="nowrap"
              c={mark.alert ? 'red.8' : mark.stopped ? 'orange.9' : 'gray.7'}
              style={{ lineHeight: 1, cursor: 'help' }}
            >
              <Icon size={16} stroke={1.8} aria-hidden />
              {mark.short && (
                <Text component="span" size="xs" fw={700} inherit={false} c="inherit" aria-hidden>
                  {mark.short}
                </Text>
              )}
            </Group>
          </Tooltip>
        );
      })}
    </Group>
  );
}
