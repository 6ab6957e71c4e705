import { formatters } from './format.js';
import type { CheckedUrl, DestinationProblem, InvitedRole, MailMessages } from './messages.js';

const f = formatters('en');

const problemText = (p: DestinationProblem): string => {
  switch (p.kind) {
    case 'http':
      return p.status === 404
        ? 'Opens a 404'
        : p.status >= 500
          ? `Server error ${p.status}`
          : `Opens a ${p.status}`;
    case 'dns':
      return 'Its address does not resolve';
    case 'tls':
      return 'Its certificate is not valid';
    case 'timeout':
      return 'Does not answer in time';
    case 'refused':
      return 'Refuses the connection';
    case 'protocol':
      return 'Does not answer as a web page';
  }
};

const whichUrl = (which: CheckedUrl): string =>
  which.kind === 'rule' ? `Rule ${which.rule}: Destination` : 'Fallback URL';

const roleName: Record<InvitedRole, string> = {
  viewer: 'viewer',
  editor: 'editor',
  admin: 'admin',
  owner: 'owner',
};

export const en: MailMessages = {
  locale: 'en',
  layout: {
    greeting: (name) => `Hello ${name},`,
    greetingAnyone: 'Hello,',
    openLink: 'Or open this link:',
    footer: 'This message was sent by QR Creator.',
  },

  destinationDown: ({ codeName, team, which, url, problem }) => ({
    subject: `"${codeName}": ${problem ? problemText(problem) : 'its destination fails'}`,
    paragraphs: [
      `${which.kind === 'destination' ? 'The destination' : `${whichUrl(which)} (${url})`} of ${team ? 'the' : 'your'} QR code "${codeName}" failed twice in a row: ${problem ? problemText(problem) : 'it fails'}.`,
      `Address: ${url}`,
      'Printed codes still send people there. Change the destination, or set a fallback URL and let scans use it while the destination is down.',
    ],
    action: 'Check again',
    footer: 'You get this mail once each time a destination of your codes stops working.',
  }),

  twoFactorLocked: ({ username, failures, address, minutes }) => ({
    subject: 'Two-factor sign-in to your QR Creator account was locked',
    paragraphs: [
      `Someone entered the right password of your QR Creator account "${username}" and then ${failures} wrong two-factor codes (from ${address}). The code step is locked for ${minutes} minutes.`,
      'If this was not you, your password is known to someone else: sign in and change it now. Changing it also signs every other browser out and revokes every API token.',
    ],
    action: 'Open QR Creator',
  }),

  passwordReset: ({ username, hours }) => ({
    subject: 'Reset your QR Creator password',
    paragraphs: [
      `Someone (hopefully you) asked to reset the password of your QR Creator account "${username}". Open the link within ${f.plural(hours, { one: '1 hour', other: `${hours} hours` })} to choose a new password.`,
      'A new password signs out every browser and revokes every API token of the account.',
    ],
    action: 'Choose a new password',
    footer:
      'The link works once. If you did not ask for this, ignore this message: your password stays as it is.',
  }),

  passwordChanged: ({ username, how, sessions, tokens }) => ({
    subject: 'Your QR Creator password was changed',
    paragraphs: [
      `The password of your QR Creator account "${username}" ${
        {
          changed: 'was changed from your profile',
          reset: 'was reset with a link mailed to you',
          admin: 'was reset by an administrator',
        }[how]
      }.`,
      `${how === 'changed' ? 'Every other browser' : 'Every browser'} was signed out (${f.plural(sessions, { one: `${sessions} session`, other: `${sessions} sessions` })}) and every API token revoked (${f.plural(tokens, { one: `${tokens} token`, other: `${tokens} tokens` })}): scripts need a new token.`,
      'If you did not do this, reset your password at once and tell your administrator.',
    ],
    action: 'Reset your password',
  }),

  verifyEmail: ({ hours }) => ({
    subject: 'Verify your QR Creator e-mail address',
    paragraphs: [
      `Please confirm your e-mail address by opening the link within ${f.plural(hours, { one: '1 hour', other: `${hours} hours` })}.`,
    ],
    action: 'Verify e-mail address',
    footer: 'If you did not create a QR Creator account or change its address, ignore this message.',
  }),

  newSignIn: ({ username, when, browser, os, address }) => ({
    subject: 'New sign-in to your QR Creator account',
    paragraphs: [
      `Your account ${username} was just signed in to from a browser or address it had not used before.`,
      `When: ${when}\nBrowser: ${browser ?? 'Unknown browser'} on ${os ?? 'unknown OS'}\nAddress: ${address}`,
      'If this was you, there is nothing to do. If not, change your password now and sign out every other session in Settings → Security.',
    ],
    action: 'Review your sessions',
    footer: 'You get this mail because login alerts are on in Settings → Security.',
  }),

  registrationAttempt: () => ({
    subject: 'Someone tried to register with your address',
    paragraphs: [
      'Someone just tried to create a QR Creator account with this e-mail address, which already belongs to your account. No account was created.',
      'If it was you, log in instead, or reset your password if you forgot it. If not, you can ignore this message.',
    ],
    action: 'Log in',
  }),

  invitation: ({ inviter, workspace, role, days }) => ({
    subject: `${inviter} invited you to ${workspace} on QR Creator`,
    paragraphs: [
      `${inviter} invited you to work on the QR codes of the team workspace "${workspace}" as ${roleName[role]}.`,
      `The invitation is valid for ${f.plural(days, { one: '1 day', other: `${days} days` })}. Sign in or create an account, then accept it.`,
    ],
    action: 'Open the invitation',
    footer: 'If you did not expect this invitation, ignore this message.',
  }),

  emailChanged: ({ username, newEmail, resetStillHere, days }) => ({
    subject: 'Your QR Creator e-mail address was changed',
    paragraphs: [
      `The e-mail address of your QR Creator account ${username} was changed to ${newEmail}.`,
      `If you did not make this change, open the link below within ${f.plural(days, { one: '1 day', other: `${days} days` })}: it puts this address back, signs every browser out and revokes every API token of the account. Then choose a new password.${resetStillHere ? ' Until the new address is verified, password reset links still come here.' : ''}`,
    ],
    action: 'Undo this change',
    footer: 'If you made this change yourself, there is nothing to do.',
  }),

  testMailFooter: ({ sender }) => `A test message sent by ${sender} from the QR Creator settings.`,

  scanDigest: ({ total, day, timeZone, sections }) => ({
    subject: `Your QR codes were scanned ${f.count(total)} ${f.plural(total, { one: 'time', other: 'times' })} yesterday`,
    paragraphs: [
      `Scans of your QR codes on ${day} (${timeZone}), not counting bots:`,
      ...sections.map((s) => {
        const lines = s.codes.map(
          (c) => `${c.name}: ${f.count(c.scans)} ${f.plural(c.scans, { one: 'scan', other: 'scans' })}`,
        );
        return (s.team === null ? lines : [`Team ${s.team}:`, ...lines]).join('\n');
      }),
    ],
    action: 'Open analytics',
    footer: 'You get this daily digest because QR code scans are on in Settings → Notifications.',
  }),

  scanThreshold: ({ codeName, team, level, scans }) => ({
    subject: `"${codeName}" passed ${f.count(level)} scans`,
    paragraphs: [
      `${team === null ? `Your QR code "${codeName}"` : `The QR code "${codeName}" of team ${team}`} has been scanned ${f.count(scans)} times (not counting bots).`,
    ],
    action: 'See its details',
    footer: 'You get this mail because Scan thresholds are on in Settings → Notifications.',
  }),

  teamUpgradeRequest: ({ username, team, plan }) => ({
    subject: `Upgrade request for the team workspace ${team}: ${plan}`,
    paragraphs: [
      `${username} asks to move the team workspace "${team}" to the ${plan} plan.`,
      "Set the team's plan under Workspaces in the admin area.",
    ],
    action: 'Open workspaces',
  }),

  upgradeRequest: ({ who, plan }) => ({
    subject: `Upgrade request from ${who}: ${plan}`,
    paragraphs: [
      `${who} asks to move to the ${plan} plan.`,
      'Approve or decline the request under Upgrade requests on the Subscriptions page.',
    ],
    action: 'Open upgrade requests',
  }),

  upgradeApproved: ({ plan, until }) => ({
    subject: `You are on ${plan} now`,
    paragraphs: [
      `An administrator approved your request: your account is on the ${plan} plan until ${until}.`,
    ],
    action: 'See your plan',
  }),

  upgradeDeclined: ({ plan }) => ({
    subject: `Your request for ${plan} was declined`,
    paragraphs: [`An administrator declined your request for the ${plan} plan. Your plan stays as it was.`],
    action: 'See your plan',
  }),

  webhookDisabled: ({ url, hours }) => ({
    subject: `Webhook disabled: ${url}`,
    paragraphs: [
      `Every delivery to the webhook ${url} failed for ${f.plural(hours, { one: '1 hour', other: `${hours} hours` })}, so it was disabled and its waiting deliveries were given up.`,
      'Check that the address answers with a 2xx status, then turn the webhook on again. Its delivery log shows what the receiver answered.',
    ],
    action: 'Open the webhook',
    footer: 'You get this mail because you are an admin of the workspace.',
  }),
};
