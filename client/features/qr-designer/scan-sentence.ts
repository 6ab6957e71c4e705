// The scan tester's sample scan and the one sentence that says where it goes:
// "An iPhone in France, in French, at 9:00 on Monday 30 November goes to https://apps.apple.com/… (rule 1)."
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { decideScan, inactivePageNames, type ScanAnswer } from '../../../src/qr/scan-outcome';
import {
  sampleFacts,
  wallClock,
  withTracking,
  type OsName,
  type RedirectDecision,
  type ScanFacts,
  type SmartRedirect,
} from '../../../src/qr/smart-redirect';
import { translateShared } from '../../i18n/shared-messages';
import { countryName, languageName, namesLocale } from './regions';
import { weekdayName, zonedLocalToIso } from './zoned-time';

export interface ScanDevice {
  value: string;
  /** The select's wording: a brand name alone stays as it is, the others are translated. */
  label: string | MessageDescriptor;
  /** How the sentence names it, with its article (lower case: the sentence's start is capitalised). */
  noun: MessageDescriptor;
  device: Exclude<ScanFacts['device'], 'bot' | 'unknown'>;
  os: OsName;
}

export const scanDevices: readonly ScanDevice[] = [
  {
    value: 'iphone',
    label: 'iPhone (iOS)',
    noun: msg({ message: 'an iPhone', comment: 'the device of a sample scan, starting a sentence' }),
    device: 'mobile',
    os: 'ios',
  },
  {
    value: 'ipad',
    label: 'iPad (iOS)',
    noun: msg({ message: 'an iPad', comment: 'the device of a sample scan, starting a sentence' }),
    device: 'tablet',
    os: 'ios',
  },
  {
    value: 'android-phone',
    label: msg`Android phone`,
    noun: msg({ message: 'an Android phone', comment: 'the device of a sample scan, starting a sentence' }),
    device: 'mobile',
    os: 'android',
  },
  {
    value: 'android-tablet',
    label: msg`Android tablet`,
    noun: msg({ message: 'an Android tablet', comment: 'the device of a sample scan, starting a sentence' }),
    device: 'tablet',
    os: 'android',
  },
  {
    value: 'windows',
    label: msg`Windows computer`,
    noun: msg({ message: 'a Windows computer', comment: 'the device of a sample scan, starting a sentence' }),
    device: 'desktop',
    os: 'windows',
  },
  {
    value: 'mac',
    label: 'Mac (macOS)',
    noun: msg({ message: 'a Mac', comment: 'the device of a sample scan, starting a sentence' }),
    device: 'desktop',
    os: 'macos',
  },
  {
    value: 'linux',
    label: msg`Linux computer`,
    noun: msg({ message: 'a Linux computer', comment: 'the device of a sample scan, starting a sentence' }),
    device: 'desktop',
    os: 'linux',
  },
];

/** A device's label for the select, in the app's language. */
export function scanDeviceLabel(device: ScanDevice): string {
  return typeof device.label === 'string' ? device.label : i18n._(device.label);
}

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

const inactiveWhy: Record<Extract<RedirectDecision, { kind: 'inactive' }>['reason'], MessageDescriptor> = {
  paused: msg`the code is paused`,
  'not-started': msg`the code is not active yet`,
  ended: msg`the code has ended`,
  limit: msg`the scan limit is reached`,
};

// Countries named with "the" in an English sentence ("an iPhone in the United States").
const withThe = new Set('AE BS CC CF CK DO FK FO GB GM KM KY MH MP MV NL PH SB TC UM US VA VG VI'.split(' '));

/** Who scans: the device, where it is and the language its browser asks for, as the sentence's start. */
function whoScans(device: string, countryCode: string | null, languageCode: string | null): string {
  const language = languageCode ? languageName(languageCode) : null;
  if (!countryCode) {
    return language
      ? t({
          message: `${device}, in ${language},`,
          comment: 'Test a scan: who scans ("an iPhone, in French,"), before when and what happens',
        })
      : device;
  }
  const country = countryName(countryCode);
  if (withThe.has(countryCode.toUpperCase())) {
    return language
      ? t({
          message: `${device} in the ${country}, in ${language},`,
          comment:
            'Test a scan: who scans ("an iPhone in the United States, in English,"); English says "the" before some countries',
        })
      : t({
          message: `${device} in the ${country}`,
          comment:
            'Test a scan: who scans ("an iPhone in the United States"); English says "the" before some countries',
        });
  }
  return language
    ? t({
        message: `${device} in ${country}, in ${language},`,
        comment: 'Test a scan: who scans ("an iPhone in France, in French,"), before when and what happens',
      })
    : t({
        message: `${device} in ${country}`,
        comment: 'Test a scan: who scans ("an iPhone in France"), before when and what happens',
      });
}

