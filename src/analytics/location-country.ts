import type { LocationCount } from './analytics.schema.js';

/**
 * Which country a stored scan location is in. The server writes 'City, Country', 'Country' or
 * 'Unknown' with English names (server/features/scans/geo.ts: MaxMind's names when a city database
 * is configured, else ICU's Intl.DisplayNames), and locations sent through the API are free text, so
 * the names are matched loosely (case, accents, '&', 'St.', punctuation) and old or official forms
 * are accepted as well as two- and three-letter codes. The map (world-atlas) names countries by ISO
 * 3166-1 numeric id, hence that column.
 */

/** ISO 3166-1: alpha-2, alpha-3 and numeric, in that order, for every country (and Kosovo, XK, no number). */
const ISO_TABLE =
  'AF AFG 004,AX ALA 248,AL ALB 008,DZ DZA 012,AS ASM 016,AD AND 020,AO AGO 024,AI AIA 660,AQ ATA 010,' +
  'AG ATG 028,AR ARG 032,AM ARM 051,AW ABW 533,AU AUS 036,AT AUT 040,AZ AZE 031,BS BHS 044,BH BHR 048,' +
  'BD BGD 050,BB BRB 052,BY BLR 112,BE BEL 056,BZ BLZ 084,BJ BEN 204,BM BMU 060,BT BTN 064,BO BOL 068,' +
  'BQ BES 535,BA BIH 070,BW BWA 072,BV BVT 074,BR BRA 076,IO IOT 086,BN BRN 096,BG BGR 100,BF BFA 854,' +
  'BI BDI 108,CV CPV 132,KH KHM 116,CM CMR 120,CA CAN 124,KY CYM 136,CF CAF 140,TD TCD 148,CL CHL 152,' +
  'CN CHN 156,CX CXR 162,CC CCK 166,CO COL 170,KM COM 174,CG COG 178,CD COD 180,CK COK 184,CR CRI 188,' +
  'CI CIV 384,HR HRV 191,CU CUB 192,CW CUW 531,CY CYP 196,CZ CZE 203,DK DNK 208,DJ DJI 262,DM DMA 212,' +
  'DO DOM 214,EC ECU 218,EG EGY 818,SV SLV 222,GQ GNQ 226,ER ERI 232,EE EST 233,SZ SWZ 748,ET ETH 231,' +
  'FK FLK 238,FO FRO 234,FJ FJI 242,FI FIN 246,FR FRA 250,GF GUF 254,PF PYF 258,TF ATF 260,GA GAB 266,' +
  'GM GMB 270,GE GEO 268,DE DEU 276,GH GHA 288,GI GIB 292,GR GRC 300,GL GRL 304,GD GRD 308,GP GLP 312,' +
  'GU GUM 316,GT GTM 320,GG GGY 831,GN GIN 324,GW GNB 624,GY GUY 328,HT HTI 332,HM HMD 334,VA VAT 336,' +
  'HN HND 340,HK HKG 344,HU HUN 348,IS ISL 352,IN IND 356,ID IDN 360,IR IRN 364,IQ IRQ 368,IE IRL 372,' +
  'IM IMN 833,IL ISR 376,IT ITA 380,JM JAM 388,JP JPN 392,JE JEY 832,JO JOR 400,KZ KAZ 398,KE KEN 404,' +
  'KI KIR 296,KP PRK 408,KR KOR 410,KW KWT 414,KG KGZ 417,LA LAO 418,LV LVA 428,LB LBN 422,LS LSO 426,' +
  'LR LBR 430,LY LBY 434,LI LIE 438,LT LTU 440,LU LUX 442,MO MAC 446,MG MDG 450,MW MWI 454,MY MYS 458,' +
  'MV MDV 462,ML MLI 466,MT MLT 470,MH MHL 584,MQ MTQ 474,MR MRT 478,MU MUS 480,YT MYT 175,MX MEX 484,' +
  'FM FSM 583,MD MDA 498,MC MCO 492,MN MNG 496,ME MNE 499,MS MSR 500,MA MAR 504,MZ MOZ 508,MM MMR 104,' +
  'NA NAM 516,NR NRU 520,NP NPL 524,NL NLD 528,NC NCL 540,NZ NZL 554,NI NIC 558,NE NER 562,NG NGA 566,' +
  'NU NIU 570,NF NFK 574,MK MKD 807,MP MNP 580,NO NOR 578,OM OMN 512,PK PAK 586,PW PLW 585,PS PSE 275,' +
  'PA PAN 591,PG PNG 598,PY PRY 600,PE PER 604,PH PHL 608,PN PCN 612,PL POL 616,PT PRT 620,PR PRI 630,' +
  'QA QAT 634,RE REU 638,RO ROU 642,RU RUS 643,RW RWA 646,BL BLM 652,SH SHN 654,KN KNA 659,LC LCA 662,' +
  'MF MAF 663,PM SPM 666,VC VCT 670,WS WSM 882,SM SMR 674,ST STP 678,SA SAU 682,SN SEN 686,RS SRB 688,' +
  'SC SYC 690,SL SLE 694,SG SGP 702,SX SXM 534,SK SVK 703,SI SVN 705,SB SLB 090,SO SOM 706,ZA ZAF 710,' +
  'GS SGS 239,SS SSD 728,ES ESP 724,LK LKA 144,SD SDN 729,SR SUR 740,SJ SJM 744,SE SWE 752,CH CHE 756,' +
  'SY SYR 760,TW TWN 158,TJ TJK 762,TZ TZA 834,TH THA 764,TL TLS 626,TG TGO 768,TK TKL 772,TO TON 776,' +
  'TT TTO 780,TN TUN 788,TR TUR 792,TM TKM 795,TC TCA 796,TV TUV 798,UG UGA 800,UA UKR 804,AE ARE 784,' +
  'GB GBR 826,US USA 840,UM UMI 581,UY URY 858,UZ UZB 860,VU VUT 548,VE VEN 862,VN VNM 704,VG VGB 092,' +
  'VI VIR 850,WF WLF 876,EH ESH 732,YE YEM 887,ZM ZMB 894,ZW ZWE 716,XK XKX -';

