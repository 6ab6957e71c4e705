import { readFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { createRequire } from 'node:module';
import maxmind, { Reader, type CityResponse } from 'maxmind';
import { isPrivateAddress, unmapIpv4 } from './client-address.js';

export interface GeoLocator {
  /** 'City, Country', 'Country', or 'Unknown' (private, loopback or not in the database). */
  locate(ip: string): string;
  /** The ISO 3166 alpha-2 country code ('FR'), or null (private, loopback or not in the database). */
  countryCode(ip: string): string | null;
}

const require = createRequire(import.meta.url);
/**
 * Country-level databases shipped in an npm package (CC0, from WHOIS and ASN data), one per address
 * family, each read at the first scan that needs it (3 MB for IPv4, 5 MB for IPv6): an idle server holds
 * neither, and one whose visitors come over IPv4 never holds the IPv6 one.
 */
const COUNTRY_DB_V4 =
  require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country-ipv4.mmdb');
const COUNTRY_DB_V6 =
  require.resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country-ipv6.mmdb');

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** Names by code, worked out once each: a few hundred at most, asked on every scan. */
const countryNames = new Map<string, string | undefined>();

/** A country's English name by its ISO code, as the analytics store locations. */
export function countryName(code: string | undefined): string | undefined {
  if (!code) return undefined;
  if (countryNames.has(code)) return countryNames.get(code);
  let name: string | undefined;
  try {
    name = regionNames.of(code.toUpperCase());
  } catch {
    name = undefined;
  }
  if (countryNames.size < 1000) countryNames.set(code, name);
  return name;
}

/**
 * Decoded records by their offset in a country database. Such a database stores each distinct record
 * once (a few hundred countries), so after the first scans every lookup walks the tree and decodes
 * nothing. Bounded all the same.
 */
function recordCache() {
  const records = new Map<number, unknown>();
  return {
    get: (offset: string | number) => records.get(Number(offset)),
    set: (offset: string | number, record: unknown) => {
      if (records.size >= 4096) records.clear();
      records.set(Number(offset), record);
    },
  };
}

/** A lookup is a few microseconds, all in memory, once its database is read. */
export async function createGeoLocator(options: { cityDbPath?: string | undefined }): Promise<GeoLocator> {
  // Their records are { country_code }, not MaxMind's shape; read through a narrow cast below.
  let countryV4: Reader<CityResponse> | undefined;
  let countryV6: Reader<CityResponse> | undefined;
  const countryOf = (address: string) =>
    isIPv4(address)
      ? (countryV4 ??= new Reader<CityResponse>(readFileSync(COUNTRY_DB_V4), { cache: recordCache() }))
      : (countryV6 ??= new Reader<CityResponse>(readFileSync(COUNTRY_DB_V6), { cache: recordCache() }));
  const city: Reader<CityResponse> | null = options.cityDbPath
    ? await maxmind.open<CityResponse>(options.cityDbPath)
    : null;
  /**
   * The records of one address, the last one asked: a scan whose rules ask its country is located for
   * its row a moment later, one lookup for both.
   */
  let lastAddress = '';
  let lastCity: CityResponse | null = null;
  let lastCountry: { country_code?: string } | null = null;
  const lookup = (address: string) => {
    if (address !== lastAddress) {
      lastAddress = '';
      lastCity = city?.get(address) ?? null;
      // The country database only when the city database (if any) has no country code for it.
      lastCountry = lastCity?.country?.iso_code
        ? null
        : (countryOf(address).get(address) as { country_code?: string } | null);
      lastAddress = address;
    }
    return { cityRecord: lastCity, countryRecord: lastCountry };
  };
  return {
    locate(ip) {
      const address = unmapIpv4(ip);
      if (isPrivateAddress(address)) return 'Unknown';
      try {
        const { cityRecord, countryRecord } = lookup(address);
        const cityName = cityRecord?.city?.names?.en;
        const fromCity = cityRecord?.country?.names?.en ?? countryName(cityRecord?.country?.iso_code);
        if (cityName && fromCity) return `${cityName}, ${fromCity}`;
        if (fromCity) return fromCity;
        return countryName(countryRecord?.country_code) ?? 'Unknown';
      } catch {
        return 'Unknown';
      }
    },
    countryCode(ip) {
      const address = unmapIpv4(ip);
      if (isPrivateAddress(address)) return null;
      try {
        const { cityRecord, countryRecord } = lookup(address);
        const code = cityRecord?.country?.iso_code ?? countryRecord?.country_code;
        return code && /^[A-Za-z]{2}$/.test(code) ? code.toUpperCase() : null;
      } catch {
        return null;
      }
    },
  };
}
