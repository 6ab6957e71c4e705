import { useLingui } from '@lingui/react/macro';
import { ColorInput, Group, Stack, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { HEX_COLOR, TRANSPARENT } from '../../../src/qr/customization-values';
import { readableOn } from '../../../src/qr/render-options';
import { translateShared } from '../../i18n/shared-messages';
import classes from './qr-designer.module.css';

export interface PaletteColor {
  name: string;
  value: string;
}

interface ColorFieldProps {
  label: string;
  /** The free picker's name for screen readers ('Custom foreground colour'). */
  customLabel: string;
  palette: readonly PaletteColor[];
  /** '#RRGGBB', or 'transparent' where the palette offers it. */
  value: string;
  onChange: (value: string) => void;
}

/** The picker's hint: the form a colour is typed in, the same in every language. */
const HEX_FORMAT = '#RRGGBB';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Palette swatches (buttons named after their colour) and a free picker that accepts any #RRGGBB. */
export function ColorField({ label, customLabel, palette, value, onChange }: ColorFieldProps) {
  const { t } = useLingui();
  const transparent = value === TRANSPARENT;
  const external = transparent ? '' : value;
  // What the picker shows while typing; only complete #RRGGBB values reach the design.
  const [text, setText] = useState(external);
  const [shown, setShown] = useState(external);
  if (external !== shown) {
    setShown(external);
    setText(external);
  }
  const commit = (next: string) => {
    if (HEX_COLOR.test(next)) onChange(next.toUpperCase());
  };

  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap={6} role="group" aria-label={t`${label} palette`}>
        {palette.map((color) => {
          const isTransparent = color.value === TRANSPARENT;
          const selected = isTransparent ? transparent : !transparent && same(color.value, value);
          // The palette's names are src/'s English: said in the app's language.
          const name = translateShared(color.name);
          return (
            <button
              key={color.value}
              type="button"
              className={`${classes.swatch} ${isTransparent ? classes.checker : ''}`}
              style={isTransparent ? undefined : { backgroundColor: color.value }}
              aria-label={isTransparent ? name : `${name} (${color.value})`}
              aria-pressed={selected}
              title={name}
              onClick={() => onChange(color.value)}
            >
              {selected && (
                <IconCheck
                  size={16}
                  stroke={3}
                  color={isTransparent ? '#000000' : readableOn(color.value)}
                  aria-hidden
                />
              )}
            </button>
          );
        })}
      </Group>
      <ColorInput
        aria-label={customLabel}
        size="sm"
        format="hex"
        placeholder={transparent ? t`Transparent` : HEX_FORMAT}
        value={text}
        onChange={(next) => {
          setText(next);
          commit(next);
        }}
        onChangeEnd={commit}
        withEyeDropper={false}
        popoverProps={{ withinPortal: true }}
      />
    </Stack>
  );
}
