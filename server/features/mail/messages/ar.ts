import { formatters } from './format.js';
import type { CheckedUrl, DestinationProblem, InvitedRole, MailMessages } from './messages.js';

const f = formatters('ar');

/*
 * Counted words by Intl.PluralRules('ar'): zero, one (a word: "ساعة واحدة"), two (the dual), few (3–10:
 * plural), many (11–99: singular, accusative), other (100, 1,000…: singular). Each as its place in the
 * sentence wants it: after خلال / لمدة / طوال the dual is genitive (ساعتين).
 */

/** خلال ساعة واحدة، ساعتين، 3 ساعات، 11 ساعة، 100 ساعة */
const hoursText = (n: number): string =>
  f.plural(n, {
    zero: `${f.count(n)} ساعة`,
    one: 'ساعة واحدة',
    two: 'ساعتين',
    few: `${f.count(n)} ساعات`,
    many: `${f.count(n)} ساعة`,
    other: `${f.count(n)} ساعة`,
  });

/** لمدة يوم واحد، يومين، 3 أيام، 11 يومًا، 100 يوم */
const daysText = (n: number): string =>
  f.plural(n, {
    zero: `${f.count(n)} يوم`,
    one: 'يوم واحد',
    two: 'يومين',
    few: `${f.count(n)} أيام`,
    many: `${f.count(n)} يومًا`,
    other: `${f.count(n)} يوم`,
  });

/** لمدة دقيقة واحدة، دقيقتين، 3 دقائق، 15 دقيقة، 100 دقيقة */
const minutesText = (n: number): string =>
  f.plural(n, {
    zero: `${f.count(n)} دقيقة`,
    one: 'دقيقة واحدة',
    two: 'دقيقتين',
    few: `${f.count(n)} دقائق`,
    many: `${f.count(n)} دقيقة`,
    other: `${f.count(n)} دقيقة`,
  });

/** مرة واحدة، مرتين، 3 مرات، 11 مرة، 100 مرة */
const timesText = (n: number): string =>
  f.plural(n, {
    zero: `${f.count(n)} مرة`,
    one: 'مرة واحدة',
    two: 'مرتين',
    few: `${f.count(n)} مرات`,
    many: `${f.count(n)} مرة`,
    other: `${f.count(n)} مرة`,
  });

/** (جلسة واحدة)، (جلستان)، (3 جلسات)، (11 جلسة) */
const sessionsText = (n: number): string =>
  f.plural(n, {
    zero: `${f.count(n)} جلسة`,
    one: 'جلسة واحدة',
    two: 'جلستان',
    few: `${f.count(n)} جلسات`,
    many: `${f.count(n)} جلسة`,
    other: `${f.count(n)} جلسة`,
  });

/** (رمز واحد)، (رمزان)، (3 رموز)، (11 رمزًا)، (100 رمز) */
const tokensText = (n: number): string =>
  f.plural(n, {
    zero: `${f.count(n)} رمز`,
    one: 'رمز واحد',
    two: 'رمزان',
    few: `${f.count(n)} رموز`,
    many: `${f.count(n)} رمزًا`,
    other: `${f.count(n)} رمز`,
  });

/** A line of the digest (nominative): عملية مسح واحدة، عمليتا مسح، 3 عمليات مسح، 11 عملية مسح */
const scansText = (n: number): string =>
  f.plural(n, {
    zero: `${f.count(n)} عملية مسح`,
    one: 'عملية مسح واحدة',
    two: 'عمليتا مسح',
    few: `${f.count(n)} عمليات مسح`,
    many: `${f.count(n)} عملية مسح`,
    other: `${f.count(n)} عملية مسح`,
  });

const problemText = (p: DestinationProblem): string => {
  switch (p.kind) {
    case 'http':
      return p.status === 404
        ? 'خطأ 404 (الصفحة غير موجودة)'
        : p.status >= 500
          ? `خطأ في الخادم ${p.status}`
          : `خطأ ${p.status}`;
    case 'dns':
      return 'تعذّر العثور على اسم النطاق';
    case 'tls':
      return 'شهادة الأمان غير صالحة';
    case 'timeout':
      return 'انتهت مهلة الاستجابة';
    case 'refused':
      return 'رُفض الاتصال';
    case 'protocol':
      return 'الاستجابة ليست صفحة ويب';
  }
};

