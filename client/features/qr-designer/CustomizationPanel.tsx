import { useLingui } from '@lingui/react/macro';
import { Accordion, Badge, Group, Loader, Stack, Text } from '@mantine/core';
import { IconFrame, IconPalette, IconPhoto, IconShape, IconTemplate } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import type { Customization } from '../../../src/qr/customization';
import { backgroundPalette, foregroundPalette } from '../../../src/qr/customization-values';
import { ColorField } from './ColorField';
import { applyTemplate, matchingTemplateId, TemplatePicker } from './TemplatePicker';

// The sections closed at first (style, logo, frame) come with their code when first opened: their
// segmented controls, slider, upload and chips are not part of /create's first load.
const StyleFields = lazy(() => import('./StyleFields').then((m) => ({ default: m.StyleFields })));
const LogoField = lazy(() => import('./LogoField').then((m) => ({ default: m.LogoField })));
const FrameField = lazy(() => import('./FrameField').then((m) => ({ default: m.FrameField })));

function SectionLoading() {
  const { t } = useLingui();
  return (
    <Group justify="center" py="sm">
      <Loader size="sm" aria-label={t`Loading`} />
    </Group>
  );
}

const sectionLoading = <SectionLoading />;

type Update = (update: (c: Customization) => Customization) => void;

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
  const { t } = useLingui();
  const on = t({ message: 'On', context: 'badge: the logo or frame is on' });
  const off = t({ message: 'Off', context: 'badge: the logo or frame is off' });
  const set = (patch: Partial<Customization>) => onChange((c) => ({ ...c, ...patch }));
  const template = matchingTemplateId(value);
  // The sections opened at least once: a closed panel is drawn but hidden, so its fields wait for a first
  // open (and stay, with their state, once shown).
  const [shown, setShown] = useState<CustomizationSection[]>(opened);
  if (opened.some((section) => !shown.includes(section))) setShown([...new Set([...shown, ...opened])]);

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
            label={t`Templates`}
            hint={template ? undefined : t({ message: 'Custom', context: 'badge: a design of no template' })}
          />
        </Accordion.Control>
        <Accordion.Panel>
          <TemplatePicker value={value} onApply={(c) => onChange((current) => applyTemplate(current, c))} />
        </Accordion.Panel>
      </Accordion.Item>

      <Accordion.Item value="colors">
        <Accordion.Control>
          <SectionControl icon={<IconPalette size={18} aria-hidden />} label={t`Colours`} />
        </Accordion.Control>
        <Accordion.Panel>
          <Stack gap="md">
            <ColorField
              label={t`Foreground colour`}
              customLabel={t`Custom foreground colour`}
              palette={foregroundPalette}
              value={value.foregroundColor}
              onChange={(foregroundColor) => set({ foregroundColor })}
            />
            <ColorField
              label={t`Background colour`}
              customLabel={t`Custom background colour`}
              palette={backgroundPalette}
              value={value.backgroundColor}
              onChange={(backgroundColor) => set({ backgroundColor })}
            />
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>

      <Accordion.Item value="style">
        <Accordion.Control>
          <SectionControl icon={<IconShape size={18} aria-hidden />} label={t`Style and error correction`} />
        </Accordion.Control>
        <Accordion.Panel>
          {shown.includes('style') && (
            <Suspense fallback={sectionLoading}>
              <StyleFields value={value} set={set} />
            </Suspense>
          )}
        </Accordion.Panel>
      </Accordion.Item>

      <Accordion.Item value="logo">
        <Accordion.Control>
          <SectionControl
            icon={<IconPhoto size={18} aria-hidden />}
            label={t`Logo`}
            hint={value.logo ? on : off}
          />
        </Accordion.Control>
        <Accordion.Panel>
          {shown.includes('logo') && (
            <Suspense fallback={sectionLoading}>
              <LogoField logo={value.logo} onChange={onChange} />
            </Suspense>
          )}
        </Accordion.Panel>
      </Accordion.Item>

      <Accordion.Item value="frame">
        <Accordion.Control>
          <SectionControl
            icon={<IconFrame size={18} aria-hidden />}
            label={t({ message: 'Frame', context: 'a border around the code' })}
            hint={value.frame?.enabled ? on : off}
          />
        </Accordion.Control>
        <Accordion.Panel>
          {shown.includes('frame') && (
            <Suspense fallback={sectionLoading}>
              <FrameField frame={value.frame} onChange={onChange} />
            </Suspense>
          )}
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
