import { formatters } from './format.js';
import type { CheckedUrl, DestinationProblem, InvitedRole, MailMessages } from './messages.js';

const f = formatters('pt-BR');

/** Always after a colon, so written in lower case, as Portuguese does. */
const problemText = (p: DestinationProblem): string => {
  switch (p.kind) {
    case 'http':
      return p.status === 404
        ? 'a página não existe (404)'
        : p.status >= 500
          ? `erro do servidor ${p.status}`
          : `a página responde com o código ${p.status}`;
    case 'dns':
      return 'o domínio não foi encontrado';
    case 'tls':
      return 'o certificado não é válido';
    case 'timeout':
      return 'o servidor não responde a tempo';
    case 'refused':
      return 'o servidor recusa a conexão';
    case 'protocol':
      return 'o servidor não responde como uma página da web';
  }
};

const whichUrl = (which: CheckedUrl): string =>
  which.kind === 'rule' ? `A URL de destino da regra ${which.rule}` : 'A URL alternativa';

const roleName: Record<InvitedRole, string> = {
  viewer: 'leitor',
  editor: 'editor',
  admin: 'administrador',
  owner: 'dono',
};

/** Portuguese as written in Brazil (the user addressed as "você"; quotes as “…”). */
export const ptBR: MailMessages = {
  locale: 'pt-BR',
  layout: {
    greeting: (name) => `Olá, ${name},`,
    greetingAnyone: 'Olá,',
    openLink: 'Ou abra este link:',
    footer: 'Esta mensagem foi enviada pelo QR Creator.',
  },

  destinationDown: ({ codeName, team, which, url, problem }) => ({
    subject: `“${codeName}”: ${problem ? problemText(problem) : 'a URL de destino não funciona'}`,
    paragraphs: [
      `${which.kind === 'destination' ? 'A URL de destino' : `${whichUrl(which)} (${url})`} ${team ? 'do' : 'do seu'} QR code “${codeName}” falhou em duas verificações seguidas${problem ? `: ${problemText(problem)}` : ''}.`,
      `Endereço: ${url}`,
      'Os códigos impressos continuam levando as pessoas para lá. Altere a URL de destino ou defina uma URL alternativa para as leituras usarem enquanto o destino estiver fora do ar.',
    ],
    action: 'Verificar novamente',
    footer: 'Você recebe este e-mail uma única vez sempre que um destino dos seus códigos para de funcionar.',
  }),

  twoFactorLocked: ({ username, failures, address, minutes }) => ({
    subject: 'A autenticação de dois fatores da sua conta do QR Creator foi bloqueada',
    paragraphs: [
      `Alguém digitou a senha correta da sua conta do QR Creator “${username}” e depois ${f.plural(failures, { one: `${f.count(failures)} código de dois fatores incorreto`, other: `${f.count(failures)} códigos de dois fatores incorretos` })} (do endereço ${address}). A etapa do código está bloqueada por ${f.plural(minutes, { one: `${f.count(minutes)} minuto`, other: `${f.count(minutes)} minutos` })}.`,
      'Se não foi você, outra pessoa sabe sua senha: entre na sua conta e altere a senha agora. Ao alterá-la, todos os outros navegadores também são desconectados e todos os tokens de API são revogados.',
    ],
    action: 'Abrir o QR Creator',
  }),

  passwordReset: ({ username, hours }) => ({
    subject: 'Redefina sua senha do QR Creator',
    paragraphs: [
      `Alguém (esperamos que você) pediu para redefinir a senha da sua conta do QR Creator “${username}”. Abra o link em até ${f.plural(hours, { one: `${f.count(hours)} hora`, other: `${f.count(hours)} horas` })} para escolher uma nova senha.`,
      'Uma nova senha desconecta todos os navegadores e revoga todos os tokens de API da conta.',
    ],
    action: 'Escolher uma nova senha',
    footer:
      'O link só funciona uma vez. Se você não pediu isso, ignore esta mensagem: sua senha continua a mesma.',
  }),

  passwordChanged: ({ username, how, sessions, tokens }) => ({
    subject: 'Sua senha do QR Creator foi alterada',
    paragraphs: [
      `A senha da sua conta do QR Creator “${username}” ${
        {
          changed: 'foi alterada no seu perfil',
          reset: 'foi redefinida com um link enviado para o seu e-mail',
          admin: 'foi redefinida por um administrador',
        }[how]
      }.`,
      `${how === 'changed' ? 'Todos os outros navegadores foram desconectados' : 'Todos os navegadores foram desconectados'} (${f.plural(sessions, { one: `${f.count(sessions)} sessão`, other: `${f.count(sessions)} sessões` })}) e todos os tokens de API foram revogados (${f.plural(tokens, { one: `${f.count(tokens)} token`, other: `${f.count(tokens)} tokens` })}): os scripts precisam de um novo token.`,
      'Se não foi você, redefina sua senha imediatamente e avise o seu administrador.',
    ],
    action: 'Redefinir sua senha',
  }),

  verifyEmail: ({ hours }) => ({
    subject: 'Confirme seu endereço de e-mail do QR Creator',
    paragraphs: [
      `Confirme seu endereço de e-mail abrindo o link em até ${f.plural(hours, { one: `${f.count(hours)} hora`, other: `${f.count(hours)} horas` })}.`,
    ],
    action: 'Confirmar endereço de e-mail',
    footer: 'Se você não criou uma conta no QR Creator nem alterou o endereço dela, ignore esta mensagem.',
  }),

  newSignIn: ({ username, when, browser, os, address }) => ({
    subject: 'Novo login na sua conta do QR Creator',
    paragraphs: [
      `Alguém acabou de entrar na sua conta ${username} a partir de um navegador ou endereço que ela nunca tinha usado.`,
      `Quando: ${when}\nNavegador: ${browser ?? 'Navegador desconhecido'} no ${os ?? 'sistema desconhecido'}\nEndereço: ${address}`,
      'Se foi você, não é preciso fazer nada. Se não foi, altere sua senha agora e encerre todas as outras sessões em Configurações → Segurança.',
    ],
    action: 'Revisar suas sessões',
    footer: 'Você recebe este e-mail porque os alertas de login estão ativados em Configurações → Segurança.',
  }),

  registrationAttempt: () => ({
    subject: 'Alguém tentou se cadastrar com seu endereço',
    paragraphs: [
      'Alguém acabou de tentar criar uma conta no QR Creator com este endereço de e-mail, que já pertence à sua conta. Nenhuma conta foi criada.',
      'Se foi você, faça login em vez disso ou, se esqueceu a senha, redefina-a. Se não foi, pode ignorar esta mensagem.',
    ],
    action: 'Fazer login',
  }),

  invitation: ({ inviter, workspace, role, days }) => ({
    subject: `${inviter} convidou você para ${workspace} no QR Creator`,
    paragraphs: [
      `${inviter} convidou você para trabalhar nos QR codes do espaço de equipe “${workspace}” como ${roleName[role]}.`,
      `O convite vale por ${f.plural(days, { one: `${f.count(days)} dia`, other: `${f.count(days)} dias` })}. Entre ou crie uma conta e depois aceite o convite.`,
    ],
    action: 'Abrir o convite',
    footer: 'Se você não esperava este convite, ignore esta mensagem.',
  }),

  emailChanged: ({ username, newEmail, resetStillHere, days }) => ({
    subject: 'O endereço de e-mail da sua conta do QR Creator foi alterado',
    paragraphs: [
      `O endereço de e-mail da sua conta do QR Creator ${username} foi alterado para ${newEmail}.`,
      `Se você não fez essa alteração, abra o link abaixo em até ${f.plural(days, { one: `${f.count(days)} dia`, other: `${f.count(days)} dias` })}: ele restaura este endereço, desconecta todos os navegadores e revoga todos os tokens de API da conta. Depois, escolha uma nova senha.${resetStillHere ? ' Até o novo endereço ser confirmado, os links de redefinição de senha continuam chegando aqui.' : ''}`,
    ],
    action: 'Desfazer esta alteração',
    footer: 'Se foi você quem fez essa alteração, não é preciso fazer nada.',
  }),

  testMailFooter: ({ sender }) =>
    `Mensagem de teste enviada por ${sender} pelas configurações do QR Creator.`,

  scanDigest: ({ total, day, timeZone, sections }) => ({
    subject: `Seus QR codes foram lidos ${f.count(total)} ${f.plural(total, { one: 'vez', other: 'vezes' })} ontem`,
    paragraphs: [
      `Leituras dos seus QR codes em ${day} (${timeZone}), sem contar bots:`,
      ...sections.map((s) => {
        const lines = s.codes.map(
          (c) => `${c.name}: ${f.count(c.scans)} ${f.plural(c.scans, { one: 'leitura', other: 'leituras' })}`,
        );
        return (s.team === null ? lines : [`Equipe ${s.team}:`, ...lines]).join('\n');
      }),
    ],
    action: 'Abrir estatísticas',
    footer:
      'Você recebe este resumo diário porque “Leituras de QR codes” está ativado em Configurações → Notificações.',
  }),

  scanThreshold: ({ codeName, team, level, scans }) => ({
    subject: `“${codeName}” passou de ${f.count(level)} ${f.plural(level, { one: 'leitura', other: 'leituras' })}`,
    paragraphs: [
      `${team === null ? `Seu QR code “${codeName}”` : `O QR code “${codeName}” da equipe ${team}`} já foi lido ${f.count(scans)} ${f.plural(scans, { one: 'vez', other: 'vezes' })} (sem contar bots).`,
    ],
    action: 'Ver detalhes',
    footer:
      'Você recebe este e-mail porque “Marcos de leituras” está ativado em Configurações → Notificações.',
  }),

  teamUpgradeRequest: ({ username, team, plan }) => ({
    subject: `Pedido de upgrade do espaço de equipe ${team}: ${plan}`,
    paragraphs: [
      `${username} pediu para mudar o espaço de equipe “${team}” para o plano ${plan}.`,
      'Defina o plano da equipe em Espaços de trabalho, na área de administração.',
    ],
    action: 'Abrir espaços de trabalho',
  }),

  upgradeRequest: ({ who, plan }) => ({
    subject: `Pedido de upgrade de ${who}: ${plan}`,
    paragraphs: [
      `${who} pediu para mudar para o plano ${plan}.`,
      'Aprove ou recuse o pedido em Pedidos de upgrade, na página Assinaturas.',
    ],
    action: 'Abrir pedidos de upgrade',
  }),

  upgradeApproved: ({ plan, until }) => ({
    subject: `Agora você está no plano ${plan}`,
    paragraphs: [`Um administrador aprovou seu pedido: sua conta está no plano ${plan} até ${until}.`],
    action: 'Ver seu plano',
  }),

  upgradeDeclined: ({ plan }) => ({
    subject: `Seu pedido do plano ${plan} foi recusado`,
    paragraphs: [`Um administrador recusou seu pedido do plano ${plan}. Seu plano continua o mesmo.`],
    action: 'Ver seu plano',
  }),

  webhookDisabled: ({ url, hours }) => ({
    subject: `Webhook desativado: ${url}`,
    paragraphs: [
      `Todas as entregas para o webhook ${url} falharam por ${f.plural(hours, { one: `${f.count(hours)} hora`, other: `${f.count(hours)} horas` })}, então ele foi desativado e as entregas pendentes foram descartadas.`,
      'Verifique se o endereço responde com um status 2xx e depois ative o webhook novamente. O registro de entregas mostra o que o receptor respondeu.',
    ],
    action: 'Abrir o webhook',
    footer: 'Você recebe este e-mail porque é administrador do espaço de trabalho.',
  }),
};
