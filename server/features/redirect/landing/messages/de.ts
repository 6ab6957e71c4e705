import type { ScanMessages } from './messages.js';

/** German (informal "du" is common in apps, but strangers scanning a code are addressed formally: "Sie"). */
export const de: ScanMessages = {
  madeWith: 'Erstellt mit QR Creator',
  qrCode: 'QR-Code',
  text: { kicker: 'Text', heading: 'Nachricht', call: (number) => `${number} anrufen` },
  email: { kicker: 'E-Mail', send: 'E-Mail senden', subject: 'Betreff', message: 'Nachricht' },
  sms: { kicker: 'SMS', send: 'SMS senden', call: 'Anrufen', message: 'Nachricht' },
  phone: { kicker: 'Telefon', call: 'Anrufen' },
  contact: {
    kicker: 'Kontakt',
    save: 'Kontakt speichern',
    phone: 'Telefonnummer',
    email: 'E-Mail',
    website: 'Website',
  },
  event: {
    kicker: 'Termin',
    when: 'Wann',
    location: 'Ort',
    description: 'Beschreibung',
    addToCalendar: 'Zum Kalender hinzufügen',
    until: (end) => `Bis ${end}`,
  },
  wifi: {
    kicker: 'WLAN',
    security: 'Sicherheit',
    password: 'Passwort',
    openNetwork: 'Keine (offenes Netzwerk)',
    passwordNotNeeded: 'Nicht nötig: Das Netzwerk ist offen',
    noPasswordGiven: 'Kein Passwort angegeben',
    copyPassword: 'Passwort kopieren',
    copied: 'Kopiert',
    howToConnect: 'So verbinden Sie sich',
    stepOpenSettings: 'Öffnen Sie die WLAN-Einstellungen Ihres Smartphones oder Computers.',
    stepPickNetwork: (ssid) => `Wählen Sie das Netzwerk „${ssid}“.`,
    stepOpenNetwork: 'Das Netzwerk ist offen: Sie brauchen kein Passwort.',
    stepAskOwner:
      'Geben Sie das Passwort ein, wenn Sie dazu aufgefordert werden (fragen Sie den Betreiber des Netzwerks).',
    stepEnterShown:
      'Geben Sie das oben angezeigte Passwort ein (tippen Sie auf „Passwort kopieren“ und fügen Sie es dann ein).',
  },
  notFound: {
    heading: 'Dieser QR-Code ist nicht aktiv',
    text: 'Der Link ist vielleicht falsch geschrieben, oder der Code wurde von seinem Inhaber gelöscht.',
  },
  inactive: {
    kicker: 'QR-Code',
    paused: {
      heading: 'Dieser QR-Code ist pausiert',
      text: 'Sein Inhaber hat ihn vorübergehend pausiert. Bitte versuchen Sie es später noch einmal.',
    },
    notStarted: {
      heading: 'Dieser QR-Code ist noch nicht aktiv',
      text: 'Er ist noch nicht gestartet. Bitte versuchen Sie es später noch einmal.',
    },
    ended: { heading: 'Dieser QR-Code ist abgelaufen', text: 'Er ist nicht mehr aktiv.' },
    limit: {
      heading: 'Dieser QR-Code hat sein Scanlimit erreicht',
      text: 'Er wurde so oft gescannt, wie sein Inhaber es erlaubt hat.',
    },
  },
  password: {
    kicker: 'Geschützter Link',
    heading: 'Dieser QR-Code ist geschützt',
    intro: 'Geben Sie das Passwort ein, das Sie erhalten haben, um ihn zu öffnen.',
    label: 'Passwort',
    button: 'Öffnen',
    wrong: 'Falsches Passwort. Bitte versuchen Sie es erneut.',
    missing: 'Geben Sie das Passwort ein.',
    throttledHeading: 'Zu viele Versuche',
    throttled: (minutes) =>
      `Zu viele falsche Passwörter. Bitte versuchen Sie es in ${minutes} ${minutes === 1 ? 'Minute' : 'Minuten'} erneut.`,
    opening: 'Wird geöffnet …',
    continue: 'Weiter',
  },
};
