import { createRequire } from 'node:module';
import maxmind, { type CityResponse, type Reader } from 'maxmind';
import { isPrivateAddress, unmapIpv4 } from './client-address.js';

export interface GeoLocator {
  /** 'City, Country', 'Country', or 'Unknown' (private, loopback or not in the database). */
  locate(ip: string): string;
}

const require = createRequire(import.meta.url);
/** Country-level database shipped in an npm package (CC0, from WHOIS and ASN data). */
const COUNTRY_DB = require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function countryName(code: string | undefined): string | undefined {
  if (!code) return undefined;
  try {
    return regionNames.of(code.toUpperCase());
  } catch {
    return undefined;
  }
}

/** Opens the databases once at start-up; a lookup afterwards is a few microseconds, all in memory. */
export async function createGeoLocator(options: { cityDbPath?: string | undefined }): Promise<GeoLocator> {
  // Its records are { country_code }, not MaxMind's shape; read through a narrow cast below.
  const country = await maxmind.open<CityResponse>(COUNTRY_DB);
  const city: Reader<CityResponse> | null = options.cityDbPath
    ? await maxmind.open<CityResponse>(options.cityDbPath)
    : null;
  return {
    locate(ip) {
      const address = unmapIpv4(ip);
      if (isPrivateAddress(address)) return 'Unknown';
      try {
        const cityRecord = city?.get(address);
        const cityName = cityRecord?.city?.names?.en;
        const fromCity = cityRecord?.country?.names?.en ?? countryName(cityRecord?.country?.iso_code);
        if (cityName && fromCity) return `${cityName}, ${fromCity}`;
        if (fromCity) return fromCity;
        const record = country.get(address) as { country_code?: string } | null;
        return countryName(record?.country_code) ?? 'Unknown';
      } catch {
        return 'Unknown';
      }
    },
  };
}