const whichUrl = (which: CheckedUrl): string =>
  which.kind === 'rule' ? `وجهة القاعدة ${which.rule}` : 'الرابط الاحتياطي';

const roleName: Record<InvitedRole, string> = {
  viewer: 'مُشاهِد',
  editor: 'مُحرِّر',
  admin: 'مسؤول',
  owner: 'مالك',
};

/** Arabic (Modern Standard Arabic, right to left; "←" for a path in the settings reads right to left). */
export const ar: MailMessages = {
  locale: 'ar',
  layout: {
    greeting: (name) => `مرحبًا ${name}،`,
    greetingAnyone: 'مرحبًا،',
    openLink: 'أو افتح هذا الرابط:',
    footer: 'أُرسلت هذه الرسالة من QR Creator.',
  },

  destinationDown: ({ codeName, team, which, url, problem }) => ({
    subject: `«${codeName}»: ${problem ? problemText(problem) : 'يتعذّر الوصول إلى الوجهة'}`,
    paragraphs: [
      `أخفق التحقق من ${which.kind === 'destination' ? 'الوجهة' : `${whichUrl(which)} (${url})`} في ${team ? 'رمز QR' : 'رمز QR الخاص بك'} «${codeName}» مرتين متتاليتين: ${problem ? problemText(problem) : 'تعذّر الوصول'}.`,
      `العنوان: ${url}`,
      'لا تزال الرموز المطبوعة توجّه الناس إلى هذا العنوان. غيّر الوجهة، أو عيّن رابطًا احتياطيًا تستخدمه عمليات المسح ريثما تعود الوجهة إلى العمل.',
    ],
    action: 'إعادة التحقق',
    footer: 'تصلك هذه الرسالة مرة واحدة كلما توقفت إحدى وجهات رموزك عن العمل.',
  }),

  twoFactorLocked: ({ username, failures, address, minutes }) => ({
    subject: 'تم قفل خطوة المصادقة الثنائية لحسابك في QR Creator',
    paragraphs: [
      `أدخل شخص ما كلمة المرور الصحيحة لحسابك «${username}» في QR Creator، ثم أخطأ في إدخال رمز المصادقة الثنائية ${timesText(failures)} (من العنوان ${address}). لذلك قُفلت خطوة إدخال الرمز لمدة ${minutesText(minutes)}.`,
      'إذا لم تكن أنت، فإن كلمة مرورك معروفة لشخص آخر: سجّل الدخول وغيّرها الآن. يؤدي تغييرها أيضًا إلى تسجيل الخروج من جميع المتصفحات الأخرى وإلغاء جميع رموز الوصول إلى API.',
    ],
    action: 'فتح QR Creator',
  }),

  passwordReset: ({ username, hours }) => ({
    subject: 'إعادة تعيين كلمة المرور في QR Creator',
    paragraphs: [
      `طلب شخص ما (نأمل أن يكون أنت) إعادة تعيين كلمة المرور لحسابك «${username}» في QR Creator. افتح الرابط خلال ${hoursText(hours)} لاختيار كلمة مرور جديدة.`,
      'يؤدي تعيين كلمة مرور جديدة إلى تسجيل الخروج من جميع المتصفحات وإلغاء جميع رموز الوصول إلى API الخاصة بالحساب.',
    ],
    action: 'اختيار كلمة مرور جديدة',
    footer: 'لا يعمل الرابط إلا مرة واحدة. إذا لم تطلب ذلك، فتجاهل هذه الرسالة: ستبقى كلمة مرورك كما هي.',
  }),

  passwordChanged: ({ username, how, sessions, tokens }) => ({
    subject: 'تم تغيير كلمة المرور لحسابك في QR Creator',
    paragraphs: [
      {
        changed: `تم تغيير كلمة المرور لحسابك «${username}» في QR Creator من ملفك الشخصي.`,
        reset: `تمت إعادة تعيين كلمة المرور لحسابك «${username}» في QR Creator عبر رابط أُرسل إلى بريدك الإلكتروني.`,
        admin: `أعاد أحد المسؤولين تعيين كلمة المرور لحسابك «${username}» في QR Creator.`,
      }[how],
      `تم تسجيل الخروج من ${how === 'changed' ? 'جميع المتصفحات الأخرى' : 'جميع المتصفحات'} (${sessionsText(sessions)}) وإلغاء جميع رموز الوصول إلى API (${tokensText(tokens)}): ستحتاج السكربتات إلى رمز جديد.`,
      'إذا لم تقم بذلك، فأعد تعيين كلمة مرورك فورًا وأبلغ المسؤول.',
    ],
    action: 'إعادة تعيين كلمة المرور',
  }),

  verifyEmail: ({ hours }) => ({
    subject: 'تأكيد عنوان بريدك الإلكتروني في QR Creator',
    paragraphs: [`يُرجى تأكيد عنوان بريدك الإلكتروني بفتح الرابط خلال ${hoursText(hours)}.`],
    action: 'تأكيد عنوان البريد الإلكتروني',
    footer: 'إذا لم تُنشئ حسابًا في QR Creator ولم تغيّر عنوان بريده الإلكتروني، فتجاهل هذه الرسالة.',
  }),

  newSignIn: ({ username, when, browser, os, address }) => ({
    subject: 'تسجيل دخول جديد إلى حسابك في QR Creator',
    paragraphs: [
      `سُجّل الدخول للتو إلى حسابك ${username} من متصفح أو عنوان IP لم يُستخدم لتسجيل الدخول إليه من قبل.`,
      `الوقت: ${when}\nالمتصفح: ${browser ?? 'متصفح غير معروف'} على ${os ?? 'نظام تشغيل غير معروف'}\nعنوان IP: ${address}`,
      'إذا كنت أنت، فلا حاجة إلى أي إجراء. وإن لم تكن أنت، فغيّر كلمة مرورك الآن وسجّل الخروج من جميع الجلسات الأخرى من الإعدادات ← الأمان.',
    ],
    action: 'مراجعة الجلسات',
    footer: 'تصلك هذه الرسالة لأن تنبيهات تسجيل الدخول مفعّلة في الإعدادات ← الأمان.',
  }),

  registrationAttempt: () => ({
    subject: 'حاول شخص ما التسجيل باستخدام عنوان بريدك الإلكتروني',
    paragraphs: [
      'حاول شخص ما للتو إنشاء حساب في QR Creator باستخدام عنوان البريد الإلكتروني هذا، وهو مرتبط بحسابك بالفعل. لم يُنشأ أي حساب.',
      'إذا كنت أنت، فسجّل الدخول بدلًا من ذلك، أو أعد تعيين كلمة مرورك إذا نسيتها. وإن لم تكن أنت، فيمكنك تجاهل هذه الرسالة.',
    ],
    action: 'تسجيل الدخول',
  }),

  invitation: ({ inviter, workspace, role, days }) => ({
    subject: `دعاك ${inviter} إلى «${workspace}» على QR Creator`,
    paragraphs: [
      `دعاك ${inviter} إلى العمل على رموز QR في مساحة عمل الفريق «${workspace}» بصفة ${roleName[role]}.`,
      `الدعوة صالحة لمدة ${daysText(days)}. سجّل الدخول أو أنشئ حسابًا، ثم اقبلها.`,
    ],
    action: 'فتح الدعوة',
    footer: 'إذا لم تكن تتوقع هذه الدعوة، فتجاهل هذه الرسالة.',
  }),

  emailChanged: ({ username, newEmail, resetStillHere, days }) => ({
    subject: 'تم تغيير عنوان بريدك الإلكتروني في QR Creator',
    paragraphs: [
      `تم تغيير عنوان البريد الإلكتروني لحسابك ${username} في QR Creator إلى ${newEmail}.`,
      `إذا لم تُجرِ هذا التغيير، فافتح الرابط أدناه خلال ${daysText(days)}: سيُعيد هذا العنوان إلى الحساب، ويسجّل الخروج من جميع المتصفحات، ويلغي جميع رموز الوصول إلى API الخاصة بالحساب. ثم اختر كلمة مرور جديدة.${resetStillHere ? ' وإلى أن يتم التحقق من العنوان الجديد، ستظل روابط إعادة تعيين كلمة المرور تصل إلى هذا العنوان.' : ''}`,
    ],
    action: 'التراجع عن هذا التغيير',
    footer: 'إذا أجريت هذا التغيير بنفسك، فلا حاجة إلى أي إجراء.',
  }),

  testMailFooter: ({ sender }) => `رسالة تجريبية أرسلها ${sender} من إعدادات QR Creator.`,

  scanDigest: ({ total, day, timeZone, sections }) => ({
    subject: `مُسحت رموز QR الخاصة بك ${timesText(total)} أمس`,
    paragraphs: [
      `عمليات مسح رموز QR الخاصة بك في ${day} (${timeZone})، دون احتساب برامج الروبوت:`,
      ...sections.map((s) => {
        const lines = s.codes.map((c) => `${c.name}: ${scansText(c.scans)}`);
        return (s.team === null ? lines : [`الفريق «${s.team}»:`, ...lines]).join('\n');
      }),
    ],
    action: 'فتح التحليلات',
    footer: 'يصلك هذا الملخص اليومي لأن خيار «عمليات مسح رموز QR» مفعّل في الإعدادات ← الإشعارات.',
  }),

  scanThreshold: ({ codeName, team, level, scans }) => ({
    subject: `تجاوز «${codeName}» ${f.plural(level, {
      zero: `${f.count(level)} عملية مسح`,
      one: 'عملية مسح واحدة',
      two: 'عمليتي مسح',
      few: `${f.count(level)} عمليات مسح`,
      many: `${f.count(level)} عملية مسح`,
      other: `${f.count(level)} عملية مسح`,
    })}`,
    paragraphs: [
      `مُسح ${team === null ? `رمز QR الخاص بك «${codeName}»` : `رمز QR «${codeName}» التابع للفريق «${team}»`} ${timesText(scans)} حتى الآن (دون احتساب برامج الروبوت).`,
    ],
    action: 'عرض التفاصيل',
    footer: 'تصلك هذه الرسالة لأن خيار «عتبات المسح» مفعّل في الإعدادات ← الإشعارات.',
  }),

  teamUpgradeRequest: ({ username, team, plan }) => ({
    subject: `طلب ترقية لمساحة عمل الفريق «${team}»: ${plan}`,
    paragraphs: [
      `يطلب ${username} نقل مساحة عمل الفريق «${team}» إلى خطة ${plan}.`,
      'عيّن خطة الفريق من صفحة «مساحات العمل» في لوحة الإدارة.',
    ],
    action: 'فتح مساحات العمل',
  }),

  upgradeRequest: ({ who, plan }) => ({
    subject: `طلب ترقية من ${who}: ${plan}`,
    paragraphs: [
      `يطلب ${who} الانتقال إلى خطة ${plan}.`,
      'وافق على الطلب أو ارفضه من قسم «طلبات الترقية» في صفحة «الاشتراكات».',
    ],
    action: 'فتح طلبات الترقية',
  }),

  upgradeApproved: ({ plan, until }) => ({
    subject: `أصبحت الآن على خطة ${plan}`,
    paragraphs: [`وافق أحد المسؤولين على طلبك: حسابك على خطة ${plan} حتى ${until}.`],
    action: 'عرض خطتك',
  }),

  upgradeDeclined: ({ plan }) => ({
    subject: `تم رفض طلبك للانتقال إلى خطة ${plan}`,
    paragraphs: [`رفض أحد المسؤولين طلبك للانتقال إلى خطة ${plan}. تبقى خطتك كما هي.`],
    action: 'عرض خطتك',
  }),

  webhookDisabled: ({ url, hours }) => ({
    subject: `تم تعطيل Webhook: ${url}`,
    paragraphs: [
      `فشلت جميع عمليات الإرسال إلى Webhook ${url} طوال ${hoursText(hours)}، لذا تم تعطيله وإلغاء عمليات الإرسال المنتظرة.`,
      'تحقق من أن العنوان يستجيب بحالة 2xx، ثم أعد تفعيل Webhook. يوضح سجل الإرسال الخاص به ما ردّ به الطرف المستقبِل.',
    ],
    action: 'فتح Webhook',
    footer: 'تصلك هذه الرسالة لأنك مسؤول في مساحة العمل هذه.',
  }),
};
