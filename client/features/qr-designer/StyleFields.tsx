import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { SegmentedControl, Stack, Text } from '@mantine/core';
import {
  errorCorrectionInfo,
  errorCorrectionLevels,
  qrStyles,
  type Customization,
  type QrStyle,
} from '../../../src/qr/customization';
import { hasLogo } from '../../../src/qr/render-options';
import { translateShared } from '../../i18n/shared-messages';

const styleLabels: Record<QrStyle, MessageDescriptor> = {
  square: msg({ message: 'Square', context: 'style of the code' }),
  dots: msg({ message: 'Dots', context: 'style of the code' }),
  rounded: msg({ message: 'Rounded', context: 'style of the code' }),
  classy: msg({ message: 'Classy', context: 'style of the code' }),
};

/** The design's style of modules and its error correction (the designer's "Style and error correction"). */
export function StyleFields({
  value,
  set,
}: {
  value: Customization;
  set: (patch: Partial<Customization>) => void;
}) {
  const { t } = useLingui();
  const logo = hasLogo(value);
  return (
    <Stack gap="md">
      <div>
        <Text size="sm" fw={500} mb={6} id="qr-style-label">
          <Trans context="the look of the code's modules">Style</Trans>
        </Text>
        <SegmentedControl
          aria-labelledby="qr-style-label"
          fullWidth
          size="sm"
          value={value.style}
          onChange={(style) => set({ style })}
          data={qrStyles.map((style) => ({ value: style, label: t(styleLabels[style]) }))}
        />
      </div>
      <div>
        <Text size="sm" fw={500} id="qr-ec-label">
          <Trans>Error correction</Trans>
        </Text>
        <Text size="xs" c="dimmed" mb={6}>
          <Trans>How much of the code may be damaged or covered and still scan.</Trans>
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
                <span>{translateShared(errorCorrectionInfo[level].label)}</span>
                <Text span size="xs" c="dimmed">
                  {errorCorrectionInfo[level].percent}%
                </Text>
              </Stack>
            ),
          }))}
        />
        {logo && value.errorCorrectionLevel !== 'H' && (
          <Text size="xs" c="dimmed" mt={6}>
            <Trans>With a logo the code is drawn at High (30%) so it still scans.</Trans>
          </Text>
        )}
      </div>
    </Stack>
  );
}
