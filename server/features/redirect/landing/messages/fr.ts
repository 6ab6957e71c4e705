import type { ScanMessages } from './messages.js';

/** French (the scanner addressed as "vous"; a no-break space before a colon and inside « », as French typesets them). */
export const fr: ScanMessages = {
  madeWith: 'Créé avec QR Creator',
  qrCode: 'Code QR',
  text: { kicker: 'Texte', heading: 'Message', call: (number) => `Appeler le ${number}` },
  email: { kicker: 'E-mail', send: 'Envoyer un e-mail', subject: 'Objet', message: 'Message' },
  sms: { kicker: 'SMS', send: 'Envoyer un SMS', call: 'Appeler', message: 'Message' },
  phone: { kicker: 'Téléphone', call: 'Appeler' },
  contact: {
    kicker: 'Contact',
    save: 'Enregistrer le contact',
    phone: 'Numéro de téléphone',
    email: 'E-mail',
    website: 'Site web',
  },
  event: {
    kicker: 'Événement',
    when: 'Quand',
    location: 'Lieu',
    description: 'Description',
    addToCalendar: 'Ajouter au calendrier',
    until: (end) => `Jusqu’au ${end}`,
  },
  wifi: {
    kicker: 'Réseau Wi-Fi',
    security: 'Sécurité',
    password: 'Mot de passe',
    openNetwork: 'Aucune (réseau ouvert)',
    passwordNotNeeded: 'Inutile : le réseau est ouvert',
    noPasswordGiven: 'Aucun mot de passe indiqué',
    copyPassword: 'Copier le mot de passe',
    copied: 'Copié',
    howToConnect: 'Comment se connecter',
    stepOpenSettings: 'Ouvrez les réglages Wi-Fi de votre téléphone ou de votre ordinateur.',
    stepPickNetwork: (ssid) => `Choisissez le réseau «\u00a0${ssid}\u00a0».`,
    stepOpenNetwork: 'C’est un réseau ouvert : aucun mot de passe n’est nécessaire.',
    stepAskOwner: 'Saisissez le mot de passe s’il est demandé (demandez-le au propriétaire du réseau).',
    stepEnterShown:
      'Saisissez le mot de passe affiché ci-dessus (touchez « Copier le mot de passe », puis collez-le).',
  },
  notFound: {
    heading: 'Ce code QR n’est pas actif',
    text: 'Le lien est peut-être mal saisi, ou le code a été supprimé par son propriétaire.',
  },
  inactive: {
    kicker: 'Code QR',
    paused: {
      heading: 'Ce code QR est en pause',
      text: 'Son propriétaire l’a mis en pause pour le moment. Veuillez réessayer plus tard.',
    },
    notStarted: {
      heading: 'Ce code QR n’est pas encore actif',
      text: 'Il n’a pas encore commencé. Veuillez réessayer plus tard.',
    },
    ended: { heading: 'Ce code QR a expiré', text: 'Il n’est plus actif.' },
    limit: {
      heading: 'Ce code QR a atteint sa limite de scans',
      text: 'Il a été scanné autant de fois que son propriétaire l’a permis.',
    },
  },
  password: {
    kicker: 'Lien protégé',
    heading: 'Ce code QR est protégé',
    intro: 'Saisissez le mot de passe qui vous a été communiqué pour l’ouvrir.',
    label: 'Mot de passe',
    button: 'Ouvrir',
    wrong: 'Mot de passe incorrect. Réessayez.',
    missing: 'Saisissez le mot de passe.',
    throttledHeading: 'Trop de tentatives',
    throttled: (minutes) =>
      `Trop de mots de passe incorrects. Veuillez réessayer dans ${minutes} minute${minutes < 2 ? '' : 's'}.`,
    opening: 'Ouverture…',
    continue: 'Continuer',
  },
};
