import { geoEqualEarth, geoPath } from 'd3-geo';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
// Natural Earth's 1:110m countries (107 kB, ~35 kB compressed): the whole world at a card's size,
// bundled with the app so nothing is fetched from another origin.
import atlas from 'world-atlas/countries-110m.json';
import { countryOfMapFeature } from '../../../src/analytics/location-country';

export interface CountryShape {
  /** The feature's own key (its ISO numeric id, or its name when it has none). */
  key: string;
  /** ISO alpha-2 of the country it is, or null for an area without one (N. Cyprus, Somaliland). */
  code: string | null;
  name: string;
  /** SVG path in the map's viewBox. */
  d: string;
}

export interface WorldShapes {
  viewBox: string;
  width: number;
  height: number;
  countries: CountryShape[];
}

const WIDTH = 960;

type CountryProperties = { name: string };

let shapes: WorldShapes | undefined;

/**
 * Every country projected once (Equal Earth: areas true to size, so no country looks busier than it
 * is) into a fixed viewBox that the SVG scales. Antarctica is left out: nobody scans there and it
 * would take a fifth of the height.
 */
export function worldShapes(): WorldShapes {
  if (shapes) return shapes;
  const topology = atlas as unknown as Topology<{ countries: GeometryCollection<CountryProperties> }>;
  const all: FeatureCollection<Geometry, CountryProperties> = feature(topology, topology.objects.countries);
  const drawn: Feature<Geometry, CountryProperties>[] = all.features.filter(
    (f) => f.properties.name !== 'Antarctica',
  );
  const collection: FeatureCollection<Geometry, CountryProperties> = { ...all, features: drawn };
  const projection = geoEqualEarth().fitWidth(WIDTH, collection);
  const path = geoPath(projection).digits(1);
  const [[x0, y0], [x1, y1]] = path.bounds(collection);
  const height = Math.ceil(y1 - y0);
  shapes = {
    viewBox: `${Math.floor(x0)} ${Math.floor(y0)} ${Math.ceil(x1 - x0)} ${height}`,
    width: Math.ceil(x1 - x0),
    height,
    countries: drawn.map((f) => {
      const name = f.properties.name;
      return {
        key: f.id === undefined ? name : String(f.id),
        code: countryOfMapFeature(f.id, name)?.code ?? null,
        name,
        d: path(f) ?? '',
      };
    }),
  };
  return shapes;
}
