import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  countScansByCountry,
  countryByName,
  countryOfLocation,
  countryOfMapFeature,
  normalizeCountryName,
} from './location-country.js';

const require = createRequire(import.meta.url);
const atlas = JSON.parse(readFileSync(require.resolve('world-atlas/countries-110m.json'), 'utf8')) as {
  objects: { countries: { geometries: { id?: string; properties: { name: string } }[] } };
};
const features = atlas.objects.countries.geometries;

const code = (location: string | null) => countryOfLocation(location)?.code ?? null;

describe('countryOfLocation', () => {
  it('reads what geo.ts writes: "City, Country" and "Country" with ICU English names', () => {
    // The seeded demo scans and the shapes of geo.ts.
    expect(code('New York, United States')).toBe('US');
    expect(code('London, United Kingdom')).toBe('GB');
    expect(code('Berlin, Germany')).toBe('DE');
    expect(code('Paris, France')).toBe('FR');
    expect(code('Toronto, Canada')).toBe('CA');
    expect(code('Madrid, Spain')).toBe('ES');
    expect(code('Sydney, Australia')).toBe('AU');
    expect(code('Germany')).toBe('DE');
    // Every name ICU gives for a code (geo.ts without a city database) comes back to that code.
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const c of ['CI', 'CD', 'CG', 'MM', 'HK', 'MO', 'PS', 'TR', 'BA', 'KN', 'ST', 'AX', 'CW', 'XK'])
      expect(code(names.of(c)!), names.of(c)).toBe(c);
  });

  it('reads MaxMind names, ISO formal names and old names', () => {
    expect(code('Abidjan, Ivory Coast')).toBe('CI');
    expect(code('Vilnius, Republic of Lithuania')).toBe('LT');
    expect(code('Amman, Hashemite Kingdom of Jordan')).toBe('JO');
    expect(code('Kinshasa, DR Congo')).toBe('CD');
    expect(code('Brazzaville, Republic of the Congo')).toBe('CG');
    expect(code('Seoul, Korea, Republic of')).toBe('KR');
    expect(code('Korea, Republic of')).toBe('KR');
    expect(code("Pyongyang, Korea, Democratic People's Republic of")).toBe('KP');
    expect(code('Kralendijk, Bonaire, Sint Eustatius, and Saba')).toBe('BQ');
    expect(code('Prague, Czech Republic')).toBe('CZ');
    expect(code('Istanbul, Turkey')).toBe('TR');
    expect(code('Istanbul, Türkiye')).toBe('TR');
    expect(code('Mbabane, Swaziland')).toBe('SZ');
    expect(code('Skopje, Macedonia')).toBe('MK');
    expect(code('Moscow, Russian Federation')).toBe('RU');
    expect(code('Hanoi, Viet Nam')).toBe('VN');
    expect(code('Basseterre, Saint Kitts and Nevis')).toBe('KN');
  });

  it('ignores case, accents, apostrophes, "&" and "St."', () => {
    expect(code('abidjan, cote d’ivoire')).toBe('CI');
    expect(code("COTE D'IVOIRE")).toBe('CI');
    expect(code('Sao Tome & Principe')).toBe('ST');
    expect(code('St Kitts and Nevis')).toBe('KN');
    expect(code('  Berlin ,  germany  ')).toBe('DE');
    expect(code('The Netherlands')).toBe('NL');
    expect(code('Myanmar (Burma)')).toBe('MM');
  });

  it('reads two- and three-letter codes', () => {
    expect(code('US')).toBe('US');
    expect(code('Munich, DE')).toBe('DE');
    expect(code('gbr')).toBe('GB');
    expect(code('UK')).toBe('GB');
  });

  it('names no country for Unknown, empty or unplaceable text', () => {
    for (const text of ['Unknown', '', null, '   ', 'Springfield', 'Mars, Solar System', ','])
      expect(code(text), String(text)).toBeNull();
  });

  it('answers the English name and the world-atlas id', () => {
    expect(countryOfLocation('Paris, France')).toEqual({ code: 'FR', numeric: '250', name: 'France' });
    expect(countryOfLocation('Pristina, Kosovo')).toMatchObject({ code: 'XK', numeric: null });
  });
});

describe('the world-atlas map', () => {
  it('knows the country of every drawn country, by id and by name alike', () => {
    const unnamed: string[] = [];
    for (const f of features) {
      const byFeature = countryOfMapFeature(f.id, f.properties.name);
      if (!byFeature) {
        unnamed.push(f.properties.name);
        continue;
      }
      if (f.id) expect(byFeature.numeric, f.properties.name).toBe(f.id);
      // The map's own abbreviations ('Dem. Rep. Congo', 'Bosnia and Herz.') are names we read too.
      expect(countryByName(f.properties.name)?.code, f.properties.name).toBe(byFeature.code);
    }
    // Disputed areas without an ISO code stay unshaded rather than take a neighbour's scans.
    expect(unnamed.sort()).toEqual(['N. Cyprus', 'Somaliland']);
  });

  it('maps each seeded demo location onto a drawn country', () => {
    const drawn = new Set(features.map((f) => f.id));
    for (const l of ['New York, United States', 'London, United Kingdom', 'Sydney, Australia'])
      expect(drawn.has(countryOfLocation(l)!.numeric!)).toBe(true);
  });
});

describe('countScansByCountry', () => {
  it('sums the cities of a country, most scanned first, and keeps the rest apart', () => {
    const result = countScansByCountry([
      { location: 'Berlin, Germany', count: 4 },
      { location: 'Paris, France', count: 7 },
      { location: 'Munich, Germany', count: 5 },
      { location: 'Unknown', count: 3 },
      { location: 'Atlantis', count: 2 },
      { location: 'Lyon, France', count: 2 },
    ]);
    expect(result.countries.map((c) => [c.name, c.count])).toEqual([
      ['France', 9],
      ['Germany', 9],
    ]);
    expect(result.unknown).toBe(5);
  });

  it('is empty for no locations', () => {
    expect(countScansByCountry([])).toEqual({ countries: [], unknown: 0 });
  });
});

describe('normalizeCountryName', () => {
  it('folds the spellings of one name together', () => {
    expect(normalizeCountryName('São Tomé & Príncipe')).toBe(normalizeCountryName('Sao Tome and Principe'));
    expect(normalizeCountryName('St. Lucia')).toBe(normalizeCountryName('Saint Lucia'));
    expect(normalizeCountryName('Côte d’Ivoire')).toBe(normalizeCountryName("Cote d'Ivoire"));
  });
});
