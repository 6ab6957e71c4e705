import { formatters } from './format.js';
import type { CheckedUrl, DestinationProblem, InvitedRole, MailMessages } from './messages.js';

const f = formatters('ja');

const problemText = (p: DestinationProblem): string => {
  switch (p.kind) {
    case 'http':
      return p.status === 404
        ? '404 エラー（ページが見つかりません）'
        : p.status >= 500
          ? `サーバーエラー（${p.status}）`
          : `${p.status} エラー`;
    case 'dns':
      return 'ドメイン名を解決できません';
    case 'tls':
      return '証明書が無効です';
    case 'timeout':
      return '時間内に応答がありません';
    case 'refused':
      return '接続が拒否されました';
    case 'protocol':
      return 'ウェブページとして応答しません';
  }
};

const whichUrl = (which: CheckedUrl): string =>
  which.kind === 'rule' ? `ルール ${which.rule} のリンク先` : 'フォールバック URL';

const roleName: Record<InvitedRole, string> = {
  viewer: '閲覧者',
  editor: '編集者',
  admin: '管理者',
  owner: '所有者',
};

/** Japanese (polite です・ます form, as Japanese service mails are written; the name with 様). */
export const ja: MailMessages = {
  locale: 'ja',
  layout: {
    greeting: (name) => `${name} 様`,
    greetingAnyone: 'こんにちは。',
    openLink: 'ボタンが使えない場合は、次のリンクを開いてください：',
    footer: 'このメールは QR Creator から送信されました。',
  },

  destinationDown: ({ codeName, team, which, url, problem }) => ({
    subject: `「${codeName}」：${problem ? problemText(problem) : 'リンク先にアクセスできません'}`,
    paragraphs: [
      `${team ? 'チームの ' : ''}QR コード「${codeName}」の${which.kind === 'destination' ? 'リンク先' : `${whichUrl(which)}（${url}）`}が、2回続けてチェックに失敗しました：${problem ? problemText(problem) : 'アクセスできません'}。`,
      `URL：${url}`,
      '印刷済みのコードは、今もこの URL に利用者を案内しています。リンク先を変更するか、フォールバック URL を設定して、リンク先が復旧するまでスキャンをそちらに転送してください。',
    ],
    action: 'もう一度チェック',
    footer: 'このメールは、コードのリンク先が動作しなくなるたびに1回お送りしています。',
  }),

  twoFactorLocked: ({ username, failures, address, minutes }) => ({
    subject: 'QR Creator アカウントの2段階認証がロックされました',
    paragraphs: [
      `QR Creator アカウント「${username}」の正しいパスワードが入力された後、2段階認証の誤ったコードが${f.count(failures)}回入力されました（接続元：${address}）。コードの入力は${f.count(minutes)}分間ロックされます。`,
      'お心当たりがない場合、パスワードが第三者に知られています。すぐにログインしてパスワードを変更してください。変更すると、他のすべてのブラウザからもログアウトされ、すべての API トークンが無効になります。',
    ],
    action: 'QR Creator を開く',
  }),

  passwordReset: ({ username, hours }) => ({
    subject: 'QR Creator のパスワードの再設定',
    paragraphs: [
      `QR Creator アカウント「${username}」のパスワード再設定のリクエストを受け付けました。${f.count(hours)}時間以内にリンクを開いて、新しいパスワードを設定してください。`,
      '新しいパスワードを設定すると、アカウントのすべてのブラウザからログアウトされ、すべての API トークンが無効になります。',
    ],
    action: '新しいパスワードを設定',
    footer:
      'このリンクは1回のみ有効です。お心当たりがない場合は、このメールを破棄してください。パスワードは変更されません。',
  }),

  passwordChanged: ({ username, how, sessions, tokens }) => ({
    subject: 'QR Creator のパスワードが変更されました',
    paragraphs: [
      `QR Creator アカウント「${username}」のパスワードが${
        {
          changed: 'プロフィールから変更されました',
          reset: 'メールでお送りしたリンクから再設定されました',
          admin: '管理者によって再設定されました',
        }[how]
      }。`,
      `${how === 'changed' ? '他のすべてのブラウザ' : 'すべてのブラウザ'}からログアウトされ（セッション${f.count(sessions)}件）、すべての API トークンが無効になりました（トークン${f.count(tokens)}件）。スクリプトには新しいトークンが必要です。`,
      'お心当たりがない場合は、すぐにパスワードを再設定し、管理者にご連絡ください。',
    ],
    action: 'パスワードを再設定',
  }),

  verifyEmail: ({ hours }) => ({
    subject: 'QR Creator のメールアドレスの確認',
    paragraphs: [`${f.count(hours)}時間以内にリンクを開いて、メールアドレスを確認してください。`],
    action: 'メールアドレスを確認',
    footer:
      'QR Creator のアカウントを作成した覚えやメールアドレスを変更した覚えがない場合は、このメールを破棄してください。',
  }),

  newSignIn: ({ username, when, browser, os, address }) => ({
    subject: 'QR Creator アカウントへの新しいログイン',
    paragraphs: [
      `お使いのアカウント ${username} に、これまで使われたことのないブラウザまたは IP アドレスからログインがありました。`,
      `日時：${when}\nブラウザ：${browser ?? '不明なブラウザ'}（${os ?? '不明な OS'}）\nIP アドレス：${address}`,
      'ご本人によるログインであれば、対応は不要です。お心当たりがない場合は、すぐにパスワードを変更し、「設定 → セキュリティ」で他のすべてのセッションからログアウトしてください。',
    ],
    action: 'セッションを確認',
    footer: '「設定 → セキュリティ」でログイン通知がオンになっているため、このメールをお送りしています。',
  }),

  registrationAttempt: () => ({
    subject: 'お使いのメールアドレスで登録が試みられました',
    paragraphs: [
      'このメールアドレスで QR Creator アカウントを作成しようとする操作がありました。このアドレスはすでにお客様のアカウントで使われているため、アカウントは作成されていません。',
      'ご本人による操作の場合は、代わりにログインしてください。パスワードをお忘れの場合は再設定できます。お心当たりがない場合は、このメールを破棄してください。',
    ],
    action: 'ログイン',
  }),

  invitation: ({ inviter, workspace, role, days }) => ({
    subject: `${inviter} さんから QR Creator のワークスペース「${workspace}」への招待が届いています`,
    paragraphs: [
      `${inviter} さんから、チームワークスペース「${workspace}」に${roleName[role]}として招待されました。参加すると、このワークスペースの QR コードで共同作業ができます。`,
      `招待の有効期間は${f.count(days)}日間です。ログインするかアカウントを作成してから、招待を承諾してください。`,
    ],
    action: '招待を開く',
    footer: 'この招待にお心当たりがない場合は、このメールを破棄してください。',
  }),

  emailChanged: ({ username, newEmail, resetStillHere, days }) => ({
    subject: 'QR Creator のメールアドレスが変更されました',
    paragraphs: [
      `QR Creator アカウント ${username} のメールアドレスが ${newEmail} に変更されました。`,
      `この変更にお心当たりがない場合は、${f.count(days)}日以内に下のリンクを開いてください。メールアドレスがこのアドレスに戻り、すべてのブラウザからログアウトされ、アカウントのすべての API トークンが無効になります。その後、新しいパスワードを設定してください。${resetStillHere ? '新しいアドレスの確認が済むまでは、パスワード再設定のリンクは引き続きこのアドレスに届きます。' : ''}`,
    ],
    action: 'この変更を取り消す',
    footer: 'ご自身で変更された場合は、対応は不要です。',
  }),

  testMailFooter: ({ sender }) => `${sender} さんが QR Creator の設定から送信したテストメッセージです。`,

  scanDigest: ({ total, day, timeZone, sections }) => ({
    subject: `昨日、QR コードが${f.count(total)}回スキャンされました`,
    paragraphs: [
      `${day}（${timeZone}）の QR コードのスキャン数です（ボットを除く）：`,
      ...sections.map((s) => {
        const lines = s.codes.map((c) => `${c.name}：${f.count(c.scans)}回`);
        return (s.team === null ? lines : [`チーム「${s.team}」：`, ...lines]).join('\n');
      }),
    ],
    action: 'アナリティクスを開く',
    footer:
      '「設定 → 通知」で「QR コードのスキャン」がオンになっているため、この日次サマリーをお送りしています。',
  }),

  scanThreshold: ({ codeName, team, level, scans }) => ({
    subject: `「${codeName}」のスキャン数が${f.count(level)}回を超えました`,
    paragraphs: [
      `${team === null ? `QR コード「${codeName}」` : `チーム「${team}」の QR コード「${codeName}」`}は、これまでに${f.count(scans)}回スキャンされました（ボットを除く）。`,
    ],
    action: '詳細を見る',
    footer: '「設定 → 通知」で「スキャン数のしきい値」がオンになっているため、このメールをお送りしています。',
  }),

  teamUpgradeRequest: ({ username, team, plan }) => ({
    subject: `チームワークスペース「${team}」のアップグレード申請：${plan}`,
    paragraphs: [
      `${username} さんが、チームワークスペース「${team}」を ${plan} プランに変更するよう申請しています。`,
      '管理画面の「ワークスペース」で、このチームのプランを設定してください。',
    ],
    action: 'ワークスペースを開く',
  }),

  upgradeRequest: ({ who, plan }) => ({
    subject: `${who} さんからのアップグレード申請：${plan}`,
    paragraphs: [
      `${who} さんが ${plan} プランへの変更を申請しています。`,
      '「サブスクリプション」ページの「アップグレード申請」で、申請を承認または却下してください。',
    ],
    action: 'アップグレード申請を開く',
  }),

  upgradeApproved: ({ plan, until }) => ({
    subject: `${plan} プランをご利用いただけるようになりました`,
    paragraphs: [
      `管理者が申請を承認しました。お客様のアカウントでは ${until} まで ${plan} プランをご利用いただけます。`,
    ],
    action: 'プランを確認',
  }),

  upgradeDeclined: ({ plan }) => ({
    subject: `${plan} プランへの申請は承認されませんでした`,
    paragraphs: [`${plan} プランへの申請は、管理者により却下されました。現在のプランに変更はありません。`],
    action: 'プランを確認',
  }),

  webhookDisabled: ({ url, hours }) => ({
    subject: `Webhook を無効にしました：${url}`,
    paragraphs: [
      `Webhook ${url} への送信が${f.count(hours)}時間にわたってすべて失敗したため、この Webhook を無効にし、送信待ちのデータを破棄しました。`,
      'この URL が 2xx ステータスで応答することを確認してから、Webhook を再度有効にしてください。受信側の応答内容は、Webhook の送信ログで確認できます。',
    ],
    action: 'Webhook を開く',
    footer: 'ワークスペースの管理者の方に、このメールをお送りしています。',
  }),
};
