import { formatters } from './format.js';
import type { CheckedUrl, DestinationProblem, InvitedRole, MailMessages } from './messages.js';

const f = formatters('it');

/** Italian mails: the user addressed as "tu", as on the scan pages and in Italian apps. */

const problemText = (p: DestinationProblem): string => {
  switch (p.kind) {
    case 'http':
      return p.status === 404
        ? 'Restituisce un errore 404'
        : p.status >= 500
          ? `Errore del server ${p.status}`
          : `Risponde con il codice ${p.status}`;
    case 'dns':
      return 'Impossibile trovare il server';
    case 'tls':
      return 'Il certificato non è valido';
    case 'timeout':
      return 'Non risponde in tempo';
    case 'refused':
      return 'Rifiuta la connessione';
    case 'protocol':
      return 'Non risponde come una pagina web';
  }
};

/** Inside a sentence, after a colon, Italian goes on in lower case. */
const inSentence = (s: string): string => s.charAt(0).toLocaleLowerCase('it') + s.slice(1);

const whichUrl = (which: CheckedUrl): string =>
  which.kind === 'rule' ? `Regola ${which.rule}: destinazione` : 'URL di riserva';

const roleName: Record<InvitedRole, string> = {
  viewer: 'visualizzatore',
  editor: 'editor',
  admin: 'amministratore',
  owner: 'proprietario',
};

const hours = (n: number) => f.plural(n, { one: '1 ora', other: `${f.count(n)} ore` });
const days = (n: number) => f.plural(n, { one: '1 giorno', other: `${f.count(n)} giorni` });

