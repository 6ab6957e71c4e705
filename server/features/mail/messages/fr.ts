import { formatters } from './format.js';
import type { CheckedUrl, DestinationProblem, InvitedRole, MailMessages } from './messages.js';

const f = formatters('fr');

/** Always after a colon, so written in lower case, as French does. */
const problemText = (p: DestinationProblem): string => {
  switch (p.kind) {
    case 'http':
      return p.status === 404
        ? 'la page est introuvable (404)'
        : p.status >= 500
          ? `erreur serveur ${p.status}`
          : `la page renvoie le code ${p.status}`;
    case 'dns':
      return 'le nom de domaine est introuvable';
    case 'tls':
      return 'le certificat n’est pas valide';
    case 'timeout':
      return 'le serveur ne répond pas à temps';
    case 'refused':
      return 'le serveur refuse la connexion';
    case 'protocol':
      return 'le serveur ne répond pas comme une page web';
  }
};

const whichUrl = (which: CheckedUrl): string =>
  which.kind === 'rule' ? `L’URL de destination de la règle ${which.rule}` : 'L’URL de secours';

const roleName: Record<InvitedRole, string> = {
  viewer: 'lecteur',
  editor: 'éditeur',
  admin: 'administrateur',
  owner: 'propriétaire',
};

/** French (the user addressed as "vous"; a no-break space before a colon and inside « », as French typesets them). */
export const fr: MailMessages = {
  locale: 'fr',
  layout: {
    greeting: (name) => `Bonjour ${name},`,
    greetingAnyone: 'Bonjour,',
    openLink: 'Ou ouvrez ce lien\u00a0:',
    footer: 'Ce message a été envoyé par QR Creator.',
  },

  destinationDown: ({ codeName, team, which, url, problem }) => ({
    subject: `«\u00a0${codeName}\u00a0»\u00a0: ${problem ? problemText(problem) : 'l’URL de destination ne fonctionne pas'}`,
    paragraphs: [
      `${which.kind === 'destination' ? 'L’URL de destination' : `${whichUrl(which)} (${url})`} ${team ? 'du' : 'de votre'} code QR «\u00a0${codeName}\u00a0» a échoué à deux vérifications de suite${problem ? `\u00a0: ${problemText(problem)}` : ''}.`,
      `Adresse\u00a0: ${url}`,
      'Les codes déjà imprimés continuent d’y envoyer les gens. Modifiez l’URL de destination, ou définissez une URL de secours que les scans utiliseront tant que la destination est hors service.',
    ],
    action: 'Vérifier à nouveau',
    footer:
      'Vous recevez cet e-mail une seule fois, chaque fois qu’une URL de destination de vos codes cesse de fonctionner.',
  }),

  twoFactorLocked: ({ username, failures, address, minutes }) => ({
    subject: 'La double authentification de votre compte QR Creator a été bloquée',
    paragraphs: [
      `Quelqu’un a saisi le bon mot de passe de votre compte QR Creator «\u00a0${username}\u00a0», puis ${f.plural(failures, { one: `${f.count(failures)} code de double authentification erroné`, other: `${f.count(failures)} codes de double authentification erronés` })} (depuis ${address}). La saisie du code est bloquée pendant ${f.plural(minutes, { one: `${f.count(minutes)} minute`, other: `${f.count(minutes)} minutes` })}.`,
      'Si ce n’était pas vous, quelqu’un d’autre connaît votre mot de passe\u00a0: connectez-vous et changez-le dès maintenant. Le changer déconnecte aussi tous les autres navigateurs et révoque tous les jetons d’API.',
    ],
    action: 'Ouvrir QR Creator',
  }),

  passwordReset: ({ username, hours }) => ({
    subject: 'Réinitialisez votre mot de passe QR Creator',
    paragraphs: [
      `Quelqu’un (vous, espérons-le) a demandé à réinitialiser le mot de passe de votre compte QR Creator «\u00a0${username}\u00a0». Ouvrez le lien dans un délai de ${f.plural(hours, { one: `${f.count(hours)} heure`, other: `${f.count(hours)} heures` })} pour choisir un nouveau mot de passe.`,
      'Un nouveau mot de passe déconnecte tous les navigateurs et révoque tous les jetons d’API du compte.',
    ],
    action: 'Choisir un nouveau mot de passe',
    footer:
      'Le lien ne fonctionne qu’une fois. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message\u00a0: votre mot de passe reste inchangé.',
  }),

  passwordChanged: ({ username, how, sessions, tokens }) => ({
    subject: 'Le mot de passe de votre compte QR Creator a été modifié',
    paragraphs: [
      `Le mot de passe de votre compte QR Creator «\u00a0${username}\u00a0» ${
        {
          changed: 'a été modifié depuis votre profil',
          reset: 'a été réinitialisé à l’aide d’un lien reçu par e-mail',
          admin: 'a été réinitialisé par un administrateur',
        }[how]
      }.`,
      `${how === 'changed' ? 'Tous les autres navigateurs ont' : 'Tous les navigateurs ont'} été déconnectés (${f.plural(sessions, { one: `${f.count(sessions)} session`, other: `${f.count(sessions)} sessions` })}) et tous les jetons d’API révoqués (${f.plural(tokens, { one: `${f.count(tokens)} jeton`, other: `${f.count(tokens)} jetons` })})\u00a0: les scripts ont besoin d’un nouveau jeton.`,
      'Si vous n’êtes pas à l’origine de ce changement, réinitialisez immédiatement votre mot de passe et prévenez votre administrateur.',
    ],
    action: 'Réinitialiser le mot de passe',
  }),

  verifyEmail: ({ hours }) => ({
    subject: 'Confirmez votre adresse e-mail pour QR Creator',
    paragraphs: [
      `Veuillez confirmer votre adresse e-mail en ouvrant le lien dans un délai de ${f.plural(hours, { one: `${f.count(hours)} heure`, other: `${f.count(hours)} heures` })}.`,
    ],
    action: 'Confirmer l’adresse e-mail',
    footer: 'Si vous n’avez pas créé de compte QR Creator ni modifié son adresse, ignorez ce message.',
  }),

  newSignIn: ({ username, when, browser, os, address }) => ({
    subject: 'Nouvelle connexion à votre compte QR Creator',
    paragraphs: [
      `Quelqu’un vient de se connecter à votre compte ${username} depuis un navigateur ou une adresse qu’il n’avait encore jamais utilisés.`,
      `Date\u00a0: ${when}\nNavigateur\u00a0: ${browser ?? 'Navigateur inconnu'} sous ${os ?? 'système inconnu'}\nAdresse\u00a0: ${address}`,
      'Si c’était vous, vous n’avez rien à faire. Sinon, changez votre mot de passe dès maintenant et déconnectez toutes les autres sessions dans Paramètres → Sécurité.',
    ],
    action: 'Vérifier vos sessions',
    footer: 'Vous recevez cet e-mail, car les alertes de connexion sont activées dans Paramètres → Sécurité.',
  }),

  registrationAttempt: () => ({
    subject: 'Quelqu’un a essayé de s’inscrire avec votre adresse',
    paragraphs: [
      'Quelqu’un vient d’essayer de créer un compte QR Creator avec cette adresse e-mail, qui appartient déjà à votre compte. Aucun compte n’a été créé.',
      'Si c’était vous, connectez-vous plutôt, ou réinitialisez votre mot de passe si vous l’avez oublié. Sinon, vous pouvez ignorer ce message.',
    ],
    action: 'Se connecter',
  }),

  invitation: ({ inviter, workspace, role, days }) => ({
    subject: `${inviter} vous invite à rejoindre ${workspace} sur QR Creator`,
    paragraphs: [
      `${inviter} vous invite à travailler sur les codes QR de l’espace d’équipe «\u00a0${workspace}\u00a0» avec le rôle ${roleName[role]}.`,
      `L’invitation est valable ${f.plural(days, { one: `${f.count(days)} jour`, other: `${f.count(days)} jours` })}. Connectez-vous ou créez un compte, puis acceptez-la.`,
    ],
    action: 'Ouvrir l’invitation',
    footer: 'Si vous ne vous attendiez pas à cette invitation, ignorez ce message.',
  }),

  emailChanged: ({ username, newEmail, resetStillHere, days }) => ({
    subject: 'L’adresse e-mail de votre compte QR Creator a été modifiée',
    paragraphs: [
      `L’adresse e-mail de votre compte QR Creator ${username} a été remplacée par ${newEmail}.`,
      `Si vous n’êtes pas à l’origine de ce changement, ouvrez le lien ci-dessous dans un délai de ${f.plural(days, { one: `${f.count(days)} jour`, other: `${f.count(days)} jours` })}\u00a0: il rétablit cette adresse, déconnecte tous les navigateurs et révoque tous les jetons d’API du compte. Choisissez ensuite un nouveau mot de passe.${resetStillHere ? ' Tant que la nouvelle adresse n’est pas confirmée, les liens de réinitialisation du mot de passe continuent d’arriver ici.' : ''}`,
    ],
    action: 'Annuler ce changement',
    footer: 'Si vous avez fait ce changement vous-même, vous n’avez rien à faire.',
  }),

  testMailFooter: ({ sender }) =>
    `Un message de test envoyé par ${sender} depuis les paramètres de QR Creator.`,

  scanDigest: ({ total, day, timeZone, sections }) => ({
    subject: `Vos codes QR ont été scannés ${f.count(total)}\u00a0fois hier`,
    paragraphs: [
      `Scans de vos codes QR le ${day} (${timeZone}), hors robots\u00a0:`,
      ...sections.map((s) => {
        const lines = s.codes.map(
          (c) => `${c.name}\u00a0: ${f.count(c.scans)} ${f.plural(c.scans, { one: 'scan', other: 'scans' })}`,
        );
        return (s.team === null ? lines : [`Équipe ${s.team}\u00a0:`, ...lines]).join('\n');
      }),
    ],
    action: 'Ouvrir les statistiques',
    footer:
      'Vous recevez ce récapitulatif quotidien, car l’option «\u00a0Scans des codes QR\u00a0» est activée dans Paramètres → Notifications.',
  }),

  scanThreshold: ({ codeName, team, level, scans }) => ({
    subject: `«\u00a0${codeName}\u00a0» a dépassé ${f.count(level)} ${f.plural(level, { one: 'scan', other: 'scans' })}`,
    paragraphs: [
      `${team === null ? `Votre code QR «\u00a0${codeName}\u00a0»` : `Le code QR «\u00a0${codeName}\u00a0» de l’équipe ${team}`} a été scanné ${f.count(scans)}\u00a0fois (hors robots).`,
    ],
    action: 'Voir les détails',
    footer:
      'Vous recevez cet e-mail, car l’option «\u00a0Seuils de scans\u00a0» est activée dans Paramètres → Notifications.',
  }),

  teamUpgradeRequest: ({ username, team, plan }) => ({
    subject: `Demande de changement d’offre pour l’espace d’équipe ${team}\u00a0: ${plan}`,
    paragraphs: [
      `${username} demande à faire passer l’espace d’équipe «\u00a0${team}\u00a0» à l’offre ${plan}.`,
      'Définissez l’offre de l’équipe dans la section Espaces de travail de l’administration.',
    ],
    action: 'Ouvrir les espaces de travail',
  }),

  upgradeRequest: ({ who, plan }) => ({
    subject: `Demande de changement d’offre de la part de ${who}\u00a0: ${plan}`,
    paragraphs: [
      `${who} demande à passer à l’offre ${plan}.`,
      'Approuvez ou refusez la demande dans la section Demandes de changement d’offre de la page Abonnements.',
    ],
    action: 'Ouvrir les demandes',
  }),

  upgradeApproved: ({ plan, until }) => ({
    subject: `Vous bénéficiez maintenant de l’offre ${plan}`,
    paragraphs: [
      `Un administrateur a approuvé votre demande\u00a0: votre compte bénéficie de l’offre ${plan} jusqu’au ${until}.`,
    ],
    action: 'Voir votre offre',
  }),

  upgradeDeclined: ({ plan }) => ({
    subject: `Votre demande pour l’offre ${plan} a été refusée`,
    paragraphs: [
      `Un administrateur a refusé votre demande pour l’offre ${plan}. Votre offre reste inchangée.`,
    ],
    action: 'Voir votre offre',
  }),

  webhookDisabled: ({ url, hours }) => ({
    subject: `Webhook désactivé\u00a0: ${url}`,
    paragraphs: [
      `Tous les envois vers le webhook ${url} ont échoué pendant ${f.plural(hours, { one: `${f.count(hours)} heure`, other: `${f.count(hours)} heures` })}\u00a0: il a donc été désactivé et ses envois en attente ont été abandonnés.`,
      'Vérifiez que l’adresse répond avec un statut 2xx, puis réactivez le webhook. Son journal des envois indique ce que le destinataire a répondu.',
    ],
    action: 'Ouvrir le webhook',
    footer: 'Vous recevez cet e-mail, car vous êtes administrateur de cet espace de travail.',
  }),
};
