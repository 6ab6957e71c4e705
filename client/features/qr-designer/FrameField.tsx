import { Chip, Group, SegmentedControl, Stack, Switch, Text, TextInput } from '@mantine/core';
import {
  callToActionTexts,
  FRAME_TEXT_MAX,
  foregroundPalette,
  frameStyles,
  type Customization,
} from '../../../src/qr/customization';
import { ColorField } from './ColorField';

type Frame = NonNullable<Customization['frame']>;
type Update = (update: (c: Customization) => Customization) => void;

const frameStyleLabels: Record<Frame['style'], string> = {
  rounded: 'Rounded',
  square: 'Square',
  minimal: 'Minimal',
};

/** Frame: on/off, its call-to-action text (with suggestions), style and colour. */
export function FrameField({ frame, onChange }: { frame: Customization['frame']; onChange: Update }) {
  const enabled = frame?.enabled === true;
  const setFrame = (patch: Partial<Frame>) =>
    onChange((c) => (c.frame ? { ...c, frame: { ...c.frame, ...patch } } : c));
  const suggestion = (callToActionTexts as readonly string[]).includes(frame?.text ?? '')
    ? (frame?.text ?? null)
    : null;

  return (
    <Stack gap="sm">
      <Switch
        label="Add a frame"
        description="A border with a call to action under the code."
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
            label="Frame text"
            size="sm"
            value={frame.text}
            maxLength={FRAME_TEXT_MAX}
            onChange={(event) => setFrame({ text: event.currentTarget.value })}
            description={`${frame.text.length}/${FRAME_TEXT_MAX} characters`}
            autoComplete="off"
          />
          <div>
            <Text size="sm" fw={500} mb={6} id="cta-label">
              Suggestions
            </Text>
            <Chip.Group multiple={false} value={suggestion} onChange={(text) => setFrame({ text })}>
              <Group gap={6} role="radiogroup" aria-labelledby="cta-label">
                {callToActionTexts.map((text) => (
                  <Chip key={text} value={text} size="xs" type="radio">
                    {text}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
          </div>
          <div>
            <Text size="sm" fw={500} mb={6} id="frame-style-label">
              Frame style
            </Text>
            <SegmentedControl
              aria-labelledby="frame-style-label"
              fullWidth
              size="sm"
              value={frame.style}
              onChange={(style) => setFrame({ style })}
              data={frameStyles.map((style) => ({ value: style, label: frameStyleLabels[style] }))}
            />
          </div>
          <ColorField
            label="Frame colour"
            palette={foregroundPalette}
            value={frame.color}
            onChange={(color) => setFrame({ color })}
          />
        </>
      )}
    </Stack>
  );
}
