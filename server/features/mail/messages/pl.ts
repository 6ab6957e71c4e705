import { formatters } from './format.js';
import type { CheckedUrl, DestinationProblem, InvitedRole, MailMessages } from './messages.js';

const f = formatters('pl');

/**
 * Polish mails: the imperative, as on the scan pages, and "Ty" / "Twój" (capitalised, as Polish letters
 * do) where a pronoun is needed. Past tenses that would show the reader's gender are avoided.
 */

const problemText = (p: DestinationProblem): string => {
  switch (p.kind) {
    case 'http':
      return p.status === 404
        ? 'Zwraca błąd 404'
        : p.status >= 500
          ? `Błąd serwera ${p.status}`
          : `Zwraca kod ${p.status}`;
    case 'dns':
      return 'Nie można znaleźć adresu serwera';
    case 'tls':
      return 'Certyfikat jest nieprawidłowy';
    case 'timeout':
      return 'Nie odpowiada na czas';
    case 'refused':
      return 'Odrzuca połączenie';
    case 'protocol':
      return 'Nie odpowiada jak strona internetowa';
  }
};

/** Inside a sentence, after a colon, Polish goes on in lower case. */
const inSentence = (s: string): string => s.charAt(0).toLocaleLowerCase('pl') + s.slice(1);

const whichUrl = (which: CheckedUrl): string =>
  which.kind === 'rule' ? `Reguła ${which.rule}: adres docelowy` : 'Zapasowy adres URL';

/** Said as "(rola: …)", so the word needs no case ending. */
const roleName: Record<InvitedRole, string> = {
  viewer: 'przeglądający',
  editor: 'edytujący',
  admin: 'administrator',
  owner: 'właściciel',
};

/** "w ciągu" takes the genitive: 1 godziny, 2 godzin, 5 godzin. */
const withinHours = (n: number) => f.plural(n, { one: '1 godziny', other: `${f.count(n)} godzin` });
/** "przez" takes the accusative: 1 godzinę, 2 godziny, 5 godzin. */
const forHours = (n: number) =>
  f.plural(n, {
    one: '1 godzinę',
    few: `${f.count(n)} godziny`,
    many: `${f.count(n)} godzin`,
    other: `${f.count(n)} godziny`,
  });
/** "w ciągu" takes the genitive: 1 dnia, 2 dni, 5 dni. */
const withinDays = (n: number) => f.plural(n, { one: '1 dnia', other: `${f.count(n)} dni` });
/** "przez": 1 dzień, 2 dni, 5 dni. */
const forDays = (n: number) => f.plural(n, { one: '1 dzień', other: `${f.count(n)} dni` });
/** 1 raz, 2 razy, 5 razy. */
const times = (n: number) => `${f.count(n)} ${f.plural(n, { one: 'raz', other: 'razy' })}`;
/** 1 skan, 2 skany, 5 skanów. */
const scansWord = (n: number) => f.plural(n, { one: 'skan', few: 'skany', many: 'skanów', other: 'skanu' });