/**
 * Names ICU does not give (or gave in older versions): MaxMind's, ISO's formal ones, common short
 * forms and the abbreviations of the world-atlas map itself.
 */
const ALIASES: Record<string, string[]> = {
  US: ['United States of America', 'USA', 'U.S.', 'U.S.A.', 'America'],
  GB: ['UK', 'U.K.', 'Great Britain', 'Britain', 'England', 'Scotland', 'Wales', 'Northern Ireland'],
  RU: ['Russian Federation'],
  KR: ['Korea, Republic of', 'Republic of Korea', 'Korea', 'S. Korea'],
  KP: ["Korea, Democratic People's Republic of", "Democratic People's Republic of Korea", 'N. Korea'],
  CZ: ['Czech Republic'],
  CI: ['Ivory Coast', "Cote d'Ivoire"],
  CD: [
    'Democratic Republic of the Congo',
    'DR Congo',
    'DRC',
    'Congo, The Democratic Republic of the',
    'Congo (Kinshasa)',
    'Dem. Rep. Congo',
  ],
  CG: ['Republic of the Congo', 'Congo', 'Congo (Brazzaville)', 'Congo Republic'],
  MK: ['Macedonia', 'Republic of North Macedonia', 'North Macedonia, Republic of'],
  SZ: ['Swaziland', 'eSwatini', 'Kingdom of Eswatini'],
  TR: ['Turkey', 'Republic of Türkiye'],
  MM: ['Myanmar', 'Burma'],
  IR: ['Iran, Islamic Republic of', 'Islamic Republic of Iran'],
  SY: ['Syrian Arab Republic'],
  LA: ["Lao People's Democratic Republic", 'Lao PDR'],
  VN: ['Viet Nam'],
  BO: ['Bolivia, Plurinational State of'],
  VE: ['Venezuela, Bolivarian Republic of'],
  TZ: ['Tanzania, United Republic of', 'United Republic of Tanzania'],
  MD: ['Moldova, Republic of', 'Republic of Moldova'],
  LT: ['Republic of Lithuania'],
  JO: ['Hashemite Kingdom of Jordan'],
  PS: ['Palestine', 'State of Palestine', 'Palestine, State of', 'Palestinian Territory'],
  TW: ['Taiwan, Province of China', 'Republic of China'],
  HK: ['Hong Kong', 'Hong Kong SAR'],
  MO: ['Macao', 'Macau', 'Macao SAR'],
  VA: ['Holy See', 'Vatican', 'Holy See (Vatican City State)'],
  FM: ['Micronesia, Federated States of', 'Federated States of Micronesia'],
  BA: ['Bosnia and Herz.', 'Bosnia'],
  BQ: ['Bonaire, Sint Eustatius, and Saba', 'Bonaire, Sint Eustatius and Saba'],
  CF: ['Central African Rep.'],
  DO: ['Dominican Rep.'],
  GQ: ['Eq. Guinea'],
  SB: ['Solomon Is.'],
  FK: ['Falkland Is.', 'Falkland Islands (Malvinas)'],
  TF: ['Fr. S. Antarctic Lands', 'French Southern and Antarctic Lands'],
  SS: ['S. Sudan'],
  EH: ['W. Sahara'],
  TL: ['East Timor'],
  CV: ['Cabo Verde'],
  NL: ['The Netherlands', 'Holland'],
  AE: ['UAE'],
  BN: ['Brunei Darussalam'],
  KN: ['Saint Kitts and Nevis'],
  LC: ['Saint Lucia'],
  VC: ['Saint Vincent and the Grenadines'],
  ST: ['Sao Tome and Principe'],
  RE: ['Reunion'],
  CW: ['Curacao'],
  AX: ['Aland Islands', 'Aland'],
  UM: ['United States Minor Outlying Islands'],
  VI: ['U.S. Virgin Islands', 'Virgin Islands, U.S.'],
  VG: ['British Virgin Islands', 'Virgin Islands, British'],
};

