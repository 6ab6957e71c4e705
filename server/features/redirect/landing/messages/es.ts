import type { ScanMessages } from './messages.js';

/** Spanish (neutral, for Spain and Latin America; the scanner addressed as "tú", as Spanish apps do). */
export const es: ScanMessages = {
  madeWith: 'Creado con QR Creator',
  qrCode: 'Código QR',
  text: { kicker: 'Texto', heading: 'Mensaje', call: (number) => `Llamar al ${number}` },
  email: { kicker: 'Correo electrónico', send: 'Enviar correo', subject: 'Asunto', message: 'Mensaje' },
  sms: { kicker: 'SMS', send: 'Enviar SMS', call: 'Llamar', message: 'Mensaje' },
  phone: { kicker: 'Teléfono', call: 'Llamar' },
  contact: {
    kicker: 'Contacto',
    save: 'Guardar contacto',
    phone: 'Número de teléfono',
    email: 'Correo electrónico',
    website: 'Sitio web',
  },
  event: {
    kicker: 'Evento',
    when: 'Cuándo',
    location: 'Lugar',
    description: 'Descripción',
    addToCalendar: 'Agregar al calendario',
    until: (end) => `Hasta el ${end}`,
  },
  wifi: {
    kicker: 'Red Wi-Fi',
    security: 'Seguridad',
    password: 'Contraseña',
    openNetwork: 'Ninguna (red abierta)',
    passwordNotNeeded: 'No hace falta: la red es abierta',
    noPasswordGiven: 'No se indicó ninguna contraseña',
    copyPassword: 'Copiar contraseña',
    copied: 'Copiada',
    howToConnect: 'Cómo conectarte',
    stepOpenSettings: 'Abre la configuración de Wi-Fi de tu teléfono o computadora.',
    stepPickNetwork: (ssid) => `Elige la red «${ssid}».`,
    stepOpenNetwork: 'Es una red abierta: no necesitas contraseña.',
    stepAskOwner: 'Introduce la contraseña si te la piden (pídesela al dueño de la red).',
    stepEnterShown: 'Introduce la contraseña que aparece arriba (toca «Copiar contraseña» y luego pégala).',
  },
  notFound: {
    heading: 'Este código QR no está activo',
    text: 'Puede que el enlace esté mal escrito o que su propietario haya eliminado el código.',
  },
  inactive: {
    kicker: 'Código QR',
    paused: {
      heading: 'Este código QR está en pausa',
      text: 'Su propietario lo ha puesto en pausa por ahora. Vuelve a intentarlo más tarde.',
    },
    notStarted: {
      heading: 'Este código QR aún no está activo',
      text: 'Todavía no ha comenzado. Vuelve a intentarlo más tarde.',
    },
    ended: { heading: 'Este código QR ha finalizado', text: 'Ya no está activo.' },
    limit: {
      heading: 'Este código QR ha alcanzado su límite de escaneos',
      text: 'Se ha escaneado tantas veces como permitió su propietario.',
    },
  },
  password: {
    kicker: 'Enlace protegido',
    heading: 'Este código QR está protegido',
    intro: 'Introduce la contraseña que te dieron para abrirlo.',
    label: 'Contraseña',
    button: 'Abrir',
    wrong: 'Contraseña incorrecta. Inténtalo de nuevo.',
    missing: 'Introduce la contraseña.',
    throttledHeading: 'Demasiados intentos',
    throttled: (minutes) =>
      `Demasiadas contraseñas incorrectas. Vuelve a intentarlo dentro de ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`,
    opening: 'Abriendo…',
    continue: 'Continuar',
  },
};
