import { formatters } from './format.js';
import type { CheckedUrl, DestinationProblem, InvitedRole, MailMessages } from './messages.js';

const f = formatters('zh-CN');

const problemText = (p: DestinationProblem): string => {
  switch (p.kind) {
    case 'http':
      return p.status === 404
        ? '返回 404（页面不存在）'
        : p.status >= 500
          ? `服务器错误 ${p.status}`
          : `返回 ${p.status} 错误`;
    case 'dns':
      return '域名无法解析';
    case 'tls':
      return '证书无效';
    case 'timeout':
      return '响应超时';
    case 'refused':
      return '连接被拒绝';
    case 'protocol':
      return '返回的不是网页';
  }
};

const whichUrl = (which: CheckedUrl): string =>
  which.kind === 'rule' ? `规则 ${which.rule} 的目标网址` : '备用网址';

const roleName: Record<InvitedRole, string> = {
  viewer: '查看者',
  editor: '编辑者',
  admin: '管理员',
  owner: '所有者',
};

/** Simplified Chinese (mainland usage: concise, 您). */
export const zhCN: MailMessages = {
  locale: 'zh-CN',
  layout: {
    greeting: (name) => `${name}，您好：`,
    greetingAnyone: '您好：',
    openLink: '或打开此链接：',
    footer: '此邮件由 QR Creator 发送。',
  },

  destinationDown: ({ codeName, team, which, url, problem }) => ({
    subject: `“${codeName}”：${problem ? problemText(problem) : '目标网址无法访问'}`,
    paragraphs: [
      `${team ? '团队' : '您的'}二维码“${codeName}”的${which.kind === 'destination' ? '目标网址' : `${whichUrl(which)}（${url}）`}连续两次检查失败：${problem ? problemText(problem) : '无法访问'}。`,
      `网址：${url}`,
      '已印刷的二维码仍会把用户引导到该网址。请更改目标网址，或设置备用网址，在目标网址无法访问期间让扫描跳转到备用网址。',
    ],
    action: '重新检查',
    footer: '每当您的二维码有目标网址失效时，您都会收到一次此邮件。',
  }),

  twoFactorLocked: ({ username, failures, address, minutes }) => ({
    subject: '您的 QR Creator 账号的两步验证已被锁定',
    paragraphs: [
      `有人输入了您的 QR Creator 账号“${username}”的正确密码，随后输错了 ${f.count(failures)} 次两步验证码（来自 ${address}）。验证码输入已被锁定 ${f.count(minutes)} 分钟。`,
      '如果这不是您本人操作，说明您的密码已被他人知晓：请立即登录并修改密码。修改密码还会让其他所有浏览器退出登录，并撤销所有 API 令牌。',
    ],
    action: '打开 QR Creator',
  }),

  passwordReset: ({ username, hours }) => ({
    subject: '重置您的 QR Creator 密码',
    paragraphs: [
      `有人（希望是您本人）申请重置您的 QR Creator 账号“${username}”的密码。请在 ${f.count(hours)} 小时内打开链接，设置新密码。`,
      '设置新密码后，该账号在所有浏览器上都将退出登录，所有 API 令牌都将被撤销。',
    ],
    action: '设置新密码',
    footer: '此链接仅可使用一次。如果您没有申请重置密码，请忽略此邮件，您的密码不会改变。',
  }),

  passwordChanged: ({ username, how, sessions, tokens }) => ({
    subject: '您的 QR Creator 密码已更改',
    paragraphs: [
      `您的 QR Creator 账号“${username}”的密码${
        {
          changed: '已在个人资料中更改',
          reset: '已通过发送到您邮箱的链接重置',
          admin: '已由管理员重置',
        }[how]
      }。`,
      `${how === 'changed' ? '其他所有浏览器' : '所有浏览器'}均已退出登录（${f.count(sessions)} 个会话），所有 API 令牌均已撤销（${f.count(tokens)} 个令牌）：脚本需要使用新令牌。`,
      '如果这不是您本人操作，请立即重置密码，并告知您的管理员。',
    ],
    action: '重置密码',
  }),

  verifyEmail: ({ hours }) => ({
    subject: '验证您的 QR Creator 邮箱地址',
    paragraphs: [`请在 ${f.count(hours)} 小时内打开链接，确认您的邮箱地址。`],
    action: '验证邮箱地址',
    footer: '如果您没有注册 QR Creator 账号，也没有更改过邮箱地址，请忽略此邮件。',
  }),

  newSignIn: ({ username, when, browser, os, address }) => ({
    subject: '您的 QR Creator 账号有新的登录',
    paragraphs: [
      `您的账号 ${username} 刚刚在一个此前未使用过的浏览器或 IP 地址上登录。`,
      `时间：${when}\n浏览器：${browser ?? '未知浏览器'}（${os ?? '未知操作系统'}）\nIP 地址：${address}`,
      '如果是您本人登录，则无需任何操作。如果不是，请立即修改密码，并在“设置 → 安全”中退出其他所有会话。',
    ],
    action: '查看会话',
    footer: '您收到此邮件，是因为您在“设置 → 安全”中开启了登录提醒。',
  }),

  registrationAttempt: () => ({
    subject: '有人尝试使用您的邮箱地址注册',
    paragraphs: [
      '有人刚刚尝试使用此邮箱地址创建 QR Creator 账号，但该地址已属于您的账号。系统未创建任何账号。',
      '如果是您本人，请直接登录；如果忘记了密码，可以重置密码。如果不是您本人，可以忽略此邮件。',
    ],
    action: '登录',
  }),

  invitation: ({ inviter, workspace, role, days }) => ({
    subject: `${inviter} 邀请您加入 QR Creator 上的“${workspace}”`,
    paragraphs: [
      `${inviter} 邀请您以${roleName[role]}身份加入团队工作区“${workspace}”，一起处理其中的二维码。`,
      `邀请在 ${f.count(days)} 天内有效。请先登录或创建账号，然后接受邀请。`,
    ],
    action: '查看邀请',
    footer: '如果您没有预料到此邀请，请忽略此邮件。',
  }),

  emailChanged: ({ username, newEmail, resetStillHere, days }) => ({
    subject: '您的 QR Creator 邮箱地址已更改',
    paragraphs: [
      `您的 QR Creator 账号 ${username} 的邮箱地址已更改为 ${newEmail}。`,
      `如果这不是您本人所做的更改，请在 ${f.count(days)} 天内打开下方链接：它会恢复此邮箱地址，让所有浏览器退出登录，并撤销该账号的所有 API 令牌。然后请设置新密码。${resetStillHere ? '在新地址通过验证之前，密码重置链接仍会发送到此地址。' : ''}`,
    ],
    action: '撤销此更改',
    footer: '如果是您本人所做的更改，则无需任何操作。',
  }),

  testMailFooter: ({ sender }) => `这是 ${sender} 从 QR Creator 设置中发送的测试邮件。`,

  scanDigest: ({ total, day, timeZone, sections }) => ({
    subject: `您的二维码昨天被扫描了 ${f.count(total)} 次`,
    paragraphs: [
      `您的二维码在 ${day}（${timeZone}）的扫描次数（不含机器人）：`,
      ...sections.map((s) => {
        const lines = s.codes.map((c) => `${c.name}：扫描 ${f.count(c.scans)} 次`);
        return (s.team === null ? lines : [`团队“${s.team}”：`, ...lines]).join('\n');
      }),
    ],
    action: '查看数据分析',
    footer: '您收到此每日汇总，是因为您在“设置 → 通知”中开启了“二维码扫描”。',
  }),

  scanThreshold: ({ codeName, team, level, scans }) => ({
    subject: `“${codeName}”的扫描次数已超过 ${f.count(level)} 次`,
    paragraphs: [
      `${team === null ? `您的二维码“${codeName}”` : `团队“${team}”的二维码“${codeName}”`}已被扫描 ${f.count(scans)} 次（不含机器人）。`,
    ],
    action: '查看详情',
    footer: '您收到此邮件，是因为您在“设置 → 通知”中开启了“扫描次数阈值”。',
  }),

  teamUpgradeRequest: ({ username, team, plan }) => ({
    subject: `团队工作区“${team}”的升级申请：${plan}`,
    paragraphs: [
      `${username} 申请将团队工作区“${team}”切换到 ${plan} 套餐。`,
      '请在管理后台的“工作区”中设置该团队的套餐。',
    ],
    action: '打开工作区',
  }),

  upgradeRequest: ({ who, plan }) => ({
    subject: `来自 ${who} 的升级申请：${plan}`,
    paragraphs: [`${who} 申请切换到 ${plan} 套餐。`, '请在“订阅”页面的“升级申请”中批准或拒绝此申请。'],
    action: '查看升级申请',
  }),

  upgradeApproved: ({ plan, until }) => ({
    subject: `您现在使用的是 ${plan} 套餐`,
    paragraphs: [`管理员已批准您的申请：您的账号将使用 ${plan} 套餐，有效期至 ${until}。`],
    action: '查看您的套餐',
  }),

  upgradeDeclined: ({ plan }) => ({
    subject: `您的 ${plan} 套餐申请未获批准`,
    paragraphs: [`管理员拒绝了您的 ${plan} 套餐申请。您的套餐保持不变。`],
    action: '查看您的套餐',
  }),

  webhookDisabled: ({ url, hours }) => ({
    subject: `Webhook 已停用：${url}`,
    paragraphs: [
      `过去 ${f.count(hours)} 小时内，向 Webhook ${url} 的每次推送均失败，因此该 Webhook 已被停用，等待中的推送也已放弃。`,
      '请确认该地址返回 2xx 状态码，然后重新启用该 Webhook。您可以在它的推送日志中查看接收方的响应。',
    ],
    action: '打开 Webhook',
    footer: '您收到此邮件，是因为您是该工作区的管理员。',
  }),
};
