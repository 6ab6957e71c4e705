import { formatters } from './format.js';
import type { CheckedUrl, DestinationProblem, InvitedRole, MailMessages } from './messages.js';

const f = formatters('nl');

/** Dutch mails: the user addressed as "je", as on the scan pages and in Dutch apps. */

const problemText = (p: DestinationProblem): string => {
  switch (p.kind) {
    case 'http':
      return p.status === 404
        ? 'Geeft een 404-fout'
        : p.status >= 500
          ? `Serverfout ${p.status}`
          : `Geeft statuscode ${p.status}`;
    case 'dns':
      return 'De server is niet te vinden';
    case 'tls':
      return 'Het certificaat is ongeldig';
    case 'timeout':
      return 'Reageert niet op tijd';
    case 'refused':
      return 'Weigert de verbinding';
    case 'protocol':
      return 'Reageert niet als een webpagina';
  }
};

/** Inside a sentence, after a colon, Dutch goes on in lower case. */
const inSentence = (s: string): string => s.charAt(0).toLocaleLowerCase('nl') + s.slice(1);

const whichUrl = (which: CheckedUrl): string =>
  which.kind === 'rule' ? `Regel ${which.rule}: bestemming` : 'Reserve-URL';

const roleName: Record<InvitedRole, string> = {
  viewer: 'lezer',
  editor: 'bewerker',
  admin: 'beheerder',
  owner: 'eigenaar',
};

/** Dutch says "1 uur" and "24 uur" alike. */
const hours = (n: number) => `${f.count(n)} uur`;
const days = (n: number) => f.plural(n, { one: '1 dag', other: `${f.count(n)} dagen` });