/** The locale that writes the sample's day of the month ('30 November' in English). */
const dateLocale = (locale: string) => (locale === 'en' ? 'en-GB' : locale);
const monthDayFormats = new Map<string, Intl.DateTimeFormat>();
function monthDay(locale: string, date: Date): string {
  let format = monthDayFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(dateLocale(locale), { day: 'numeric', month: 'long', timeZone: 'UTC' });
    monthDayFormats.set(locale, format);
  }
  return format.format(date);
}

/**
 * The first letter in capitals, where the script has them ("An iPhone …"); a name that starts with a small
 * letter before a capital ("iPhone", in a language with no article) stays as it is written.
 */
const capitalised = (sentence: string) =>
  /^\p{Ll}\p{Lu}/u.test(sentence) ? sentence : sentence.charAt(0).toUpperCase() + sentence.slice(1);

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

  const locale = namesLocale();
  const who = whoScans(i18n._(device.noun), sample.country, sample.language);
  const [hours = '0', minutes = '00'] = sample.time.split(':');
  const time = `${Number(hours)}:${minutes}`;
  const day = weekdayName(wallClock(at, timeZone).day, locale);
  const [y, m, d] = sample.date.split('-').map(Number) as [number, number, number];
  const date = monthDay(locale, new Date(Date.UTC(y, m - 1, d)));
  const scansBefore = sample.scansBefore;
  // English says "scans" for one too ("after 1 earlier scans").
  const when =
    scansBefore > 0
      ? plural(scansBefore, {
          one: `at ${time} on ${day} ${date}, after # earlier scans,`,
          other: `at ${time} on ${day} ${date}, after # earlier scans,`,
        })
      : t({
          message: `at ${time} on ${day} ${date}`,
          comment:
            'Test a scan: when ("at 9:00 on Monday 30 November"); day is the weekday, date the day and month',
        });

  let what: string;
  if (decision.kind === 'inactive') {
    // Refused before any password: the scanner never sees the form.
    const reason = i18n._(inactiveWhy[decision.reason]);
    // src/'s English ('the paused page'), in the app's language.
    const page = translateShared(inactivePageNames[decision.reason]);
    if (options?.fallbackUrl) {
      const fallback = withTracking(options.fallbackUrl, options.utm, false, '');
      what = password
        ? t`goes to the fallback ${fallback} (${reason}, without the password form).`
        : t`goes to the fallback ${fallback} (${reason}).`;
    } else if (options?.inactiveMessage) {
      what = password
        ? t`sees ${page} with your message, without the password form.`
        : t`sees ${page} with your message.`;
    } else {
      what = password ? t`sees ${page}, without the password form.` : t`sees ${page}.`;
    }
  } else {
    const go = decision.kind === 'password' ? decision.next : decision;
    const url =
      destination === null && go.rule === null
        ? t`the code's link (complete the content above)`
        : options
          ? withTracking(go.url, options.utm, false, '')
          : go.url;
    const ruleNumber = go.rule === null ? 0 : go.rule + 1;
    const ruleLabel = go.rule === null ? undefined : options?.rules[go.rule]?.label;
    const why =
      go.rule === null
        ? options && options.rules.length > 0
          ? t`no rule matches: the code’s own link`
          : null
        : ruleLabel
          ? t({
              message: `rule ${ruleNumber}, ${ruleLabel}`,
              comment: 'Test a scan: the rule that decided, and its label',
            })
          : t({ message: `rule ${ruleNumber}`, comment: 'Test a scan: the rule that decided' });
    const target =
      why === null
        ? url
        : t({ message: `${url} (${why})`, comment: 'Test a scan: an address, and why the scan goes there' });
    // The owner's choice (issue 35): while the daily check finds that address down, the fallback instead.
    const fallback =
      options?.fallbackWhenDown && options.fallbackUrl
        ? withTracking(options.fallbackUrl, options.utm, false, '')
        : null;
    if (decision.kind === 'password') {
      what =
        fallback === null
          ? t`first sees the password form; after the right password, it goes to ${target}.`
          : t`first sees the password form; after the right password, it goes to ${target}, or to the fallback ${fallback} while it is down.`;
    } else {
      what =
        fallback === null
          ? t`goes to ${target}.`
          : t`goes to ${target}, or to the fallback ${fallback} while it is down.`;
    }
  }
  const sentence = t({
    message: `${who} ${when} ${what}`,
    comment:
      'Test a scan: the whole sentence, "An iPhone in France, in French," + "at 9:00 on Monday 30 November" + "goes to https://… (rule 1)."; its first letter is capitalised',
  });
  return { sentence: capitalised(sentence), decision };
}
