import { formatters } from './format.js';
import type { CheckedUrl, DestinationProblem, InvitedRole, MailMessages } from './messages.js';

const f = formatters('de');

const problemText = (p: DestinationProblem): string => {
  switch (p.kind) {
    case 'http':
      return p.status === 404
        ? 'Die Seite wurde nicht gefunden (404)'
        : p.status >= 500
          ? `Serverfehler ${p.status}`
          : `Die Seite antwortet mit Status ${p.status}`;
    case 'dns':
      return 'Die Adresse lässt sich nicht auflösen';
    case 'tls':
      return 'Das Zertifikat ist ungültig';
    case 'timeout':
      return 'Der Server antwortet nicht rechtzeitig';
    case 'refused':
      return 'Der Server verweigert die Verbindung';
    case 'protocol':
      return 'Der Server antwortet nicht mit einer Webseite';
  }
};

const whichUrl = (which: CheckedUrl): string =>
  which.kind === 'rule' ? `Die Ziel-URL von Regel ${which.rule}` : 'Die Fallback-URL';

const roleName: Record<InvitedRole, string> = {
  viewer: 'Betrachter',
  editor: 'Bearbeiter',
  admin: 'Admin',
  owner: 'Inhaber',
};

/** German (the user addressed formally, "Sie", as German account mails do; quotes as „…“). */
export const de: MailMessages = {
  locale: 'de',
  layout: {
    greeting: (name) => `Hallo ${name},`,
    greetingAnyone: 'Hallo,',
    openLink: 'Oder öffnen Sie diesen Link:',
    footer: 'Diese Nachricht wurde von QR Creator gesendet.',
  },

  destinationDown: ({ codeName, team, which, url, problem }) => ({
    subject: `„${codeName}“: ${problem ? problemText(problem) : 'Die Ziel-URL funktioniert nicht'}`,
    paragraphs: [
      `${which.kind === 'destination' ? 'Die Ziel-URL' : `${whichUrl(which)} (${url})`} ${team ? 'des' : 'Ihres'} QR-Codes „${codeName}“ hat bei zwei Prüfungen in Folge nicht funktioniert${problem ? `: ${problemText(problem)}` : ''}.`,
      `Adresse: ${url}`,
      'Gedruckte Codes leiten weiterhin dorthin. Ändern Sie die Ziel-URL oder legen Sie eine Fallback-URL fest, die bei Scans verwendet wird, solange die Ziel-URL ausfällt.',
    ],
    action: 'Erneut prüfen',
    footer: 'Sie erhalten diese E-Mail einmal, wann immer eine Ziel-URL Ihrer Codes nicht mehr funktioniert.',
  }),

  twoFactorLocked: ({ username, failures, address, minutes }) => ({
    subject: 'Zwei-Faktor-Anmeldung für Ihr Konto bei QR Creator gesperrt',
    paragraphs: [
      `Jemand hat das richtige Passwort Ihres Kontos „${username}“ bei QR Creator eingegeben und danach ${f.plural(failures, { one: `${f.count(failures)} falschen Zwei-Faktor-Code`, other: `${f.count(failures)} falsche Zwei-Faktor-Codes` })} (von ${address} aus). Die Code-Eingabe ist für ${f.plural(minutes, { one: `${f.count(minutes)} Minute`, other: `${f.count(minutes)} Minuten` })} gesperrt.`,
      'Falls Sie das nicht waren, kennt jemand anderes Ihr Passwort: Melden Sie sich an und ändern Sie es sofort. Dadurch werden außerdem alle anderen Browser abgemeldet und alle API-Tokens widerrufen.',
    ],
    action: 'QR Creator öffnen',
  }),

  passwordReset: ({ username, hours }) => ({
    subject: 'Passwort für QR Creator zurücksetzen',
    paragraphs: [
      `Jemand (hoffentlich Sie) möchte das Passwort Ihres Kontos „${username}“ bei QR Creator zurücksetzen. Öffnen Sie den Link innerhalb von ${f.plural(hours, { one: `${f.count(hours)} Stunde`, other: `${f.count(hours)} Stunden` })} und wählen Sie ein neues Passwort.`,
      'Mit einem neuen Passwort werden alle Browser abgemeldet und alle API-Tokens des Kontos widerrufen.',
    ],
    action: 'Neues Passwort wählen',
    footer:
      'Der Link funktioniert nur einmal. Falls Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.',
  }),

  passwordChanged: ({ username, how, sessions, tokens }) => ({
    subject: 'Ihr Passwort für QR Creator wurde geändert',
    paragraphs: [
      `Das Passwort Ihres Kontos „${username}“ bei QR Creator ${
        {
          changed: 'wurde in Ihrem Profil geändert',
          reset: 'wurde über einen Link zurückgesetzt, den Sie per E-Mail erhalten haben',
          admin: 'wurde von einem Administrator zurückgesetzt',
        }[how]
      }.`,
      `${how === 'changed' ? 'Alle anderen Browser wurden' : 'Alle Browser wurden'} abgemeldet (${f.plural(sessions, { one: `${f.count(sessions)} Sitzung`, other: `${f.count(sessions)} Sitzungen` })}) und alle API-Tokens widerrufen (${f.plural(tokens, { one: `${f.count(tokens)} Token`, other: `${f.count(tokens)} Tokens` })}): Skripte benötigen ein neues Token.`,
      'Falls Sie das nicht waren, setzen Sie Ihr Passwort sofort zurück und informieren Sie Ihren Administrator.',
    ],
    action: 'Passwort zurücksetzen',
  }),

  verifyEmail: ({ hours }) => ({
    subject: 'Bestätigen Sie Ihre E-Mail-Adresse für QR Creator',
    paragraphs: [
      `Bitte bestätigen Sie Ihre E-Mail-Adresse, indem Sie den Link innerhalb von ${f.plural(hours, { one: `${f.count(hours)} Stunde`, other: `${f.count(hours)} Stunden` })} öffnen.`,
    ],
    action: 'E-Mail-Adresse bestätigen',
    footer:
      'Falls Sie kein Konto bei QR Creator erstellt oder dessen Adresse nicht geändert haben, ignorieren Sie diese E-Mail.',
  }),

  newSignIn: ({ username, when, browser, os, address }) => ({
    subject: 'Neue Anmeldung in Ihrem Konto bei QR Creator',
    paragraphs: [
      `In Ihrem Konto ${username} hat gerade eine Anmeldung von einem Browser oder einer Adresse stattgefunden, die bisher nicht dafür verwendet wurden.`,
      `Zeitpunkt: ${when}\nBrowser: ${browser ?? 'Unbekannter Browser'} unter ${os ?? 'unbekanntem Betriebssystem'}\nAdresse: ${address}`,
      'Wenn Sie das waren, ist nichts weiter zu tun. Andernfalls ändern Sie jetzt Ihr Passwort und melden Sie unter Einstellungen → Sicherheit alle anderen Sitzungen ab.',
    ],
    action: 'Sitzungen überprüfen',
    footer:
      'Sie erhalten diese E-Mail, weil unter Einstellungen → Sicherheit Benachrichtigungen bei neuen Anmeldungen aktiviert sind.',
  }),

  registrationAttempt: () => ({
    subject: 'Jemand wollte sich mit Ihrer Adresse registrieren',
    paragraphs: [
      'Jemand hat gerade versucht, mit dieser E-Mail-Adresse ein Konto bei QR Creator zu erstellen. Die Adresse gehört bereits zu Ihrem Konto, daher wurde kein neues Konto erstellt.',
      'Wenn Sie das waren, melden Sie sich stattdessen an, oder setzen Sie Ihr Passwort zurück, falls Sie es vergessen haben. Andernfalls können Sie diese E-Mail ignorieren.',
    ],
    action: 'Anmelden',
  }),

  invitation: ({ inviter, workspace, role, days }) => ({
    subject: `${inviter} hat Sie zu ${workspace} bei QR Creator eingeladen`,
    paragraphs: [
      `${inviter} hat Sie eingeladen, als ${roleName[role]} an den QR-Codes des Team-Arbeitsbereichs „${workspace}“ mitzuarbeiten.`,
      `Die Einladung ist ${f.plural(days, { one: `${f.count(days)} Tag`, other: `${f.count(days)} Tage` })} gültig. Melden Sie sich an oder erstellen Sie ein Konto und nehmen Sie die Einladung dann an.`,
    ],
    action: 'Einladung öffnen',
    footer: 'Falls Sie diese Einladung nicht erwartet haben, ignorieren Sie diese E-Mail.',
  }),

  emailChanged: ({ username, newEmail, resetStillHere, days }) => ({
    subject: 'Ihre E-Mail-Adresse bei QR Creator wurde geändert',
    paragraphs: [
      `Die E-Mail-Adresse Ihres Kontos ${username} bei QR Creator wurde in ${newEmail} geändert.`,
      `Falls Sie diese Änderung nicht vorgenommen haben, öffnen Sie innerhalb von ${f.plural(days, { one: `${f.count(days)} Tag`, other: `${f.count(days)} Tagen` })} den Link unten: Er stellt diese Adresse wieder her, meldet alle Browser ab und widerruft alle API-Tokens des Kontos. Wählen Sie danach ein neues Passwort.${resetStillHere ? ' Bis die neue Adresse bestätigt ist, kommen Links zum Zurücksetzen des Passworts weiterhin an diese Adresse.' : ''}`,
    ],
    action: 'Änderung rückgängig machen',
    footer: 'Wenn Sie die Änderung selbst vorgenommen haben, ist nichts weiter zu tun.',
  }),

  testMailFooter: ({ sender }) =>
    `Eine Testnachricht, gesendet von ${sender} aus den Einstellungen von QR Creator.`,

  scanDigest: ({ total, day, timeZone, sections }) => ({
    subject: `Ihre QR-Codes wurden gestern ${f.count(total)}-mal gescannt`,
    paragraphs: [
      `Scans Ihrer QR-Codes am ${day} (${timeZone}), ohne Bots:`,
      ...sections.map((s) => {
        const lines = s.codes.map(
          (c) => `${c.name}: ${f.count(c.scans)} ${f.plural(c.scans, { one: 'Scan', other: 'Scans' })}`,
        );
        return (s.team === null ? lines : [`Team ${s.team}:`, ...lines]).join('\n');
      }),
    ],
    action: 'Statistiken öffnen',
    footer:
      'Sie erhalten diese tägliche Zusammenfassung, weil unter Einstellungen → Benachrichtigungen „Scans von QR-Codes“ aktiviert ist.',
  }),

  scanThreshold: ({ codeName, team, level, scans }) => ({
    subject: `„${codeName}“ hat ${f.count(level)} ${f.plural(level, { one: 'Scan', other: 'Scans' })} überschritten`,
    paragraphs: [
      `${team === null ? `Ihr QR-Code „${codeName}“` : `Der QR-Code „${codeName}“ des Teams ${team}`} wurde ${f.count(scans)}-mal gescannt (ohne Bots).`,
    ],
    action: 'Details ansehen',
    footer:
      'Sie erhalten diese E-Mail, weil unter Einstellungen → Benachrichtigungen „Scan-Schwellenwerte“ aktiviert ist.',
  }),

  teamUpgradeRequest: ({ username, team, plan }) => ({
    subject: `Upgrade-Anfrage für den Team-Arbeitsbereich ${team}: ${plan}`,
    paragraphs: [
      `${username} möchte den Team-Arbeitsbereich „${team}“ auf den Tarif ${plan} umstellen.`,
      'Legen Sie den Tarif des Teams im Administrationsbereich unter „Arbeitsbereiche“ fest.',
    ],
    action: 'Arbeitsbereiche öffnen',
  }),

  upgradeRequest: ({ who, plan }) => ({
    subject: `Upgrade-Anfrage von ${who}: ${plan}`,
    paragraphs: [
      `${who} möchte auf den Tarif ${plan} wechseln.`,
      'Sie können die Anfrage auf der Seite „Abonnements“ unter „Upgrade-Anfragen“ genehmigen oder ablehnen.',
    ],
    action: 'Upgrade-Anfragen öffnen',
  }),

  upgradeApproved: ({ plan, until }) => ({
    subject: `Sie nutzen jetzt den Tarif ${plan}`,
    paragraphs: [
      `Ein Administrator hat Ihre Anfrage genehmigt: Ihr Konto nutzt bis zum ${until} den Tarif ${plan}.`,
    ],
    action: 'Ihren Tarif ansehen',
  }),

  upgradeDeclined: ({ plan }) => ({
    subject: `Ihre Anfrage für den Tarif ${plan} wurde abgelehnt`,
    paragraphs: [
      `Ein Administrator hat Ihre Anfrage für den Tarif ${plan} abgelehnt. Ihr Tarif bleibt unverändert.`,
    ],
    action: 'Ihren Tarif ansehen',
  }),

  webhookDisabled: ({ url, hours }) => ({
    subject: `Webhook deaktiviert: ${url}`,
    paragraphs: [
      `Alle Zustellungen an den Webhook ${url} sind ${f.plural(hours, { one: `${f.count(hours)} Stunde`, other: `${f.count(hours)} Stunden` })} lang fehlgeschlagen. Er wurde deshalb deaktiviert, und seine ausstehenden Zustellungen wurden verworfen.`,
      'Prüfen Sie, ob die Adresse mit einem 2xx-Status antwortet, und aktivieren Sie den Webhook dann wieder. Im Zustellprotokoll sehen Sie, was der Empfänger geantwortet hat.',
    ],
    action: 'Webhook öffnen',
    footer: 'Sie erhalten diese E-Mail, weil Sie Admin dieses Arbeitsbereichs sind.',
  }),
};
