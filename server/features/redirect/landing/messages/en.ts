import type { ScanMessages } from './messages.js';

/** English: the source every other language translates (the spec's words). */
export const en: ScanMessages = {
  madeWith: 'Made with QR Creator',
  qrCode: 'QR code',
  text: { kicker: 'Text', heading: 'Message', call: (number) => `Call ${number}` },
  email: { kicker: 'Email', send: 'Send email', subject: 'Subject', message: 'Message' },
  sms: { kicker: 'SMS', send: 'Send SMS', call: 'Call', message: 'Message' },
  phone: { kicker: 'Phone', call: 'Call' },
  contact: {
    kicker: 'Contact',
    save: 'Save contact',
    phone: 'Phone number',
    email: 'Email',
    website: 'Website',
  },
  event: {
    kicker: 'Event',
    when: 'When',
    location: 'Location',
    description: 'Description',
    addToCalendar: 'Add to calendar',
    until: (end) => `Until ${end}`,
  },
  wifi: {
    kicker: 'Wi-Fi network',
    security: 'Security',
    password: 'Password',
    openNetwork: 'None (open network)',
    passwordNotNeeded: 'Not needed: the network is open',
    noPasswordGiven: 'No password given',
    copyPassword: 'Copy password',
    copied: 'Copied',
    howToConnect: 'How to connect',
    stepOpenSettings: 'Open the Wi-Fi settings of your phone or computer.',
    stepPickNetwork: (ssid) => `Pick the network “${ssid}”.`,
    stepOpenNetwork: 'It is an open network: no password is needed.',
    stepAskOwner: 'Enter the password if asked (ask the owner of the network).',
    stepEnterShown: 'Enter the password shown above (Copy password, then paste it).',
  },
  notFound: {
    heading: 'This QR code is not active',
    text: 'The link may be mistyped, or the code was deleted by its owner.',
  },
  inactive: {
    kicker: 'QR code',
    paused: {
      heading: 'This QR code is paused',
      text: 'Its owner has paused it for now. Please try again later.',
    },
    notStarted: {
      heading: 'This QR code is not active yet',
      text: 'It has not started yet. Please try again later.',
    },
    ended: { heading: 'This QR code has ended', text: 'It is no longer active.' },
    limit: {
      heading: 'This QR code has reached its scan limit',
      text: 'It has been scanned as many times as its owner allowed.',
    },
  },
  password: {
    kicker: 'Protected link',
    heading: 'This QR code is protected',
    intro: 'Enter the password you were given to open it.',
    label: 'Password',
    button: 'Open',
    wrong: 'Wrong password. Try again.',
    missing: 'Enter the password.',
    throttledHeading: 'Too many tries',
    throttled: (minutes) =>
      `Too many wrong passwords. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    opening: 'Opening…',
    continue: 'Continue',
  },
};
