import type { ScanMessages } from './messages.js';

/** Portuguese as written in Brazil (the scanner addressed as "você"). */
export const ptBR: ScanMessages = {
  madeWith: 'Criado com QR Creator',
  qrCode: 'QR code',
  text: { kicker: 'Texto', heading: 'Mensagem', call: (number) => `Ligar para ${number}` },
  email: { kicker: 'E-mail', send: 'Enviar e-mail', subject: 'Assunto', message: 'Mensagem' },
  sms: { kicker: 'SMS', send: 'Enviar SMS', call: 'Ligar', message: 'Mensagem' },
  phone: { kicker: 'Telefone', call: 'Ligar' },
  contact: {
    kicker: 'Contato',
    save: 'Salvar contato',
    phone: 'Telefone',
    email: 'E-mail',
    website: 'Site',
  },
  event: {
    kicker: 'Evento',
    when: 'Quando',
    location: 'Local',
    description: 'Descrição',
    addToCalendar: 'Adicionar à agenda',
    until: (end) => `Até ${end}`,
  },
  wifi: {
    kicker: 'Rede Wi-Fi',
    security: 'Segurança',
    password: 'Senha',
    openNetwork: 'Nenhuma (rede aberta)',
    passwordNotNeeded: 'Não é necessária: a rede é aberta',
    noPasswordGiven: 'Nenhuma senha informada',
    copyPassword: 'Copiar senha',
    copied: 'Copiada',
    howToConnect: 'Como se conectar',
    stepOpenSettings: 'Abra as configurações de Wi-Fi do seu celular ou computador.',
    stepPickNetwork: (ssid) => `Escolha a rede “${ssid}”.`,
    stepOpenNetwork: 'É uma rede aberta: não precisa de senha.',
    stepAskOwner: 'Digite a senha, se for pedida (peça ao responsável pela rede).',
    stepEnterShown: 'Digite a senha mostrada acima (toque em “Copiar senha” e depois cole).',
  },
  notFound: {
    heading: 'Este QR code não está ativo',
    text: 'O link pode ter sido digitado errado ou o código pode ter sido excluído pelo dono.',
  },
  inactive: {
    kicker: 'QR code',
    paused: {
      heading: 'Este QR code está pausado',
      text: 'O dono pausou o código por enquanto. Tente novamente mais tarde.',
    },
    notStarted: {
      heading: 'Este QR code ainda não está ativo',
      text: 'Ele ainda não começou. Tente novamente mais tarde.',
    },
    ended: { heading: 'Este QR code foi encerrado', text: 'Ele não está mais ativo.' },
    limit: {
      heading: 'Este QR code atingiu o limite de leituras',
      text: 'Ele já foi lido o número máximo de vezes permitido pelo dono.',
    },
  },
  password: {
    kicker: 'Link protegido',
    heading: 'Este QR code está protegido',
    intro: 'Digite a senha que você recebeu para abri-lo.',
    label: 'Senha',
    button: 'Abrir',
    wrong: 'Senha incorreta. Tente novamente.',
    missing: 'Digite a senha.',
    throttledHeading: 'Muitas tentativas',
    throttled: (minutes) =>
      `Muitas senhas incorretas. Tente novamente em ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`,
    opening: 'Abrindo…',
    continue: 'Continuar',
  },
};
