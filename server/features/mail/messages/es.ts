import { formatters } from './format.js';
import type { CheckedUrl, DestinationProblem, InvitedRole, MailMessages } from './messages.js';

const f = formatters('es');

/** Always after a colon, so written in lower case, as Spanish does. */
const problemText = (p: DestinationProblem): string => {
  switch (p.kind) {
    case 'http':
      return p.status === 404
        ? 'la página no existe (404)'
        : p.status >= 500
          ? `error del servidor ${p.status}`
          : `la página responde con el código ${p.status}`;
    case 'dns':
      return 'no se encuentra el dominio';
    case 'tls':
      return 'el certificado no es válido';
    case 'timeout':
      return 'el servidor no responde a tiempo';
    case 'refused':
      return 'el servidor rechaza la conexión';
    case 'protocol':
      return 'el servidor no responde como una página web';
  }
};

const whichUrl = (which: CheckedUrl): string =>
  which.kind === 'rule' ? `La URL de destino de la regla ${which.rule}` : 'La URL de respaldo';

const roleName: Record<InvitedRole, string> = {
  viewer: 'lector',
  editor: 'editor',
  admin: 'administrador',
  owner: 'propietario',
};

/** Spanish (neutral, for Spain and Latin America; the user addressed as "tú", as on the scan pages; quotes as «…»). */
export const es: MailMessages = {
  locale: 'es',
  layout: {
    greeting: (name) => `Hola, ${name}:`,
    greetingAnyone: 'Hola:',
    openLink: 'O abre este enlace:',
    footer: 'Este mensaje lo envió QR Creator.',
  },

  destinationDown: ({ codeName, team, which, url, problem }) => ({
    subject: `«${codeName}»: ${problem ? problemText(problem) : 'la URL de destino no funciona'}`,
    paragraphs: [
      `${which.kind === 'destination' ? 'La URL de destino' : `${whichUrl(which)} (${url})`} ${team ? 'del' : 'de tu'} código QR «${codeName}» falló en dos comprobaciones seguidas${problem ? `: ${problemText(problem)}` : ''}.`,
      `Dirección: ${url}`,
      'Los códigos impresos siguen llevando a la gente allí. Cambia la URL de destino o configura una URL de respaldo para que los escaneos la usen mientras el destino no funcione.',
    ],
    action: 'Volver a comprobar',
    footer: 'Recibes este correo una sola vez cada vez que un destino de tus códigos deja de funcionar.',
  }),

  twoFactorLocked: ({ username, failures, address, minutes }) => ({
    subject: 'Se bloqueó la autenticación de dos factores de tu cuenta de QR Creator',
    paragraphs: [
      `Alguien introdujo la contraseña correcta de tu cuenta de QR Creator «${username}» y después ${f.plural(failures, { one: `${f.count(failures)} código de dos factores incorrecto`, other: `${f.count(failures)} códigos de dos factores incorrectos` })} (desde ${address}). El paso del código quedó bloqueado durante ${f.plural(minutes, { one: `${f.count(minutes)} minuto`, other: `${f.count(minutes)} minutos` })}.`,
      'Si no fuiste tú, otra persona conoce tu contraseña: inicia sesión y cámbiala ahora. Al cambiarla, también se cierra la sesión en todos los demás navegadores y se revocan todos los tokens de API.',
    ],
    action: 'Abrir QR Creator',
  }),

  passwordReset: ({ username, hours }) => ({
    subject: 'Restablece tu contraseña de QR Creator',
    paragraphs: [
      `Alguien (esperamos que tú) pidió restablecer la contraseña de tu cuenta de QR Creator «${username}». Abre el enlace en un plazo de ${f.plural(hours, { one: `${f.count(hours)} hora`, other: `${f.count(hours)} horas` })} para elegir una contraseña nueva.`,
      'Una contraseña nueva cierra la sesión en todos los navegadores y revoca todos los tokens de API de la cuenta.',
    ],
    action: 'Elegir una contraseña nueva',
    footer:
      'El enlace solo funciona una vez. Si no lo pediste, ignora este mensaje: tu contraseña seguirá siendo la misma.',
  }),

  passwordChanged: ({ username, how, sessions, tokens }) => ({
    subject: 'Se cambió la contraseña de tu cuenta de QR Creator',
    paragraphs: [
      `La contraseña de tu cuenta de QR Creator «${username}» ${
        {
          changed: 'se cambió desde tu perfil',
          reset: 'se restableció con un enlace que te enviamos por correo',
          admin: 'fue restablecida por un administrador',
        }[how]
      }.`,
      `Se cerró la sesión en ${how === 'changed' ? 'todos los demás navegadores' : 'todos los navegadores'} (${f.plural(sessions, { one: `${f.count(sessions)} sesión`, other: `${f.count(sessions)} sesiones` })}) y se revocaron todos los tokens de API (${f.plural(tokens, { one: `${f.count(tokens)} token`, other: `${f.count(tokens)} tokens` })}): los scripts necesitan un token nuevo.`,
      'Si no fuiste tú, restablece tu contraseña de inmediato y avisa a tu administrador.',
    ],
    action: 'Restablecer tu contraseña',
  }),

  verifyEmail: ({ hours }) => ({
    subject: 'Confirma tu dirección de correo de QR Creator',
    paragraphs: [
      `Confirma tu dirección de correo electrónico abriendo el enlace en un plazo de ${f.plural(hours, { one: `${f.count(hours)} hora`, other: `${f.count(hours)} horas` })}.`,
    ],
    action: 'Confirmar dirección de correo',
    footer: 'Si no creaste una cuenta de QR Creator ni cambiaste su dirección, ignora este mensaje.',
  }),

  newSignIn: ({ username, when, browser, os, address }) => ({
    subject: 'Nuevo inicio de sesión en tu cuenta de QR Creator',
    paragraphs: [
      `Se acaba de iniciar sesión en tu cuenta ${username} desde un navegador o una dirección que no se habían usado antes.`,
      `Cuándo: ${when}\nNavegador: ${browser ?? 'Navegador desconocido'} en ${os ?? 'sistema operativo desconocido'}\nDirección: ${address}`,
      'Si fuiste tú, no tienes que hacer nada. Si no, cambia tu contraseña ahora y cierra todas las demás sesiones en Configuración → Seguridad.',
    ],
    action: 'Revisar tus sesiones',
    footer:
      'Recibes este correo porque las alertas de inicio de sesión están activadas en Configuración → Seguridad.',
  }),

  registrationAttempt: () => ({
    subject: 'Alguien intentó registrarse con tu dirección',
    paragraphs: [
      'Alguien acaba de intentar crear una cuenta de QR Creator con esta dirección de correo, que ya pertenece a tu cuenta. No se creó ninguna cuenta.',
      'Si fuiste tú, inicia sesión en su lugar o, si olvidaste tu contraseña, restablécela. Si no, puedes ignorar este mensaje.',
    ],
    action: 'Iniciar sesión',
  }),

  invitation: ({ inviter, workspace, role, days }) => ({
    subject: `${inviter} te invitó a ${workspace} en QR Creator`,
    paragraphs: [
      `${inviter} te invitó a trabajar en los códigos QR del espacio de equipo «${workspace}» como ${roleName[role]}.`,
      `La invitación es válida durante ${f.plural(days, { one: `${f.count(days)} día`, other: `${f.count(days)} días` })}. Inicia sesión o crea una cuenta y luego acéptala.`,
    ],
    action: 'Abrir la invitación',
    footer: 'Si no esperabas esta invitación, ignora este mensaje.',
  }),

  emailChanged: ({ username, newEmail, resetStillHere, days }) => ({
    subject: 'Se cambió la dirección de correo de tu cuenta de QR Creator',
    paragraphs: [
      `La dirección de correo de tu cuenta de QR Creator ${username} se cambió a ${newEmail}.`,
      `Si no hiciste este cambio, abre el enlace de abajo en un plazo de ${f.plural(days, { one: `${f.count(days)} día`, other: `${f.count(days)} días` })}: restaura esta dirección, cierra la sesión en todos los navegadores y revoca todos los tokens de API de la cuenta. Después, elige una contraseña nueva.${resetStillHere ? ' Hasta que se verifique la nueva dirección, los enlaces para restablecer la contraseña seguirán llegando aquí.' : ''}`,
    ],
    action: 'Deshacer este cambio',
    footer: 'Si el cambio lo hiciste tú, no tienes que hacer nada.',
  }),

  testMailFooter: ({ sender }) =>
    `Mensaje de prueba enviado por ${sender} desde la configuración de QR Creator.`,

  scanDigest: ({ total, day, timeZone, sections }) => ({
    subject: `Ayer tus códigos QR se escanearon ${f.count(total)} ${f.plural(total, { one: 'vez', other: 'veces' })}`,
    paragraphs: [
      `Escaneos de tus códigos QR el ${day} (${timeZone}), sin contar bots:`,
      ...sections.map((s) => {
        const lines = s.codes.map(
          (c) => `${c.name}: ${f.count(c.scans)} ${f.plural(c.scans, { one: 'escaneo', other: 'escaneos' })}`,
        );
        return (s.team === null ? lines : [`Equipo ${s.team}:`, ...lines]).join('\n');
      }),
    ],
    action: 'Abrir estadísticas',
    footer:
      'Recibes este resumen diario porque «Escaneos de códigos QR» está activado en Configuración → Notificaciones.',
  }),

  scanThreshold: ({ codeName, team, level, scans }) => ({
    subject: `«${codeName}» superó los ${f.count(level)} ${f.plural(level, { one: 'escaneo', other: 'escaneos' })}`,
    paragraphs: [
      `${team === null ? `Tu código QR «${codeName}»` : `El código QR «${codeName}» del equipo ${team}`} se ha escaneado ${f.count(scans)} ${f.plural(scans, { one: 'vez', other: 'veces' })} (sin contar bots).`,
    ],
    action: 'Ver detalles',
    footer:
      'Recibes este correo porque «Umbrales de escaneos» está activado en Configuración → Notificaciones.',
  }),

  teamUpgradeRequest: ({ username, team, plan }) => ({
    subject: `Solicitud de cambio de plan para el espacio de equipo ${team}: ${plan}`,
    paragraphs: [
      `${username} pide pasar el espacio de equipo «${team}» al plan ${plan}.`,
      'Asigna el plan del equipo en Espacios de trabajo, dentro del área de administración.',
    ],
    action: 'Abrir espacios de trabajo',
  }),

  upgradeRequest: ({ who, plan }) => ({
    subject: `Solicitud de cambio de plan de ${who}: ${plan}`,
    paragraphs: [
      `${who} pide pasar al plan ${plan}.`,
      'Aprueba o rechaza la solicitud en Solicitudes de cambio de plan, en la página Suscripciones.',
    ],
    action: 'Abrir las solicitudes',
  }),

  upgradeApproved: ({ plan, until }) => ({
    subject: `Ya tienes el plan ${plan}`,
    paragraphs: [`Un administrador aprobó tu solicitud: tu cuenta tiene el plan ${plan} hasta el ${until}.`],
    action: 'Ver tu plan',
  }),

  upgradeDeclined: ({ plan }) => ({
    subject: `Se rechazó tu solicitud del plan ${plan}`,
    paragraphs: [`Un administrador rechazó tu solicitud del plan ${plan}. Tu plan sigue siendo el mismo.`],
    action: 'Ver tu plan',
  }),

  webhookDisabled: ({ url, hours }) => ({
    subject: `Webhook desactivado: ${url}`,
    paragraphs: [
      `Todas las entregas al webhook ${url} fallaron durante ${f.plural(hours, { one: `${f.count(hours)} hora`, other: `${f.count(hours)} horas` })}, así que se desactivó y se descartaron sus entregas pendientes.`,
      'Comprueba que la dirección responda con un estado 2xx y vuelve a activar el webhook. Su registro de entregas muestra qué respondió el receptor.',
    ],
    action: 'Abrir el webhook',
    footer: 'Recibes este correo porque eres administrador del espacio de trabajo.',
  }),
};
