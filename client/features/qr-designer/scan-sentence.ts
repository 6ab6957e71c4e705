// The scan tester's sample scan and the one sentence that says where it goes:
// "An iPhone in France, in French, at 9:00 on Monday 30 November goes to https://apps.apple.com/… (rule 1)."
import { decideScan, inactivePageNames, type ScanAnswer } from '../../../src/qr/scan-outcome';
import {
  dayNames,
  sampleFacts,
  wallClock,
  withTracking,
  type OsName,
  type RedirectDecision,
  type ScanFacts,
  type SmartRedirect,
} from '../../../src/qr/smart-redirect';
import { countryName, languageName } from './regions';
import { zonedLocalToIso } from './zoned-time';

export interface ScanDevice {
  value: string;
  label: string;
  /** How the sentence names it, with its article. */
  noun: string;
  device: Exclude<ScanFacts['device'], 'bot' | 'unknown'>;
  os: OsName;
}

export const scanDevices: readonly ScanDevice[] = [
  { value: 'iphone', label: 'iPhone (iOS)', noun: 'an iPhone', device: 'mobile', os: 'ios' },
  { value: 'ipad', label: 'iPad (iOS)', noun: 'an iPad', device: 'tablet', os: 'ios' },
  {
    value: 'android-phone',
    label: 'Android phone',
    noun: 'an Android phone',
    device: 'mobile',
    os: 'android',
  },
  {
    value: 'android-tablet',
    label: 'Android tablet',
    noun: 'an Android tablet',
    device: 'tablet',
    os: 'android',
  },
  {
    value: 'windows',
    label: 'Windows computer',
    noun: 'a Windows computer',
    device: 'desktop',
    os: 'windows',
  },
  { value: 'mac', label: 'Mac (macOS)', noun: 'a Mac', device: 'desktop', os: 'macos' },
  { value: 'linux', label: 'Linux computer', noun: 'a Linux computer', device: 'desktop', os: 'linux' },
];

export interface SampleScan {
  device: string;
  /** ISO alpha-2, or null: unknown. */
  country: string | null;
  /** A primary subtag, or null: the browser sends none. */
  language: string | null;
  /** 'YYYY-MM-DD' and 'HH:MM' on the wall clock of the options' zone. */
  date: string;
  time: string;
  scansBefore: number;
}

/** The instant of the sample's day and time in `timeZone`, or null while either is incomplete. */
export function sampleInstant(sample: SampleScan, timeZone: string): Date | null {
  const iso = zonedLocalToIso(`${sample.date}T${sample.time}`, timeZone);
  return iso === null ? null : new Date(iso);
}

const inactiveWhy: Record<Extract<RedirectDecision, { kind: 'inactive' }>['reason'], string> = {
  paused: 'the code is paused',
  'not-started': 'the code is not active yet',
  ended: 'the code has ended',
  limit: 'the scan limit is reached',
};

// Countries named with "the" in a sentence ("an iPhone in the United States").
const withThe = new Set('AE BS CC CF CK DO FK FO GB GM KM KY MH MP MV NL PH SB TC UM US VA VG VI'.split(' '));
const inCountry = (code: string) => `in ${withThe.has(code.toUpperCase()) ? 'the ' : ''}${countryName(code)}`;

const monthDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', timeZone: 'UTC' });

export interface ScanOutcome {
  sentence: string;
  /** What the scanner is shown: the server's own decision (src/qr/scan-outcome.ts). */
  decision: ScanAnswer;
}

/**
 * Where the sample scan goes with these options (null: nothing on), and the sentence saying so, decided by
 * the very function the short link uses (`decideScan`: pause, schedule, limit, then the password form,
 * then the rules). `destination` is the code's own link (null while its content is incomplete);
 * `password`: the code asks for one (a first scan has not given it). Null while the day or time is
 * incomplete.
 */
export function testScan(
  options: SmartRedirect | null,
  destination: string | null,
  sample: SampleScan,
  timeZone: string,
  password = false,
): ScanOutcome | null {
  const at = sampleInstant(sample, timeZone);
  if (!at) return null;
  const device = scanDevices.find((d) => d.value === sample.device) ?? scanDevices[0]!;
  const facts = sampleFacts({
    device: device.device,
    os: device.os,
    country: sample.country,
    language: sample.language,
    at,
    scansBefore: sample.scansBefore,
  });
  const own = destination ?? 'https://…';
  const decision = decideScan(options, own, facts, password);

  const who = [
    device.noun.charAt(0).toUpperCase() + device.noun.slice(1),
    sample.country ? ` ${inCountry(sample.country)}` : '',
    sample.language ? `, in ${languageName(sample.language)},` : '',
  ].join('');
  const [hours = '0', minutes = '00'] = sample.time.split(':');
  const day = dayNames[wallClock(at, timeZone).day];
  const [y, m, d] = sample.date.split('-').map(Number) as [number, number, number];
  const date = monthDay.format(new Date(Date.UTC(y, m - 1, d)));
  const after =
    sample.scansBefore > 0 ? `, after ${sample.scansBefore.toLocaleString('en')} earlier scans,` : '';
  const when = ` at ${Number(hours)}:${minutes} on ${day} ${date}${after}`;

  let what: string;
  if (decision.kind === 'inactive') {
    // Refused before any password: the scanner never sees the form.
    const noForm = password ? ', without the password form' : '';
    what = options?.fallbackUrl
      ? ` goes to the fallback ${withTracking(options.fallbackUrl, options.utm, false, '')} (${inactiveWhy[decision.reason]}${noForm}).`
      : ` sees ${inactivePageNames[decision.reason]}${options?.inactiveMessage ? ' with your message' : ''}${noForm}.`;
  } else {
    const go = decision.kind === 'password' ? decision.next : decision;
    const url =
      destination === null && go.rule === null
        ? "the code's link (complete the content above)"
        : options
          ? withTracking(go.url, options.utm, false, '')
          : go.url;
    const why =
      go.rule === null
        ? options && options.rules.length > 0
          ? ' (no rule matches: the code’s own link)'
          : ''
        : ` (rule ${go.rule + 1}${options?.rules[go.rule]?.label ? `, ${options.rules[go.rule]!.label}` : ''})`;
    // The owner's choice (issue 35): while the daily check finds that address down, the fallback instead.
    const whenDown =
      options?.fallbackWhenDown && options.fallbackUrl
        ? `, or to the fallback ${withTracking(options.fallbackUrl, options.utm, false, '')} while it is down`
        : '';
    what =
      decision.kind === 'password'
        ? ` first sees the password form; after the right password, it goes to ${url}${why}${whenDown}.`
        : ` goes to ${url}${why}${whenDown}.`;
  }
  return { sentence: `${who}${when}${what}`, decision };
}
