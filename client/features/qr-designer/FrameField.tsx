import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Chip, Group, SegmentedControl, Stack, Switch, Text, TextInput } from '@mantine/core';
import {
  callToActionTexts,
  FRAME_TEXT_MAX,
  foregroundPalette,
  frameStyles,
  type Customization,
} from '../../../src/qr/customization';
import { translateShared } from '../../i18n/shared-messages';
import { ColorField } from './ColorField';

type Frame = NonNullable<Customization['frame']>;
type Update = (update: (c: Customization) => Customization) => void;

const frameStyleLabels: Record<Frame['style'], MessageDescriptor> = {
  rounded: msg({ message: 'Rounded', context: 'frame style' }),
  square: msg({ message: 'Square', context: 'frame style' }),
  minimal: msg({ message: 'Minimal', context: 'frame style' }),
};

/** Frame: on/off, its call-to-action text (with suggestions), style and colour. */
export function FrameField({ frame, onChange }: { frame: Customization['frame']; onChange: Update }) {
  const { t } = useLingui();
  const enabled = frame?.enabled === true;
  const setFrame = (patch: Partial<Frame>) =>
    onChange((c) => (c.frame ? { ...c, frame: { ...c.frame, ...patch } } : c));
  const suggestion = (callToActionTexts as readonly string[]).includes(frame?.text ?? '')
    ? (frame?.text ?? null)
    : null;
  // The text's length against the most it may have: '9/30 characters'.
  const length = frame?.text.length ?? 0;
  const max = FRAME_TEXT_MAX;

  return (
    <Stack gap="sm">
      <Switch
        label={t`Add a frame`}
        description={t`A border with a call to action under the code.`}
        checked={enabled}
        onChange={(event) => {
          const on = event.currentTarget.checked;
          onChange((c) => {
            if (!on) {
              const { frame: _removed, ...rest } = c;
              return rest;
            }
            return {
              ...c,
              frame: { enabled: true, text: 'Scan Me', style: 'rounded', color: c.foregroundColor },
            };
          });
        }}
      />
      {enabled && frame && (
        <>
          <TextInput
            label={t`Frame text`}
            size="sm"
            value={frame.text}
            maxLength={FRAME_TEXT_MAX}
            onChange={(event) => setFrame({ text: event.currentTarget.value })}
            description={t`${length}/${max} characters`}
            autoComplete="off"
          />
          <div>
            <Text size="sm" fw={500} mb={6} id="cta-label">
              <Trans>Suggestions</Trans>
            </Text>
            <Chip.Group multiple={false} value={suggestion} onChange={(text) => setFrame({ text })}>
              <Group gap={6} role="radiogroup" aria-labelledby="cta-label">
                {callToActionTexts.map((text) => (
                  <Chip key={text} value={text} size="xs" type="radio">
                    {/* The chip's words in the app's language; the text it puts in the frame stays as is. */}
                    {translateShared(text)}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
          </div>
          <div>
            <Text size="sm" fw={500} mb={6} id="frame-style-label">
              <Trans>Frame style</Trans>
            </Text>
            <SegmentedControl
              aria-labelledby="frame-style-label"
              fullWidth
              size="sm"
              value={frame.style}
              onChange={(style) => setFrame({ style })}
              data={frameStyles.map((style) => ({ value: style, label: t(frameStyleLabels[style]) }))}
            />
          </div>
          <ColorField
            label={t`Frame colour`}
            customLabel={t`Custom frame colour`}
            palette={foregroundPalette}
            value={frame.color}
            onChange={(color) => setFrame({ color })}
          />
        </>
      )}
    </Stack>
  );
}
