import { UAParser } from 'ua-parser-js';
import { acceptedLanguages, type OsName, type ScanFacts } from '../../../src/qr/smart-redirect.js';
import { deviceCategory } from '../scans/device.js';

const LINUX =
  /^(Linux|Ubuntu|Debian|Fedora|Arch|Mint|Manjaro|openSUSE|SUSE|Red Hat|CentOS|Gentoo|Slackware|Deepin|elementary OS|Kubuntu|Xubuntu|Lubuntu|Zenwalk|Mandriva|PCLinuxOS|Linpus|Mageia)/i;

function classifyOs(userAgent: string): OsName | null {
  const name = new UAParser(userAgent).getOS().name ?? '';
  if (name === 'iOS') return 'ios';
  if (name === 'Android') return 'android';
  if (name === 'Windows') return 'windows';
  if (name === 'Mac OS' || name === 'macOS') return 'macos';
  // Chrome OS and others are none of the five.
  return LINUX.test(name) ? 'linux' : null;
}

const OS_CACHE_MAX = 2000;
const osCache = new Map<string, OsName | null>();

/**
 * The scanning device's operating system, for OS rules: one of iOS, Android, Windows, macOS, Linux, or
 * null. An iPad in desktop mode says it is a Mac, and is one here. Cached like the device categories.
 */
export function osOf(userAgent: string | null | undefined): OsName | null {
  if (!userAgent) return null;
  const hit = osCache.get(userAgent);
  if (hit !== undefined) return hit;
  const os = classifyOs(userAgent.slice(0, 512));
  if (osCache.size >= OS_CACHE_MAX) osCache.delete(osCache.keys().next().value!);
  osCache.set(userAgent, os);
  return os;
}

const deviceOf: Record<ReturnType<typeof deviceCategory>, ScanFacts['device']> = {
  Mobile: 'mobile',
  Tablet: 'tablet',
  Desktop: 'desktop',
  Bot: 'bot',
  Unknown: 'unknown',
};

export interface ScanFactsInput {
  userAgent: string | undefined;
  acceptLanguage: string | undefined;
  country: () => string | null;
  at: Date;
  scansBefore: () => number;
}

/**
 * What the rules may ask of a scan. Each fact is worked out when a condition first reads it and kept, so
 * a code whose rules ask only the device never parses Accept-Language or locates the address. A class
 * (getters on its prototype, one shape for every instance): an object literal with getters costs more to
 * build per scan than deciding all of a code's rules.
 */
class LazyScanFacts implements ScanFacts {
  private deviceValue: ScanFacts['device'] | undefined = undefined;
  private osValue: OsName | null | undefined = undefined;
  private countryValue: string | null | undefined = undefined;
  private languagesValue: string[] | undefined = undefined;
  private scansValue: number | undefined = undefined;
  readonly at: Date;
  constructor(private readonly input: ScanFactsInput) {
    this.at = input.at;
  }
  get device(): ScanFacts['device'] {
    return (this.deviceValue ??= deviceOf[deviceCategory(this.input.userAgent)]);
  }
  get os(): OsName | null {
    if (this.osValue === undefined) this.osValue = osOf(this.input.userAgent);
    return this.osValue;
  }
  get country(): string | null {
    if (this.countryValue === undefined) this.countryValue = this.input.country();
    return this.countryValue;
  }
  get languages(): string[] {
    return (this.languagesValue ??= acceptedLanguages(this.input.acceptLanguage));
  }
  get scansBefore(): number {
    return (this.scansValue ??= this.input.scansBefore());
  }
}

export function scanFactsOf(input: ScanFactsInput): ScanFacts {
  return new LazyScanFacts(input);
}
