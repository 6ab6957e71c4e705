import type { ScanMessages } from './messages.js';

/** Italian (the scanner addressed as "tu", as Italian apps usually do). */
export const it: ScanMessages = {
  madeWith: 'Creato con QR Creator',
  qrCode: 'Codice QR',
  text: { kicker: 'Testo', heading: 'Messaggio', call: (number) => `Chiama il ${number}` },
  email: { kicker: 'Email', send: 'Invia email', subject: 'Oggetto', message: 'Messaggio' },
  sms: { kicker: 'SMS', send: 'Invia SMS', call: 'Chiama', message: 'Messaggio' },
  phone: { kicker: 'Telefono', call: 'Chiama' },
  contact: {
    kicker: 'Contatto',
    save: 'Salva contatto',
    phone: 'Numero di telefono',
    email: 'Email',
    website: 'Sito web',
  },
  event: {
    kicker: 'Evento',
    when: 'Quando',
    location: 'Luogo',
    description: 'Descrizione',
    addToCalendar: 'Aggiungi al calendario',
    until: (end) => `Fino a ${end}`,
  },
  wifi: {
    kicker: 'Rete Wi-Fi',
    security: 'Sicurezza',
    password: 'Password',
    openNetwork: 'Nessuna (rete aperta)',
    passwordNotNeeded: 'Non serve: la rete è aperta',
    noPasswordGiven: 'Nessuna password indicata',
    copyPassword: 'Copia password',
    copied: 'Copiata',
    howToConnect: 'Come connettersi',
    stepOpenSettings: 'Apri le impostazioni Wi-Fi del telefono o del computer.',
    stepPickNetwork: (ssid) => `Scegli la rete «${ssid}».`,
    stepOpenNetwork: 'È una rete aperta: non serve nessuna password.',
    stepAskOwner: 'Inserisci la password se richiesta (chiedila a chi gestisce la rete).',
    stepEnterShown: 'Inserisci la password mostrata sopra (tocca «Copia password», poi incollala).',
  },
  notFound: {
    heading: 'Questo codice QR non è attivo',
    text: 'Il link potrebbe essere scritto male, oppure il codice è stato eliminato dal proprietario.',
  },
  inactive: {
    kicker: 'Codice QR',
    paused: {
      heading: 'Questo codice QR è in pausa',
      text: 'Il proprietario l’ha messo in pausa per ora. Riprova più tardi.',
    },
    notStarted: {
      heading: 'Questo codice QR non è ancora attivo',
      text: 'Non è ancora iniziato. Riprova più tardi.',
    },
    ended: { heading: 'Questo codice QR è scaduto', text: 'Non è più attivo.' },
    limit: {
      heading: 'Questo codice QR ha raggiunto il limite di scansioni',
      text: 'È stato scansionato tutte le volte consentite dal proprietario.',
    },
  },
  password: {
    kicker: 'Link protetto',
    heading: 'Questo codice QR è protetto',
    intro: 'Inserisci la password che ti è stata data per aprirlo.',
    label: 'Password',
    button: 'Apri',
    wrong: 'Password errata. Riprova.',
    missing: 'Inserisci la password.',
    throttledHeading: 'Troppi tentativi',
    throttled: (minutes) =>
      `Troppe password errate. Riprova tra ${minutes} ${minutes === 1 ? 'minuto' : 'minuti'}.`,
    opening: 'Apertura in corso…',
    continue: 'Continua',
  },
};
