import { createTheme, darken, type CSSVariablesResolver } from '@mantine/core';

/**
 * WCAG 2.2 AA lives here, once, rather than on each element (client/e2e/a11y-audit.e2e.ts checks it):
 *
 * - Filled colours use shade 8 in both schemes: white on Mantine's default shade 6 is 3.6:1 for blue and
 *   3.3:1 for red; shade 8 is 5.0:1 and 4.5:1. Text in a colour (`c="red"`, links) follows the same shade
 *   in light; dark mode keeps shade 4 for it.
 * - Dimmed text, red menu items and light variants: see `cssVariablesResolver`.
 * - Links are underlined: inside a sentence colour alone does not mark them (1.4.1).
 * - Close buttons without a name of their own say what they do (4.1.2); Help's is named by its dialog.
 * - `respectReducedMotion`: with prefers-reduced-motion, Mantine's transitions (modals, menus, drawers,
 *   collapses) take no time. CSS animations and transitions are stopped by client/a11y.css.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  respectReducedMotion: true,
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji"',
  headings: { fontWeight: '700' },
  components: {
    Anchor: { defaultProps: { underline: 'always' } },
    CloseButton: { defaultProps: { 'aria-label': 'Close' } },
    // Its placeholder (role=presentation yet focusable) is a child a role=menu may not have (1.3.1).
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
  },
});

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

const hex = (rgb: string) =>
  rgb.startsWith('#')
    ? rgb
    : `#${(rgb.match(/\d+/g) ?? [])
        .slice(0, 3)
        .map((v) => Number(v).toString(16).padStart(2, '0'))
        .join('')}`;

/** `color` darkened in steps until it reads at 4.5:1 on `background`. */
function readableOn(color: string, background: string): string {
  let result = hex(color);
  for (let amount = 0.05; contrast(result, background) < 4.5 && amount < 1; amount += 0.05) {
    result = hex(darken(color, amount));
  }
  return result;
}

/**
 * Passed to MantineProvider with the theme: the colours Mantine's CSS takes straight from the palette.
 *
 * - Dimmed text and notification descriptions (gray 6 / dark 2): #5c636a is 6.1:1 on white and 5.5:1 on
 *   the light hover grey (#f1f3f5); #a6a6a6 is 6.4:1 on the dark body and 4.6:1 on the dark hover (#3b3b3b).
 * - Red 6, the text of a red menu item ('Delete', 'Log out'): red 8 in light (4.5:1), red 4 in dark (5.9:1
 *   on a dark menu).
 * - Errors: red 8 in light, red 5 in dark (Mantine's red 8 there is 3.4:1).
 * - The text of light variants (badges, light buttons) is shade 9 on shade 1: 4.3:1 for teal, 3.8:1 for
 *   green; darkened where needed until it reads at 4.5:1 on the hovered shade 2.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-gray-6': '#5c636a',
    '--mantine-color-red-6': t.colors.red[8],
    '--mantine-color-error': 'var(--mantine-color-red-8)',
    ...Object.fromEntries(
      Object.entries(t.colors)
        .filter(([name]) => name !== 'dark')
        .map(([name, shades]) => [`--mantine-color-${name}-light-color`, readableOn(shades[9], shades[2])]),
    ),
  },
  dark: {
    '--mantine-color-dark-2': '#a6a6a6',
    '--mantine-color-red-6': t.colors.red[4],
    '--mantine-color-error': 'var(--mantine-color-red-5)',
  },
});
