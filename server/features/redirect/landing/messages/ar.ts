import type { ScanMessages } from './messages.js';

const plural = new Intl.PluralRules('ar');
/** دقيقة واحدة، دقيقتان، 3–10 دقائق، 11–99 دقيقة، 100 دقيقة… */
function minutes(n: number): string {
  switch (plural.select(n)) {
    case 'one':
      return 'دقيقة واحدة';
    case 'two':
      return 'دقيقتين';
    case 'few':
      return `${n} دقائق`;
    default:
      return `${n} دقيقة`;
  }
}

/** Arabic (Modern Standard Arabic, written right to left: the page says dir="rtl"). */
export const ar: ScanMessages = {
  madeWith: 'أُنشئ باستخدام QR Creator',
  qrCode: 'رمز QR',
  text: { kicker: 'نص', heading: 'رسالة', call: (number) => `اتصل بالرقم ${number}` },
  email: { kicker: 'البريد الإلكتروني', send: 'إرسال بريد إلكتروني', subject: 'الموضوع', message: 'الرسالة' },
  sms: { kicker: 'رسالة نصية', send: 'إرسال رسالة نصية', call: 'اتصال', message: 'الرسالة' },
  phone: { kicker: 'هاتف', call: 'اتصال' },
  contact: {
    kicker: 'جهة اتصال',
    save: 'حفظ جهة الاتصال',
    phone: 'رقم الهاتف',
    email: 'البريد الإلكتروني',
    website: 'الموقع الإلكتروني',
  },
  event: {
    kicker: 'فعالية',
    when: 'الموعد',
    location: 'المكان',
    description: 'الوصف',
    addToCalendar: 'إضافة إلى التقويم',
    until: (end) => `حتى ${end}`,
  },
  wifi: {
    kicker: 'شبكة Wi-Fi',
    security: 'الأمان',
    password: 'كلمة المرور',
    openNetwork: 'لا يوجد (شبكة مفتوحة)',
    passwordNotNeeded: 'غير مطلوبة: الشبكة مفتوحة',
    noPasswordGiven: 'لم تُحدَّد كلمة مرور',
    copyPassword: 'نسخ كلمة المرور',
    copied: 'تم النسخ',
    howToConnect: 'طريقة الاتصال',
    stepOpenSettings: 'افتح إعدادات Wi-Fi في هاتفك أو حاسوبك.',
    stepPickNetwork: (ssid) => `اختر الشبكة «${ssid}».`,
    stepOpenNetwork: 'هذه شبكة مفتوحة: لا حاجة إلى كلمة مرور.',
    stepAskOwner: 'أدخل كلمة المرور إذا طُلبت منك (اطلبها من مالك الشبكة).',
    stepEnterShown: 'أدخل كلمة المرور الظاهرة أعلاه (انسخها بزر «نسخ كلمة المرور» ثم الصقها).',
  },
  notFound: {
    heading: 'رمز QR هذا غير نشط',
    text: 'ربما كُتب الرابط بشكل خاطئ، أو حذف المالك هذا الرمز.',
  },
  inactive: {
    kicker: 'رمز QR',
    paused: {
      heading: 'رمز QR هذا متوقف مؤقتًا',
      text: 'أوقفه مالكه مؤقتًا. يُرجى المحاولة مرة أخرى لاحقًا.',
    },
    notStarted: {
      heading: 'لم يُفعَّل رمز QR هذا بعد',
      text: 'لم يبدأ العمل به بعد. يُرجى المحاولة مرة أخرى لاحقًا.',
    },
    ended: { heading: 'انتهت صلاحية رمز QR هذا', text: 'لم يعد نشطًا.' },
    limit: {
      heading: 'بلغ رمز QR هذا الحد الأقصى لعمليات المسح',
      text: 'مُسح هذا الرمز بعدد المرات الذي سمح به مالكه.',
    },
  },
  password: {
    kicker: 'رابط محمي',
    heading: 'رمز QR هذا محمي',
    intro: 'أدخل كلمة المرور التي حصلت عليها لفتحه.',
    label: 'كلمة المرور',
    button: 'فتح',
    wrong: 'كلمة المرور غير صحيحة. يُرجى المحاولة مرة أخرى.',
    missing: 'أدخل كلمة المرور.',
    throttledHeading: 'محاولات كثيرة جدًا',
    throttled: (n) => `أُدخلت كلمات مرور خاطئة مرات كثيرة. يُرجى المحاولة مرة أخرى بعد ${minutes(n)}.`,
    opening: 'جارٍ الفتح…',
    continue: 'متابعة',
  },
};