export const it: MailMessages = {
  locale: 'it',
  layout: {
    greeting: (name) => `Ciao ${name},`,
    greetingAnyone: 'Ciao,',
    openLink: 'Oppure apri questo link:',
    footer: 'Questo messaggio è stato inviato da QR Creator.',
  },

  destinationDown: ({ codeName, team, which, url, problem }) => ({
    subject: `«${codeName}»: ${problem ? problemText(problem) : 'la destinazione non funziona'}`,
    paragraphs: [
      `${which.kind === 'destination' ? 'La destinazione' : `La voce «${whichUrl(which)}» (${url})`} ${team ? 'del' : 'del tuo'} codice QR «${codeName}» non ha funzionato per due volte di seguito: ${problem ? inSentence(problemText(problem)) : 'non funziona'}.`,
      `Indirizzo: ${url}`,
      'I codici già stampati continuano a mandare le persone lì. Cambia la destinazione, oppure imposta un URL di riserva da usare per le scansioni finché la destinazione non funziona.',
    ],
    action: 'Controlla di nuovo',
    footer:
      'Ricevi questa email una sola volta, quando una destinazione dei tuoi codici smette di funzionare.',
  }),

  twoFactorLocked: ({ username, failures, address, minutes }) => ({
    subject: 'L’accesso con autenticazione a due fattori al tuo account QR Creator è stato bloccato',
    paragraphs: [
      `Qualcuno ha inserito la password corretta del tuo account QR Creator «${username}» e poi ${f.plural(failures, { one: '1 codice di verifica errato', other: `${f.count(failures)} codici di verifica errati` })} (dall’indirizzo ${address}). L’inserimento del codice è bloccato per ${f.plural(minutes, { one: '1 minuto', other: `${f.count(minutes)} minuti` })}.`,
      'Se non eri tu, qualcun altro conosce la tua password: accedi e cambiala subito. Cambiandola, verranno disconnessi anche tutti gli altri browser e revocati tutti i token API.',
    ],
    action: 'Apri QR Creator',
  }),

  passwordReset: ({ username, hours: h }) => ({
    subject: 'Reimposta la password di QR Creator',
    paragraphs: [
      `Qualcuno (speriamo tu) ha chiesto di reimpostare la password del tuo account QR Creator «${username}». Apri il link entro ${hours(h)} per scegliere una nuova password.`,
      'Una nuova password disconnette tutti i browser e revoca tutti i token API dell’account.',
    ],
    action: 'Scegli una nuova password',
    footer:
      'Il link funziona una sola volta. Se non l’hai chiesto tu, ignora questo messaggio: la tua password resta invariata.',
  }),

  passwordChanged: ({ username, how, sessions, tokens }) => ({
    subject: 'La password del tuo account QR Creator è stata cambiata',
    paragraphs: [
      `La password del tuo account QR Creator «${username}» ${
        {
          changed: 'è stata cambiata dal tuo profilo',
          reset: 'è stata reimpostata con un link che ti è stato inviato via email',
          admin: 'è stata reimpostata da un amministratore',
        }[how]
      }.`,
      `${how === 'changed' ? 'Tutti gli altri browser sono stati disconnessi' : 'Tutti i browser sono stati disconnessi'} (${f.plural(sessions, { one: '1 sessione', other: `${f.count(sessions)} sessioni` })}) e tutti i token API sono stati revocati (${f.plural(tokens, { one: '1 token', other: `${f.count(tokens)} token` })}): gli script avranno bisogno di un nuovo token.`,
      'Se non l’hai fatto tu, reimposta subito la password e avvisa il tuo amministratore.',
    ],
    action: 'Reimposta la password',
  }),

  verifyEmail: ({ hours: h }) => ({
    subject: 'Conferma il tuo indirizzo email per QR Creator',
    paragraphs: [`Conferma il tuo indirizzo email aprendo il link entro ${hours(h)}.`],
    action: 'Conferma l’indirizzo email',
    footer:
      'Se non hai creato un account QR Creator né cambiato il suo indirizzo email, ignora questo messaggio.',
  }),

  newSignIn: ({ username, when, browser, os, address }) => ({
    subject: 'Nuovo accesso al tuo account QR Creator',
    paragraphs: [
      `Qualcuno ha appena effettuato l’accesso al tuo account ${username} da un browser o da un indirizzo mai usati prima con questo account.`,
      `Quando: ${when}\nBrowser: ${browser ?? 'Browser sconosciuto'} su ${os ?? 'sistema operativo sconosciuto'}\nIndirizzo: ${address}`,
      'Se eri tu, non devi fare nulla. Altrimenti cambia subito la password e disconnetti tutte le altre sessioni in Impostazioni → Sicurezza.',
    ],
    action: 'Controlla le tue sessioni',
    footer: 'Ricevi questa email perché gli avvisi di accesso sono attivi in Impostazioni → Sicurezza.',
  }),

  registrationAttempt: () => ({
    subject: 'Qualcuno ha provato a registrarsi con il tuo indirizzo',
    paragraphs: [
      'Qualcuno ha appena provato a creare un account QR Creator con questo indirizzo email, che appartiene già al tuo account. Non è stato creato nessun account.',
      'Se eri tu, accedi invece di registrarti, oppure reimposta la password se l’hai dimenticata. Altrimenti puoi ignorare questo messaggio.',
    ],
    action: 'Accedi',
  }),

  invitation: ({ inviter, workspace, role, days: d }) => ({
    subject: `${inviter} ti ha invitato a unirti a ${workspace} su QR Creator`,
    paragraphs: [
      `${inviter} ti ha invitato a lavorare sui codici QR dello spazio di lavoro del team «${workspace}» come ${roleName[role]}.`,
      `L’invito è valido per ${days(d)}. Accedi o crea un account, poi accettalo.`,
    ],
    action: 'Apri l’invito',
    footer: 'Se non ti aspettavi questo invito, ignora questo messaggio.',
  }),

  emailChanged: ({ username, newEmail, resetStillHere, days: d }) => ({
    subject: 'L’indirizzo email del tuo account QR Creator è stato cambiato',
    paragraphs: [
      `L’indirizzo email del tuo account QR Creator ${username} è stato cambiato in ${newEmail}.`,
      `Se non hai fatto tu questa modifica, apri il link qui sotto entro ${days(d)}: ripristina questo indirizzo, disconnette tutti i browser e revoca tutti i token API dell’account. Poi scegli una nuova password.${resetStillHere ? ' Finché il nuovo indirizzo non sarà verificato, i link per reimpostare la password continueranno ad arrivare qui.' : ''}`,
    ],
    action: 'Annulla questa modifica',
    footer: 'Se hai fatto tu questa modifica, non devi fare nulla.',
  }),

  testMailFooter: ({ sender }) => `Messaggio di prova inviato da ${sender} dalle impostazioni di QR Creator.`,

  scanDigest: ({ total, day, timeZone, sections }) => ({
    subject: `Ieri i tuoi codici QR sono stati scansionati ${f.count(total)} ${f.plural(total, { one: 'volta', other: 'volte' })}`,
    paragraphs: [
      `Le scansioni dei tuoi codici QR di ieri, ${day} (${timeZone}), esclusi i bot:`,
      ...sections.map((s) => {
        const lines = s.codes.map(
          (c) =>
            `${c.name}: ${f.count(c.scans)} ${f.plural(c.scans, { one: 'scansione', other: 'scansioni' })}`,
        );
        return (s.team === null ? lines : [`Team ${s.team}:`, ...lines]).join('\n');
      }),
    ],
    action: 'Apri le statistiche',
    footer:
      'Ricevi questo riepilogo giornaliero perché le notifiche sulle scansioni dei codici QR sono attive in Impostazioni → Notifiche.',
  }),

  scanThreshold: ({ codeName, team, level, scans }) => ({
    subject: `«${codeName}» ha superato ${f.count(level)} ${f.plural(level, { one: 'scansione', other: 'scansioni' })}`,
    paragraphs: [
      `${team === null ? `Il tuo codice QR «${codeName}»` : `Il codice QR «${codeName}» del team ${team}`} è stato scansionato ${f.count(scans)} ${f.plural(scans, { one: 'volta', other: 'volte' })} (esclusi i bot).`,
    ],
    action: 'Vedi i dettagli',
    footer: 'Ricevi questa email perché le soglie di scansione sono attive in Impostazioni → Notifiche.',
  }),

  teamUpgradeRequest: ({ username, team, plan }) => ({
    subject: `Richiesta di upgrade per lo spazio di lavoro del team ${team}: ${plan}`,
    paragraphs: [
      `${username} chiede di passare lo spazio di lavoro del team «${team}» al piano ${plan}.`,
      'Imposta il piano del team in Spazi di lavoro, nell’area di amministrazione.',
    ],
    action: 'Apri gli spazi di lavoro',
  }),

  upgradeRequest: ({ who, plan }) => ({
    subject: `Richiesta di upgrade da ${who}: ${plan}`,
    paragraphs: [
      `${who} chiede di passare al piano ${plan}.`,
      'Approva o rifiuta la richiesta in Richieste di upgrade, nella pagina Abbonamenti.',
    ],
    action: 'Apri le richieste di upgrade',
  }),

  upgradeApproved: ({ plan, until }) => ({
    subject: `Ora hai il piano ${plan}`,
    paragraphs: [
      `Un amministratore ha approvato la tua richiesta: il tuo account ora ha il piano ${plan} (scadenza: ${until}).`,
    ],
    action: 'Vedi il tuo piano',
  }),

  upgradeDeclined: ({ plan }) => ({
    subject: `La tua richiesta per il piano ${plan} è stata rifiutata`,
    paragraphs: [
      `Un amministratore ha rifiutato la tua richiesta per il piano ${plan}. Il tuo piano resta quello di prima.`,
    ],
    action: 'Vedi il tuo piano',
  }),

  webhookDisabled: ({ url, hours: h }) => ({
    subject: `Webhook disattivato: ${url}`,
    paragraphs: [
      `Tutti gli invii al webhook ${url} sono falliti per ${hours(h)}, quindi il webhook è stato disattivato e gli invii in attesa sono stati annullati.`,
      'Verifica che l’indirizzo risponda con uno stato 2xx, poi riattiva il webhook. Il registro degli invii mostra cosa ha risposto il destinatario.',
    ],
    action: 'Apri il webhook',
    footer: 'Ricevi questa email perché sei amministratore dello spazio di lavoro.',
  }),
};
