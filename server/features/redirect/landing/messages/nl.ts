import type { ScanMessages } from './messages.js';

/** Dutch (the scanner addressed as "je", as Dutch apps usually do). */
export const nl: ScanMessages = {
  madeWith: 'Gemaakt met QR Creator',
  qrCode: 'QR-code',
  text: { kicker: 'Tekst', heading: 'Bericht', call: (number) => `${number} bellen` },
  email: { kicker: 'E-mail', send: 'E-mail sturen', subject: 'Onderwerp', message: 'Bericht' },
  sms: { kicker: 'Sms', send: 'Sms sturen', call: 'Bellen', message: 'Bericht' },
  phone: { kicker: 'Telefoon', call: 'Bellen' },
  contact: {
    kicker: 'Contact',
    save: 'Contact opslaan',
    phone: 'Telefoonnummer',
    email: 'E-mail',
    website: 'Website',
  },
  event: {
    kicker: 'Evenement',
    when: 'Wanneer',
    location: 'Locatie',
    description: 'Beschrijving',
    addToCalendar: 'Toevoegen aan agenda',
    until: (end) => `Tot ${end}`,
  },
  wifi: {
    kicker: 'Wifi-netwerk',
    security: 'Beveiliging',
    password: 'Wachtwoord',
    openNetwork: 'Geen (open netwerk)',
    passwordNotNeeded: 'Niet nodig: het netwerk is open',
    noPasswordGiven: 'Geen wachtwoord opgegeven',
    copyPassword: 'Wachtwoord kopiëren',
    copied: 'Gekopieerd',
    howToConnect: 'Zo maak je verbinding',
    stepOpenSettings: 'Open de wifi-instellingen van je telefoon of computer.',
    stepPickNetwork: (ssid) => `Kies het netwerk ‘${ssid}’.`,
    stepOpenNetwork: 'Het is een open netwerk: je hebt geen wachtwoord nodig.',
    stepAskOwner:
      'Vul het wachtwoord in als erom wordt gevraagd (vraag het aan de eigenaar van het netwerk).',
    stepEnterShown:
      'Vul het wachtwoord in dat hierboven staat (tik op ‘Wachtwoord kopiëren’ en plak het dan).',
  },
  notFound: {
    heading: 'Deze QR-code is niet actief',
    text: 'Misschien is de link verkeerd getypt, of heeft de eigenaar de code verwijderd.',
  },
  inactive: {
    kicker: 'QR-code',
    paused: {
      heading: 'Deze QR-code is gepauzeerd',
      text: 'De eigenaar heeft hem voorlopig gepauzeerd. Probeer het later opnieuw.',
    },
    notStarted: {
      heading: 'Deze QR-code is nog niet actief',
      text: 'Hij is nog niet begonnen. Probeer het later opnieuw.',
    },
    ended: { heading: 'Deze QR-code is verlopen', text: 'Hij is niet meer actief.' },
    limit: {
      heading: 'Deze QR-code heeft zijn scanlimiet bereikt',
      text: 'Hij is zo vaak gescand als de eigenaar toestond.',
    },
  },
  password: {
    kicker: 'Beveiligde link',
    heading: 'Deze QR-code is beveiligd',
    intro: 'Vul het wachtwoord in dat je hebt gekregen om hem te openen.',
    label: 'Wachtwoord',
    button: 'Openen',
    wrong: 'Onjuist wachtwoord. Probeer het opnieuw.',
    missing: 'Vul het wachtwoord in.',
    throttledHeading: 'Te veel pogingen',
    throttled: (minutes) =>
      `Te vaak een onjuist wachtwoord. Probeer het over ${minutes} ${minutes === 1 ? 'minuut' : 'minuten'} opnieuw.`,
    opening: 'Bezig met openen…',
    continue: 'Doorgaan',
  },
};
