import { SegmentedControl, Stack, Text } from '@mantine/core';
import {
  errorCorrectionInfo,
  errorCorrectionLevels,
  qrStyles,
  type Customization,
  type QrStyle,
} from '../../../src/qr/customization';
import { hasLogo } from '../../../src/qr/render-options';

const styleLabels: Record<QrStyle, string> = {
  square: 'Square',
  dots: 'Dots',
  rounded: 'Rounded',
  classy: 'Classy',
};

/** The design's style of modules and its error correction (the designer's "Style and error correction"). */
export function StyleFields({
  value,
  set,
}: {
  value: Customization;
  set: (patch: Partial<Customization>) => void;
}) {
  const logo = hasLogo(value);
  return (
    <Stack gap="md">
      <div>
        <Text size="sm" fw={500} mb={6} id="qr-style-label">
          Style
        </Text>
        <SegmentedControl
          aria-labelledby="qr-style-label"
          fullWidth
          size="sm"
          value={value.style}
          onChange={(style) => set({ style })}
          data={qrStyles.map((style) => ({ value: style, label: styleLabels[style] }))}
        />
      </div>
      <div>
        <Text size="sm" fw={500} id="qr-ec-label">
          Error correction
        </Text>
        <Text size="xs" c="dimmed" mb={6}>
          How much of the code may be damaged or covered and still scan.
        </Text>
        <SegmentedControl
          aria-labelledby="qr-ec-label"
          fullWidth
          size="sm"
          value={value.errorCorrectionLevel}
          onChange={(level) => set({ errorCorrectionLevel: level })}
          data={errorCorrectionLevels.map((level) => ({
            value: level,
            label: (
              <Stack gap={0} align="center">
                <span>{errorCorrectionInfo[level].label}</span>
                <Text span size="xs" c="dimmed">
                  {errorCorrectionInfo[level].percent}%
                </Text>
              </Stack>
            ),
          }))}
        />
        {logo && value.errorCorrectionLevel !== 'H' && (
          <Text size="xs" c="dimmed" mt={6}>
            With a logo the code is drawn at High (30%) so it still scans.
          </Text>
        )}
      </div>
    </Stack>
  );
}