export const nl: MailMessages = {
  locale: 'nl',
  layout: {
    greeting: (name) => `Hallo ${name},`,
    greetingAnyone: 'Hallo,',
    openLink: 'Of open deze link:',
    footer: 'Dit bericht is verstuurd door QR Creator.',
  },

  destinationDown: ({ codeName, team, which, url, problem }) => ({
    subject: `‘${codeName}’: ${problem ? problemText(problem) : 'de bestemming werkt niet'}`,
    paragraphs: [
      `${which.kind === 'destination' ? 'De bestemming' : `Het adres onder ‘${whichUrl(which)}’ (${url})`} van ${team ? 'de' : 'je'} QR-code ‘${codeName}’ werkte twee keer achter elkaar niet: ${problem ? inSentence(problemText(problem)) : 'het werkt niet'}.`,
      `Adres: ${url}`,
      'Geprinte codes sturen mensen er nog steeds naartoe. Wijzig de bestemming, of stel een reserve-URL in die scans gebruiken zolang de bestemming niet werkt.',
    ],
    action: 'Opnieuw controleren',
    footer: 'Je krijgt deze e-mail één keer zodra een bestemming van je codes niet meer werkt.',
  }),

  twoFactorLocked: ({ username, failures, address, minutes }) => ({
    subject: 'Inloggen met tweestapsverificatie bij je QR Creator-account is geblokkeerd',
    paragraphs: [
      `Iemand heeft het juiste wachtwoord van je QR Creator-account ‘${username}’ ingevoerd en daarna ${f.plural(failures, { one: '1 onjuiste verificatiecode', other: `${f.count(failures)} onjuiste verificatiecodes` })} (vanaf ${address}). De stap met de verificatiecode is ${f.plural(minutes, { one: '1 minuut', other: `${f.count(minutes)} minuten` })} geblokkeerd.`,
      'Was jij dit niet, dan kent iemand anders je wachtwoord: log in en wijzig het meteen. Daarmee worden ook alle andere browsers uitgelogd en alle API-tokens ingetrokken.',
    ],
    action: 'QR Creator openen',
  }),

  passwordReset: ({ username, hours: h }) => ({
    subject: 'Stel je wachtwoord voor QR Creator opnieuw in',
    paragraphs: [
      `Iemand (hopelijk jij) heeft gevraagd om het wachtwoord van je QR Creator-account ‘${username}’ opnieuw in te stellen. Open de link binnen ${hours(h)} om een nieuw wachtwoord te kiezen.`,
      'Met een nieuw wachtwoord worden alle browsers uitgelogd en alle API-tokens van het account ingetrokken.',
    ],
    action: 'Nieuw wachtwoord kiezen',
    footer:
      'De link werkt één keer. Heb je dit niet aangevraagd, negeer dan dit bericht: je wachtwoord blijft zoals het is.',
  }),

  passwordChanged: ({ username, how, sessions, tokens }) => ({
    subject: 'Het wachtwoord van je QR Creator-account is gewijzigd',
    paragraphs: [
      `Het wachtwoord van je QR Creator-account ‘${username}’ ${
        {
          changed: 'is gewijzigd via je profiel',
          reset: 'is opnieuw ingesteld met een link die je per e-mail kreeg',
          admin: 'is opnieuw ingesteld door een beheerder',
        }[how]
      }.`,
      `${how === 'changed' ? 'Alle andere browsers zijn' : 'Alle browsers zijn'} uitgelogd (${f.plural(sessions, { one: '1 sessie', other: `${f.count(sessions)} sessies` })}) en alle API-tokens zijn ingetrokken (${f.plural(tokens, { one: '1 token', other: `${f.count(tokens)} tokens` })}): scripts hebben een nieuw token nodig.`,
      'Heb je dit niet zelf gedaan, stel dan meteen je wachtwoord opnieuw in en laat het je beheerder weten.',
    ],
    action: 'Wachtwoord opnieuw instellen',
  }),

  verifyEmail: ({ hours: h }) => ({
    subject: 'Bevestig je e-mailadres voor QR Creator',
    paragraphs: [`Bevestig je e-mailadres door binnen ${hours(h)} de link te openen.`],
    action: 'E-mailadres bevestigen',
    footer:
      'Heb je geen QR Creator-account aangemaakt en ook het e-mailadres ervan niet gewijzigd, negeer dan dit bericht.',
  }),

  newSignIn: ({ username, when, browser, os, address }) => ({
    subject: 'Nieuwe login op je QR Creator-account',
    paragraphs: [
      `Er is zojuist ingelogd op je account ${username} vanaf een browser of adres dat nog niet eerder voor dit account is gebruikt.`,
      `Wanneer: ${when}\nBrowser: ${browser ?? 'Onbekende browser'} op ${os ?? 'onbekend besturingssysteem'}\nAdres: ${address}`,
      'Was jij dit, dan hoef je niets te doen. Zo niet, wijzig dan meteen je wachtwoord en log alle andere sessies uit via Instellingen → Beveiliging.',
    ],
    action: 'Je sessies bekijken',
    footer: 'Je krijgt deze e-mail omdat inlogmeldingen aanstaan in Instellingen → Beveiliging.',
  }),

  registrationAttempt: () => ({
    subject: 'Iemand probeerde zich te registreren met je e-mailadres',
    paragraphs: [
      'Iemand probeerde zojuist een QR Creator-account aan te maken met dit e-mailadres, dat al bij jouw account hoort. Er is geen account aangemaakt.',
      'Was jij dit, log dan gewoon in, of stel je wachtwoord opnieuw in als je het vergeten bent. Zo niet, dan kun je dit bericht negeren.',
    ],
    action: 'Inloggen',
  }),

  invitation: ({ inviter, workspace, role, days: d }) => ({
    subject: `${inviter} heeft je uitgenodigd voor ${workspace} op QR Creator`,
    paragraphs: [
      `${inviter} heeft je uitgenodigd om als ${roleName[role]} mee te werken aan de QR-codes van de teamwerkruimte ‘${workspace}’.`,
      `De uitnodiging is ${days(d)} geldig. Log in of maak een account aan en accepteer dan de uitnodiging.`,
    ],
    action: 'Uitnodiging openen',
    footer: 'Had je deze uitnodiging niet verwacht, negeer dan dit bericht.',
  }),

  emailChanged: ({ username, newEmail, resetStillHere, days: d }) => ({
    subject: 'Het e-mailadres van je QR Creator-account is gewijzigd',
    paragraphs: [
      `Het e-mailadres van je QR Creator-account ${username} is gewijzigd in ${newEmail}.`,
      `Heb je dit niet zelf gewijzigd, open dan binnen ${days(d)} de link hieronder: daarmee wordt dit adres teruggezet, worden alle browsers uitgelogd en worden alle API-tokens van het account ingetrokken. Kies daarna een nieuw wachtwoord.${resetStillHere ? ' Zolang het nieuwe adres niet is bevestigd, komen links om je wachtwoord opnieuw in te stellen nog op dit adres binnen.' : ''}`,
    ],
    action: 'Deze wijziging ongedaan maken',
    footer: 'Heb je dit zelf gewijzigd, dan hoef je niets te doen.',
  }),

  testMailFooter: ({ sender }) =>
    `Een testbericht, verstuurd door ${sender} vanuit de instellingen van QR Creator.`,

  scanDigest: ({ total, day, timeZone, sections }) => ({
    // "keer" is the same in the singular and the plural: "1 keer", "12 keer".
    subject: `Je QR-codes zijn gisteren ${f.count(total)} keer gescand`,
    paragraphs: [
      `Scans van je QR-codes op ${day} (${timeZone}), zonder bots:`,
      ...sections.map((s) => {
        const lines = s.codes.map(
          (c) => `${c.name}: ${f.count(c.scans)} ${f.plural(c.scans, { one: 'scan', other: 'scans' })}`,
        );
        return (s.team === null ? lines : [`Team ${s.team}:`, ...lines]).join('\n');
      }),
    ],
    action: 'Statistieken openen',
    footer:
      'Je krijgt dit dagelijkse overzicht omdat meldingen over scans van QR-codes aanstaan in Instellingen → Meldingen.',
  }),

  scanThreshold: ({ codeName, team, level, scans }) => ({
    subject: `‘${codeName}’ heeft ${f.count(level)} ${f.plural(level, { one: 'scan', other: 'scans' })} bereikt`,
    paragraphs: [
      `${team === null ? `Je QR-code ‘${codeName}’` : `De QR-code ‘${codeName}’ van team ${team}`} is ${f.count(scans)} keer gescand (bots niet meegerekend).`,
    ],
    action: 'Details bekijken',
    footer: 'Je krijgt deze e-mail omdat scandrempels aanstaan in Instellingen → Meldingen.',
  }),

  teamUpgradeRequest: ({ username, team, plan }) => ({
    subject: `Upgradeverzoek voor de teamwerkruimte ${team}: ${plan}`,
    paragraphs: [
      `${username} vraagt om de teamwerkruimte ‘${team}’ over te zetten naar het abonnement ${plan}.`,
      'Stel het abonnement van het team in onder Werkruimten in het beheergedeelte.',
    ],
    action: 'Werkruimten openen',
  }),

  upgradeRequest: ({ who, plan }) => ({
    subject: `Upgradeverzoek van ${who}: ${plan}`,
    paragraphs: [
      `${who} vraagt om over te stappen naar het abonnement ${plan}.`,
      'Keur het verzoek goed of wijs het af onder Upgradeverzoeken op de pagina Abonnementen.',
    ],
    action: 'Upgradeverzoeken openen',
  }),

  upgradeApproved: ({ plan, until }) => ({
    subject: `Je hebt nu het abonnement ${plan}`,
    paragraphs: [
      `Een beheerder heeft je verzoek goedgekeurd: je account heeft het abonnement ${plan} tot ${until}.`,
    ],
    action: 'Je abonnement bekijken',
  }),

  upgradeDeclined: ({ plan }) => ({
    subject: `Je verzoek voor ${plan} is afgewezen`,
    paragraphs: [
      `Een beheerder heeft je verzoek voor het abonnement ${plan} afgewezen. Je abonnement blijft zoals het was.`,
    ],
    action: 'Je abonnement bekijken',
  }),

  webhookDisabled: ({ url, hours: h }) => ({
    subject: `Webhook uitgeschakeld: ${url}`,
    paragraphs: [
      `Elke verzending naar de webhook ${url} is ${hours(h)} lang mislukt. Daarom is de webhook uitgeschakeld en zijn de wachtende verzendingen geannuleerd.`,
      'Controleer of het adres antwoordt met een 2xx-status en zet de webhook daarna weer aan. In het verzendlogboek zie je wat de ontvanger antwoordde.',
    ],
    action: 'Webhook openen',
    footer: 'Je krijgt deze e-mail omdat je beheerder bent van de werkruimte.',
  }),
};
