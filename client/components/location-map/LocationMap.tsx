import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Box,
  Group,
  Skeleton,
  Text,
  getThemeColor,
  useComputedColorScheme,
  useMantineTheme,
} from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import type { LocationCount } from '../../../src/analytics/analytics.schema';
import { countScansByCountry } from '../../../src/analytics/location-country';
import { scansLabel } from '../../lib/format';
import { ChartFigure } from '../ChartFigure';
import type { WorldShapes } from './world-shapes';

/** Blue shades from fewest to most scans: darker for more on light, lighter for more on dark. */
const SHADES = { light: [2, 4, 5, 7, 9], dark: [9, 7, 6, 4, 2] } as const;
/** The drawing's proportions before its shapes arrive, so nothing below it jumps. */
const ASPECT = '960 / 440';

/** 1 to 5: the share of the busiest country's scans, in fifths (any scan at all is at least 1). */
const levelOf = (count: number, max: number) => Math.max(1, Math.ceil((5 * count) / max));

/**
 * A country's name in the screens' language: Intl's for its ISO code, except in English, where the name the
 * server stored is kept (as the table always showed it).
 */
function countryNamer(locale: string): (country: { code: string; name: string }) => string {
  if (locale === 'en') return (country) => country.name;
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
  } catch {
    // An engine without DisplayNames: the stored English names.
  }
  return (country) => {
    try {
      return names?.of(country.code) ?? country.name;
    } catch {
      return country.name;
    }
  };
}

/**
 * A world map shaded by scans per country, with the countries and their scans as a table. The
 * shapes (Natural Earth via world-atlas, projected with d3-geo) are a chunk of their own, loaded
 * when a map is first shown, so pages without one never download them.
 */
export function LocationMap({ locations, caption }: { locations: LocationCount[]; caption: string }) {
  const { t, i18n } = useLingui();
  const theme = useMantineTheme();
  const scheme = useComputedColorScheme('light');
  const [shapes, setShapes] = useState<WorldShapes | 'failed' | null>(null);

  useEffect(() => {
    let live = true;
    import('./world-shapes').then(
      (m) => live && setShapes(m.worldShapes()),
      () => live && setShapes('failed'),
    );
    return () => {
      live = false;
    };
  }, []);

  const counted = useMemo(() => countScansByCountry(locations), [locations]);
  const unknown = counted.unknown;
  const locale = i18n.locale;
  const countries = useMemo(() => {
    const nameOf = countryNamer(locale);
    return counted.countries.map((c) => ({ ...c, name: nameOf(c) }));
  }, [counted, locale]);
  const byCode = useMemo(() => new Map(countries.map((c) => [c.code, c])), [countries]);
  const max = countries[0]?.count ?? 0;
  const shade = (level: number) => getThemeColor(`blue.${SHADES[scheme][level - 1]}`, theme);
  const empty = getThemeColor(scheme === 'dark' ? 'dark.4' : 'gray.2', theme);
  const border = getThemeColor(scheme === 'dark' ? 'dark.7' : 'white', theme);

  const rows: (string | number)[][] = countries.map((c) => [c.name, c.count]);
  if (unknown > 0) rows.push([t({ message: 'Unknown', context: 'scan location' }), unknown]);
  const titleOf = (country: { name: string; count: number }) => {
    const name = country.name;
    const scans = scansLabel(country.count);
    return t`${name}: ${scans}`;
  };
  const known = countries.length;
  const summary =
    known === 0
      ? t`no scans from a known country`
      : plural(known, { one: '# country with scans', other: '# countries with scans' });

  return (
    <ChartFigure
      label={t`World map: ${caption}, ${summary}`}
      table={{ caption, columns: [t`Country`, t`Scans`], rows }}
    >
      <Box maw={880} mx="auto" data-location-map>
        {shapes === null ? (
          <Skeleton w="100%" style={{ aspectRatio: ASPECT }} radius="md" />
        ) : shapes === 'failed' ? (
          <Text size="sm" c="dimmed" ta="center" py="xl">
            <Trans>The map could not be loaded: "Show as table" lists every country.</Trans>
          </Text>
        ) : (
          <svg viewBox={shapes.viewBox} width="100%" style={{ display: 'block', height: 'auto' }}>
            {shapes.countries.map((s) => {
              const c = s.code ? byCode.get(s.code) : undefined;
              return (
                <path
                  key={s.key}
                  d={s.d}
                  fill={c ? shade(levelOf(c.count, max)) : empty}
                  stroke={border}
                  strokeWidth={0.5}
                  strokeLinejoin="round"
                  data-country={s.code ?? undefined}
                  data-scans={c?.count}
                >
                  {c && <title>{titleOf(c)}</title>}
                </path>
              );
            })}
          </svg>
        )}
        {countries.length > 0 && (
          <Group gap={6} justify="center" mt="sm" wrap="nowrap">
            <Text size="xs" c="dimmed">
              <Trans>Fewer</Trans>
            </Text>
            {[1, 2, 3, 4, 5].map((level) => (
              <Box key={level} w={24} h={10} bg={shade(level)} style={{ borderRadius: 2 }} />
            ))}
            <Text size="xs" c="dimmed">
              <Trans>More scans</Trans>
            </Text>
          </Group>
        )}
      </Box>
    </ChartFigure>
  );
}
