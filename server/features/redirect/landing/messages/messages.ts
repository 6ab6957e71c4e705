/**
 * Everything a scanner reads on the short link's own pages (the landing pages, the password form, the
 * paused, limit and not-found pages), in one language. Each language is a file of its own beside this one
 * (en.ts is the source); the type makes a missing key or a placeholder of the wrong kind a compile error.
 * Placeholders are function parameters: a translation puts them where its grammar wants them.
 */
export interface ScanMessages {
  /** The page's footer. */
  madeWith: string;
  /** A code of a type without a page of its own. */
  qrCode: string;

  text: { kicker: string; heading: string; call: (number: string) => string };
  email: { kicker: string; send: string; subject: string; message: string };
  sms: { kicker: string; send: string; call: string; message: string };
  phone: { kicker: string; call: string };
  contact: { kicker: string; save: string; phone: string; email: string; website: string };
  event: {
    kicker: string;
    when: string;
    location: string;
    description: string;
    addToCalendar: string;
    /** An event with an end and no readable start: 'Until Thu, 24 Dec 2026, 21:00 UTC'. */
    until: (end: string) => string;
  };
  wifi: {
    kicker: string;
    security: string;
    password: string;
    /** The security of an open network. */
    openNetwork: string;
    passwordNotNeeded: string;
    noPasswordGiven: string;
    copyPassword: string;
    copied: string;
    howToConnect: string;
    stepOpenSettings: string;
    stepPickNetwork: (ssid: string) => string;
    stepOpenNetwork: string;
    stepAskOwner: string;
    stepEnterShown: string;
  };
  notFound: { heading: string; text: string };
  inactive: {
    kicker: string;
    paused: { heading: string; text: string };
    notStarted: { heading: string; text: string };
    ended: { heading: string; text: string };
    limit: { heading: string; text: string };
  };
  password: {
    kicker: string;
    heading: string;
    intro: string;
    label: string;
    button: string;
    wrong: string;
    missing: string;
    throttledHeading: string;
    /** Too many wrong passwords: when to try again, in whole minutes (1 or more). */
    throttled: (minutes: number) => string;
    opening: string;
    continue: string;
  };
}