export const pl: MailMessages = {
  locale: 'pl',
  layout: {
    greeting: (name) => `Cześć, ${name}!`,
    greetingAnyone: 'Dzień dobry!',
    openLink: 'Możesz też otworzyć ten link:',
    footer: 'Ta wiadomość została wysłana przez QR Creator.',
  },

  destinationDown: ({ codeName, team, which, url, problem }) => ({
    subject: `„${codeName}”: ${problem ? problemText(problem) : 'adres docelowy nie działa'}`,
    paragraphs: [
      `${
        which.kind === 'destination'
          ? `Adres docelowy ${team ? 'kodu QR' : 'Twojego kodu QR'} „${codeName}”`
          : `W ${team ? 'kodzie QR' : 'Twoim kodzie QR'} „${codeName}” adres z pola „${whichUrl(which)}” (${url})`
      } dwa razy z rzędu nie zadziałał: ${problem ? inSentence(problemText(problem)) : 'nie działa'}.`,
      `Adres: ${url}`,
      'Wydrukowane kody nadal kierują ludzi pod ten adres. Zmień adres docelowy albo ustaw zapasowy adres URL, na który będą kierowane skany, dopóki adres docelowy nie działa.',
    ],
    action: 'Sprawdź ponownie',
    footer:
      'Ta wiadomość przychodzi tylko raz, gdy któryś z adresów docelowych Twoich kodów przestaje działać.',
  }),

  twoFactorLocked: ({ username, failures, address, minutes }) => ({
    subject: 'Zablokowano logowanie z weryfikacją dwuetapową do Twojego konta QR Creator',
    paragraphs: [
      `Ktoś wpisał prawidłowe hasło do Twojego konta QR Creator „${username}”, a potem ${f.plural(failures, {
        one: '1 nieprawidłowy kod weryfikacyjny',
        few: `${f.count(failures)} nieprawidłowe kody weryfikacyjne`,
        many: `${f.count(failures)} nieprawidłowych kodów weryfikacyjnych`,
        other: `${f.count(failures)} nieprawidłowego kodu weryfikacyjnego`,
      })} (z adresu ${address}). Wpisywanie kodu jest zablokowane na ${f.plural(minutes, {
        one: '1 minutę',
        few: `${f.count(minutes)} minuty`,
        many: `${f.count(minutes)} minut`,
        other: `${f.count(minutes)} minuty`,
      })}.`,
      'Jeśli to nie Ty, ktoś inny zna Twoje hasło: zaloguj się i od razu je zmień. Zmiana hasła wyloguje też wszystkie inne przeglądarki i unieważni wszystkie tokeny API.',
    ],
    action: 'Otwórz QR Creator',
  }),

  passwordReset: ({ username, hours }) => ({
    subject: 'Zresetuj hasło do QR Creator',
    paragraphs: [
      `Ktoś (miejmy nadzieję, że Ty) poprosił o zresetowanie hasła do Twojego konta QR Creator „${username}”. Otwórz link w ciągu ${withinHours(hours)}, aby ustawić nowe hasło.`,
      'Nowe hasło wyloguje wszystkie przeglądarki i unieważni wszystkie tokeny API tego konta.',
    ],
    action: 'Ustaw nowe hasło',
    footer:
      'Link działa tylko raz. Jeśli to nie Ty prosisz o nowe hasło, zignoruj tę wiadomość: hasło pozostanie bez zmian.',
  }),

  passwordChanged: ({ username, how, sessions, tokens }) => ({
    subject: 'Hasło do Twojego konta QR Creator zostało zmienione',
    paragraphs: [
      `Hasło do Twojego konta QR Creator „${username}” ${
        {
          changed: 'zostało zmienione w Twoim profilu',
          reset: 'zostało zresetowane za pomocą linku wysłanego e-mailem',
          admin: 'zostało zresetowane przez administratora',
        }[how]
      }.`,
      `${how === 'changed' ? 'Wszystkie inne przeglądarki zostały wylogowane' : 'Wszystkie przeglądarki zostały wylogowane'} (${f.plural(
        sessions,
        {
          one: '1 sesja',
          few: `${f.count(sessions)} sesje`,
          many: `${f.count(sessions)} sesji`,
          other: `${f.count(sessions)} sesji`,
        },
      )}), a wszystkie tokeny API unieważnione (${f.plural(tokens, {
        one: '1 token',
        few: `${f.count(tokens)} tokeny`,
        many: `${f.count(tokens)} tokenów`,
        other: `${f.count(tokens)} tokena`,
      })}): skrypty potrzebują nowego tokena.`,
      'Jeśli to nie Ty, od razu zresetuj hasło i powiadom administratora.',
    ],
    action: 'Zresetuj hasło',
  }),

  verifyEmail: ({ hours }) => ({
    subject: 'Potwierdź adres e-mail w QR Creator',
    paragraphs: [`Potwierdź swój adres e-mail, otwierając link w ciągu ${withinHours(hours)}.`],
    action: 'Potwierdź adres e-mail',
    footer:
      'Jeśli to nie Ty zakładasz konto QR Creator ani nie zmieniasz jego adresu e-mail, zignoruj tę wiadomość.',
  }),

  newSignIn: ({ username, when, browser, os, address }) => ({
    subject: 'Nowe logowanie do Twojego konta QR Creator',
    paragraphs: [
      `Właśnie zalogowano się na Twoje konto ${username} z przeglądarki lub adresu, z których to konto wcześniej nie korzystało.`,
      `Kiedy: ${when}\nPrzeglądarka: ${browser ?? 'nieznana przeglądarka'} (system: ${os ?? 'nieznany'})\nAdres: ${address}`,
      'Jeśli to Ty, nie musisz nic robić. Jeśli nie, od razu zmień hasło i wyloguj wszystkie inne sesje w sekcji Ustawienia → Bezpieczeństwo.',
    ],
    action: 'Przejrzyj sesje',
    footer:
      'Otrzymujesz tę wiadomość, ponieważ w sekcji Ustawienia → Bezpieczeństwo są włączone alerty logowania.',
  }),

  registrationAttempt: () => ({
    subject: 'Ktoś próbował założyć konto na Twój adres e-mail',
    paragraphs: [
      'Ktoś właśnie próbował założyć konto QR Creator z tym adresem e-mail, który należy już do Twojego konta. Nowe konto nie zostało utworzone.',
      'Jeśli to Ty, po prostu się zaloguj albo zresetuj hasło, jeśli go nie pamiętasz. Jeśli nie, możesz zignorować tę wiadomość.',
    ],
    action: 'Zaloguj się',
  }),

  invitation: ({ inviter, workspace, role, days }) => ({
    subject: `${inviter} zaprasza Cię do przestrzeni roboczej ${workspace} w QR Creator`,
    paragraphs: [
      `${inviter} zaprasza Cię do pracy nad kodami QR w przestrzeni roboczej zespołu „${workspace}” (rola: ${roleName[role]}).`,
      `Zaproszenie jest ważne przez ${forDays(days)}. Zaloguj się lub załóż konto, a potem je zaakceptuj.`,
    ],
    action: 'Otwórz zaproszenie',
    footer: 'Jeśli nie spodziewasz się tego zaproszenia, zignoruj tę wiadomość.',
  }),

  emailChanged: ({ username, newEmail, resetStillHere, days }) => ({
    subject: 'Adres e-mail Twojego konta QR Creator został zmieniony',
    paragraphs: [
      `Adres e-mail Twojego konta QR Creator ${username} został zmieniony na ${newEmail}.`,
      `Jeśli ta zmiana nie pochodzi od Ciebie, otwórz poniższy link w ciągu ${withinDays(days)}: przywróci on ten adres, wyloguje wszystkie przeglądarki i unieważni wszystkie tokeny API tego konta. Następnie ustaw nowe hasło.${resetStillHere ? ' Dopóki nowy adres nie zostanie potwierdzony, linki do resetowania hasła będą nadal przychodzić na ten adres.' : ''}`,
    ],
    action: 'Cofnij tę zmianę',
    footer: 'Jeśli ta zmiana pochodzi od Ciebie, nie musisz nic robić.',
  }),

  testMailFooter: ({ sender }) => `Wiadomość testowa wysłana przez ${sender} z ustawień QR Creator.`,

  scanDigest: ({ total, day, timeZone, sections }) => ({
    subject: `Twoje kody QR zostały wczoraj zeskanowane ${times(total)}`,
    paragraphs: [
      `Skany Twoich kodów QR w dniu ${day} (${timeZone}), bez botów:`,
      ...sections.map((s) => {
        const lines = s.codes.map((c) => `${c.name}: ${f.count(c.scans)} ${scansWord(c.scans)}`);
        return (s.team === null ? lines : [`Zespół ${s.team}:`, ...lines]).join('\n');
      }),
    ],
    action: 'Otwórz statystyki',
    footer:
      'Otrzymujesz to codzienne podsumowanie, ponieważ w sekcji Ustawienia → Powiadomienia są włączone powiadomienia o skanach kodów QR.',
  }),

  scanThreshold: ({ codeName, team, level, scans }) => ({
    subject: `Kod QR „${codeName}” przekroczył ${f.count(level)} ${scansWord(level)}`,
    paragraphs: [
      `${team === null ? `Twój kod QR „${codeName}”` : `Kod QR „${codeName}” zespołu ${team}`} został zeskanowany ${times(scans)} (bez botów).`,
    ],
    action: 'Zobacz szczegóły',
    footer:
      'Otrzymujesz tę wiadomość, ponieważ w sekcji Ustawienia → Powiadomienia są włączone progi skanów.',
  }),

  teamUpgradeRequest: ({ username, team, plan }) => ({
    subject: `Prośba o zmianę planu przestrzeni roboczej zespołu ${team}: ${plan}`,
    paragraphs: [
      `${username} prosi o przeniesienie przestrzeni roboczej zespołu „${team}” na plan ${plan}.`,
      'Ustaw plan zespołu w sekcji Przestrzenie robocze w panelu administracyjnym.',
    ],
    action: 'Otwórz przestrzenie robocze',
  }),

  upgradeRequest: ({ who, plan }) => ({
    subject: `Prośba o zmianę planu: ${who} – plan ${plan}`,
    paragraphs: [
      `${who} prosi o przejście na plan ${plan}.`,
      'Zatwierdź lub odrzuć prośbę w sekcji Prośby o zmianę planu na stronie Subskrypcje.',
    ],
    action: 'Otwórz prośby o zmianę planu',
  }),

  upgradeApproved: ({ plan, until }) => ({
    subject: `Masz teraz plan ${plan}`,
    paragraphs: [
      `Twoja prośba została zatwierdzona przez administratora: Twoje konto ma plan ${plan} do ${until}.`,
    ],
    action: 'Zobacz swój plan',
  }),

  upgradeDeclined: ({ plan }) => ({
    subject: `Twoja prośba o plan ${plan} została odrzucona`,
    paragraphs: [
      `Twoja prośba o plan ${plan} została odrzucona przez administratora. Twój plan pozostaje bez zmian.`,
    ],
    action: 'Zobacz swój plan',
  }),

  webhookDisabled: ({ url, hours }) => ({
    subject: `Webhook wyłączony: ${url}`,
    paragraphs: [
      `Wszystkie dostawy do webhooka ${url} kończyły się niepowodzeniem przez ${forHours(hours)}, więc został on wyłączony, a oczekujące dostawy anulowano.`,
      'Sprawdź, czy adres odpowiada statusem 2xx, a potem ponownie włącz webhook. Dziennik dostaw pokazuje, co odpowiedział odbiorca.',
    ],
    action: 'Otwórz webhook',
    footer: 'Otrzymujesz tę wiadomość, ponieważ masz rolę administratora w tej przestrzeni roboczej.',
  }),
};
