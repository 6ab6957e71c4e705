import { Accordion, Badge, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconFrame, IconPalette, IconPhoto, IconShape, IconTemplate } from '@tabler/icons-react';
import {
  backgroundPalette,
  errorCorrectionInfo,
  errorCorrectionLevels,
  foregroundPalette,
  qrStyles,
  type Customization,
  type QrStyle,
} from '../../../src/qr/customization';
import { hasLogo } from '../../../src/qr/render-options';
import { ColorField } from './ColorField';
import { FrameField } from './FrameField';
import { LogoField } from './LogoField';
import { applyTemplate, matchingTemplateId, TemplatePicker } from './TemplatePicker';

type Update = (update: (c: Customization) => Customization) => void;

const styleLabels: Record<QrStyle, string> = {
  square: 'Square',
  dots: 'Dots',
  rounded: 'Rounded',
  classy: 'Classy',
};

export type CustomizationSection = 'templates' | 'colors' | 'style' | 'logo' | 'frame';

interface CustomizationPanelProps {
  value: Customization;
  /** Functional updates, so a slow logo upload never overwrites changes made meanwhile. */
  onChange: Update;
  opened: CustomizationSection[];
  onOpenedChange: (sections: CustomizationSection[]) => void;
}

function SectionControl({ icon, label, hint }: { icon: React.ReactNode; label: string; hint?: string }) {
  return (
    <Group gap="xs" wrap="nowrap" justify="space-between" pr="xs">
      <Group gap="xs" wrap="nowrap">
        {icon}
        <Text fw={600} size="sm">
          {label}
        </Text>
      </Group>
      {hint && (
        <Badge variant="light" color="gray" size="sm" style={{ textTransform: 'none' }} visibleFrom="xs">
          {hint}
        </Badge>
      )}
    </Group>
  );
}

/** Templates, colours, style and error correction, logo and frame, in one accordion. */
export function CustomizationPanel({ value, onChange, opened, onOpenedChange }: CustomizationPanelProps) {
  const set = (patch: Partial<Customization>) => onChange((c) => ({ ...c, ...patch }));
  const logo = hasLogo(value);
  const template = matchingTemplateId(value);

  return (
    <Accordion
      multiple
      variant="contained"
      value={opened}
      onChange={(v) => onOpenedChange(v as CustomizationSection[])}
      chevronPosition="right"
    >
      <Accordion.Item value="templates">
        <Accordion.Control>
          <SectionControl
            icon={<IconTemplate size={18} aria-hidden />}
            label="Templates"
            hint={template ? undefined : 'Custom'}
          />
        </Accordion.Control>
        <Accordion.Panel>
          <TemplatePicker value={value} onApply={(c) => onChange((current) => applyTemplate(current, c))} />
        </Accordion.Panel>
      </Accordion.Item>

      <Accordion.Item value="colors">
        <Accordion.Control>
          <SectionControl icon={<IconPalette size={18} aria-hidden />} label="Colours" />
        </Accordion.Control>
        <Accordion.Panel>
          <Stack gap="md">
            <ColorField
              label="Foreground colour"
              palette={foregroundPalette}
              value={value.foregroundColor}
              onChange={(foregroundColor) => set({ foregroundColor })}
            />
            <ColorField
              label="Background colour"
              palette={backgroundPalette}
              value={value.backgroundColor}
              onChange={(backgroundColor) => set({ backgroundColor })}
            />
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>

      <Accordion.Item value="style">
        <Accordion.Control>
          <SectionControl icon={<IconShape size={18} aria-hidden />} label="Style and error correction" />
        </Accordion.Control>
        <Accordion.Panel>
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
        </Accordion.Panel>
      </Accordion.Item>

      <Accordion.Item value="logo">
        <Accordion.Control>
          <SectionControl
            icon={<IconPhoto size={18} aria-hidden />}
            label="Logo"
            hint={value.logo ? 'On' : 'Off'}
          />
        </Accordion.Control>
        <Accordion.Panel>
          <LogoField logo={value.logo} onChange={onChange} />
        </Accordion.Panel>
      </Accordion.Item>

      <Accordion.Item value="frame">
        <Accordion.Control>
          <SectionControl
            icon={<IconFrame size={18} aria-hidden />}
            label="Frame"
            hint={value.frame?.enabled ? 'On' : 'Off'}
          />
        </Accordion.Control>
        <Accordion.Panel>
          <FrameField frame={value.frame} onChange={onChange} />
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
