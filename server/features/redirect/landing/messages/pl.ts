import type { ScanMessages } from './messages.js';

const plural = new Intl.PluralRules('pl');
/** 1 minutę, 2–4 minuty (also 22–24…), 5 minut (also 11–14, 25…): Polish takes the accusative after "za". */
const minutes = (n: number) =>
  `${n} ${{ one: 'minutę', few: 'minuty' }[plural.select(n) as 'one' | 'few'] ?? 'minut'}`;

/** Polish (the scanner addressed without pronouns, in the imperative, as Polish apps do). */
export const pl: ScanMessages = {
  madeWith: 'Utworzono w QR Creator',
  qrCode: 'Kod QR',
  text: { kicker: 'Tekst', heading: 'Wiadomość', call: (number) => `Zadzwoń: ${number}` },
  email: { kicker: 'E-mail', send: 'Wyślij e-mail', subject: 'Temat', message: 'Wiadomość' },
  sms: { kicker: 'SMS', send: 'Wyślij SMS', call: 'Zadzwoń', message: 'Wiadomość' },
  phone: { kicker: 'Telefon', call: 'Zadzwoń' },
  contact: {
    kicker: 'Kontakt',
    save: 'Zapisz kontakt',
    phone: 'Numer telefonu',
    email: 'E-mail',
    website: 'Strona internetowa',
  },
  event: {
    kicker: 'Wydarzenie',
    when: 'Kiedy',
    location: 'Miejsce',
    description: 'Opis',
    addToCalendar: 'Dodaj do kalendarza',
    until: (end) => `Do ${end}`,
  },
  wifi: {
    kicker: 'Sieć Wi-Fi',
    security: 'Zabezpieczenia',
    password: 'Hasło',
    openNetwork: 'Brak (sieć otwarta)',
    passwordNotNeeded: 'Niepotrzebne: sieć jest otwarta',
    noPasswordGiven: 'Nie podano hasła',
    copyPassword: 'Kopiuj hasło',
    copied: 'Skopiowano',
    howToConnect: 'Jak się połączyć',
    stepOpenSettings: 'Otwórz ustawienia Wi-Fi w telefonie lub komputerze.',
    stepPickNetwork: (ssid) => `Wybierz sieć „${ssid}”.`,
    stepOpenNetwork: 'To sieć otwarta: hasło nie jest potrzebne.',
    stepAskOwner: 'Wpisz hasło, jeśli pojawi się prośba (zapytaj o nie właściciela sieci).',
    stepEnterShown: 'Wpisz hasło widoczne powyżej (Kopiuj hasło, a potem wklej).',
  },
  notFound: {
    heading: 'Ten kod QR jest nieaktywny',
    text: 'Link może zawierać literówkę albo właściciel usunął kod.',
  },
  inactive: {
    kicker: 'Kod QR',
    paused: {
      heading: 'Ten kod QR jest wstrzymany',
      text: 'Właściciel tymczasowo go wstrzymał. Spróbuj ponownie później.',
    },
    notStarted: {
      heading: 'Ten kod QR nie jest jeszcze aktywny',
      text: 'Nie został jeszcze uruchomiony. Spróbuj ponownie później.',
    },
    ended: { heading: 'Ten kod QR wygasł', text: 'Nie jest już aktywny.' },
    limit: {
      heading: 'Ten kod QR osiągnął limit skanów',
      text: 'Zeskanowano go już tyle razy, na ile pozwolił właściciel.',
    },
  },
  password: {
    kicker: 'Chroniony link',
    heading: 'Ten kod QR jest chroniony',
    intro: 'Wpisz otrzymane hasło, aby go otworzyć.',
    label: 'Hasło',
    button: 'Otwórz',
    wrong: 'Nieprawidłowe hasło. Spróbuj ponownie.',
    missing: 'Wpisz hasło.',
    throttledHeading: 'Zbyt wiele prób',
    throttled: (n) => `Zbyt wiele nieprawidłowych haseł. Spróbuj ponownie za ${minutes(n)}.`,
    opening: 'Otwieranie…',
    continue: 'Dalej',
  },
};
