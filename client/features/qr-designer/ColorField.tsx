import { ColorInput, Group, Stack, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { HEX_COLOR, TRANSPARENT } from '../../../src/qr/customization-values';
import { readableOn } from '../../../src/qr/render-options';
import classes from './qr-designer.module.css';

export interface PaletteColor {
  name: string;
  value: string;
}

interface ColorFieldProps {
  label: string;
  palette: readonly PaletteColor[];
  /** '#RRGGBB', or 'transparent' where the palette offers it. */
  value: string;
  onChange: (value: string) => void;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Palette swatches (buttons named after their colour) and a free picker that accepts any #RRGGBB. */
export function ColorField({ label, palette, value, onChange }: ColorFieldProps) {
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
      <Group gap={6} role="group" aria-label={`${label} palette`}>
        {palette.map((color) => {
          const isTransparent = color.value === TRANSPARENT;
          const selected = isTransparent ? transparent : !transparent && same(color.value, value);
          return (
            <button
              key={color.value}
              type="button"
              className={`${classes.swatch} ${isTransparent ? classes.checker : ''}`}
              style={isTransparent ? undefined : { backgroundColor: color.value }}
              aria-label={isTransparent ? color.name : `${color.name} (${color.value})`}
              aria-pressed={selected}
              title={color.name}
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
        aria-label={`Custom ${label.toLowerCase()}`}
        size="sm"
        format="hex"
        placeholder={transparent ? 'Transparent' : '#RRGGBB'}
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