export interface Country {
  /** ISO 3166-1 alpha-2 (XK for Kosovo). */
  code: string;
  /** ISO 3166-1 numeric as world-atlas writes it ('004'), or null (Kosovo). */
  numeric: string | null;
  /** The English name, as the server writes it. */
  name: string;
}

/** Lower case, no accents, '&' as 'and', 'St.' as 'Saint', no punctuation, no leading 'the'. */
export function normalizeCountryName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/&/g, ' and ')
    .replace(/\bst\.?(?=\s)/g, 'saint')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/^the /, '');
}

interface Index {
  byKey: Map<string, Country>;
  byNumeric: Map<string, Country>;
  byCode: Map<string, Country>;
}

let index: Index | undefined;

/** Built at the first lookup: ICU's names for the codes, the aliases, the codes themselves. */
function getIndex(): Index {
  if (index) return index;
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const byKey = new Map<string, Country>();
  const byNumeric = new Map<string, Country>();
  const byCode = new Map<string, Country>();
  // Real names win over codes: 'Chad' is a name, never an alpha-3 code read loosely.
  const codeKeys: [string, Country][] = [];
  for (const entry of ISO_TABLE.split(',')) {
    const [alpha2, alpha3, numeric] = entry.split(' ') as [string, string, string];
    const country: Country = {
      code: alpha2,
      numeric: numeric === '-' ? null : numeric,
      name: names.of(alpha2) ?? alpha2,
    };
    byCode.set(alpha2, country);
    if (country.numeric) byNumeric.set(country.numeric, country);
    byKey.set(normalizeCountryName(country.name), country);
    codeKeys.push([alpha2.toLowerCase(), country], [alpha3.toLowerCase(), country]);
  }
  for (const [code, aliases] of Object.entries(ALIASES)) {
    const country = byCode.get(code)!;
    for (const alias of aliases) {
      const key = normalizeCountryName(alias);
      if (!byKey.has(key)) byKey.set(key, country);
    }
  }
  for (const [key, country] of codeKeys) if (!byKey.has(key)) byKey.set(key, country);
  index = { byKey, byNumeric, byCode };
  return index;
}

/** The country named by `name` alone (no city part), or null. */
export function countryByName(name: string): Country | null {
  const { byKey } = getIndex();
  const key = normalizeCountryName(name);
  if (!key) return null;
  const found = byKey.get(key);
  if (found) return found;
  // 'Myanmar (Burma)', 'Falkland Islands (Malvinas)': the name before the brackets.
  const bare = normalizeCountryName(name.replace(/\s*\([^)]*\)\s*/g, ' '));
  return (bare && bare !== key && byKey.get(bare)) || null;
}

/** The country of a world-atlas feature: by its numeric id, else by its name (Kosovo has no id). */
export function countryOfMapFeature(
  id: string | number | undefined,
  name: string | undefined,
): Country | null {
  if (id !== undefined) {
    const found = getIndex().byNumeric.get(String(id).padStart(3, '0'));
    if (found) return found;
  }
  return name ? countryByName(name) : null;
}

/**
 * The country of a stored location: the whole text, then what follows each comma in turn, so
 * 'Paris, France', 'Kralendijk, Bonaire, Sint Eustatius, and Saba' and 'Korea, Republic of' all
 * resolve. 'Unknown', empty text or a place we cannot name is null.
 */
export function countryOfLocation(location: string | null | undefined): Country | null {
  if (!location) return null;
  const parts = location.split(',');
  for (let i = 0; i < parts.length; i++) {
    const found = countryByName(parts.slice(i).join(','));
    if (found) return found;
  }
  return null;
}

export interface CountryCount extends Country {
  count: number;
}

/**
 * Location counts summed per country, most scanned first (then by name); `unknown` is the scans whose
 * location names no country ('Unknown', a private address, free text we cannot place).
 */
export function countScansByCountry(locations: readonly LocationCount[]): {
  countries: CountryCount[];
  unknown: number;
} {
  const totals = new Map<string, CountryCount>();
  let unknown = 0;
  for (const { location, count } of locations) {
    const country = countryOfLocation(location);
    if (!country) {
      unknown += count;
      continue;
    }
    const entry = totals.get(country.code);
    if (entry) entry.count += count;
    else totals.set(country.code, { ...country, count });
  }
  const countries = [...totals.values()]
    .filter((c) => c.count > 0)
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  return { countries, unknown };
}
