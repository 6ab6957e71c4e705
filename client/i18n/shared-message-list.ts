// The words the client shows but does not write (issue 37): the messages of src/'s shared checks (the zod
// schemas both sides run) and of the server's errors. They stay English in src/ and on the server — the
// API's contract — and are translated where the client shows them: `translateShared(text)`.
//
// Each message is listed here as the English the user reads, a value in it as an ICU placeholder
// (`{max}`), a value that is a constant as the literal English. shared-messages.test.ts checks that each
// one is still written so in src/ or server/, so the list cannot drift from the code silently.
//
// Placeholders, when a text is matched:
// - any placeholder matches any text, and a text that is a number is passed as a number (plurals work);
// - those named in NUMBERS match a number only (a row, a count, a width…), so that two placeholders side
//   by side cannot swallow each other's words;
// - those named in NESTED (`{label}`, `{problem}`) hold another message of this list — a field's name, a
//   check's own message — and match only when that text is one too: it is translated along
//   ('Rule 2: Destination must be a valid URL' → 'Regel 2: Ziel-URL muss eine gültige URL sein').
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

const NUMBERS = new Set([
  'proLimit',
  'proPrice',
  'premiumPrice',
  'codes',
  'condition',
  'contrast',
  'count',
  'days',
  'distance',
  'dpi',
  'factor',
  'failed',
  'left',
  'max',
  'mb',
  'min',
  'minutes',
  'px',
  'row',
  'rows',
  'rule',
  'seconds',
  'share',
  'status',
  'width',
]);
const NESTED = new Set(['label', 'problem']);

export const sharedMessages: readonly MessageDescriptor[] = [
  // ---- Field names, as the messages below name them ({label}) and the forms label their inputs ----
  // src/qr/content-fields.ts
  msg`URL`,
  msg`Email`,
  msg`Subject`,
  msg`Message`,
  msg`Text`,
  msg`Enter your text`,
  msg`Phone number`,
  msg`Network name (SSID)`,
  msg`Password`,
  msg`Security`,
  msg`First name`,
  msg`Last name`,
  msg`Organization`,
  msg`Job title`,
  msg`Website`,
  msg`Title`,
  msg`Location`,
  msg`Description`,
  msg`Start date`,
  msg`End date`,
  msg`Profile URL`,
  msg`PDF URL`,
  msg`Video URL`,
  msg`Image URL`,
  // src/qr/smart-redirect.ts
  msg`Destination`,
  msg`Fallback URL`,
  msg`Active from`,
  msg`Active until`,
  msg({ message: 'From', context: 'the start of a time or date range' }),
  msg({ message: 'Until', context: 'the end of a time or date range' }),
  msg`Devices`,
  msg`Operating systems`,
  msg`Countries`,
  msg`Languages`,
  // src/qr/customization.ts, src/qr/short-domain.schema.ts
  msg`Foreground colour`,
  msg`Frame colour`,
  msg`Home page`,
  msg`Unknown links`,

  // ---- What any field says (src/qr/content.ts, smart-redirect.ts, short-domain.schema.ts, bulk.ts) ----
  msg({
    message: '{label} is required',
    comment: '{label}: the name of the field, translated (Phone number)',
  }),
  msg({ message: '{label} must be at most {max} characters', comment: '{label}: the name of the field' }),
  msg({ message: '{label} must be a valid date', comment: '{label}: the name of the field' }),
  msg({ message: '{label} must be a valid URL', comment: '{label}: the name of the field' }),
  msg({ message: '{label} must be a date and time', comment: '{label}: the name of the field' }),
  msg({
    message: '{label} must be a date and time like 2026-12-24T18:00:00Z',
    comment: '{label}: the name of the field',
  }),
  msg({ message: '{label} must be a time like 09:00', comment: '{label}: the name of the field' }),
  msg({ message: '{label}: choose at least one', comment: '{label}: the name of a list (Countries)' }),
  msg({ message: '{label}: at most {max}', comment: '{label}: the name of a list (Countries)' }),
  msg({ message: '{label} must be an http or https URL', comment: '{label}: the name of the field' }),
  msg({ message: '{label} must be a colour like #1F2937', comment: '{label}: the name of the colour' }),
  msg`Must be a valid URL`,
  msg`Must be a valid email address`,
  msg`Must be a valid phone number`,
  msg`End date must be after the start date`,
  msg`Content is required`,
  msg`Content must be at most 4000 characters`,
  msg`Content is invalid`,
  msg`Invalid value`,

  // ---- Sign-in, registration, password reset (src/auth/auth.schema.ts) ----
  msg`Username is required`,
  msg`Username must be at least 3 characters`,
  msg`Username must be at most 50 characters`,
  msg`Username cannot contain spaces`,
  msg`Email must be at most 254 characters`,
  msg`Invalid email address`,
  msg`Please enter a valid email address`,
  msg`Password is required`,
  msg`Password must be at least 6 characters`,
  msg`Password must be at most 256 characters`,
  msg`Name is required`,
  msg`Name must be at least 2 characters`,
  msg`Name must be at most 100 characters`,
  msg`Token is required`,
  msg`Token is invalid`,
  msg`Please confirm your password`,
  msg`Passwords don't match`,

  // ---- The account: profile, password, two-factor, mail tools (src/auth/account.schema.ts) ----
  msg`Current password is required`,
  msg`Current password must be at most 256 characters`,
  msg`New password is required`,
  msg`Current password is incorrect`,
  msg`Enter your current password to change a verified e-mail address`,
  msg`Password changed`,
  msg`Profile updated`,
  msg`Email address is already registered`,
  msg`Session not found`,
  msg`Please provide recipient email, subject, and message.`,
  msg`Please upload a JPEG, PNG, or SVG image.`,
  msg`Please upload an image smaller than 5MB.`,
  msg`Passwords do not match`,
  msg`Password must be at least 6 characters long.`,
  msg`New passwords do not match.`,
  msg`Subject must be at most 200 characters`,
  msg`Message must be at most 10000 characters`,
  msg`Invalid sender address`,
  msg`Invalid authentication code`,
  msg`Password is incorrect`,
  msg`Your sign-in has expired. Please log in again.`,
  msg`Two-factor authentication is already on`,
  msg`Start again: no two-factor set-up is waiting for a code`,
  msg`Two-factor authentication is not on`,
  msg`Enter the 6-digit code from your authenticator app.`,
  msg`Code is required`,
  // src/auth/api-token.schema.ts
  msg`Token not found`,
  msg`Only admins can create a token with the admin scope`,

  // ---- Workspaces (src/workspaces/) ----
  msg`Workspace not found`,
  msg`Member not found`,
  msg`Invitation not found`,
  msg`This invitation is no longer valid`,
  msg`This needs the viewer role in this workspace`,
  msg`This needs the editor role in this workspace`,
  msg`This needs the admin role in this workspace`,
  msg`This needs the owner role in this workspace`,
  msg`A personal workspace has no members`,
  msg`A workspace needs at least one owner: make another member owner first`,
  msg`Only an owner can give or take the owner role`,
  msg`That user is already a member`,
  msg`That user already has a pending invitation`,
  msg`No user with that username`,
  msg`Workspace created`,
  msg`Workspace renamed`,
  msg`Workspace deleted`,
  msg`Invitation sent`,
  msg`Invitation revoked`,
  msg`Invitation accepted`,
  msg`Invitation declined`,
  msg`Role changed`,
  msg`Member removed`,
  msg`You left the workspace`,
  msg`Ownership transferred`,
  msg`QR code moved`,
  msg`The code is already in that workspace`,
  msg`Name must be at most 60 characters`,
  msg`Give either an email address or a username`,
  msg`Sees codes and analytics, downloads`,
  msg`Also creates, edits, moves and deletes codes and folders`,
  msg`Also manages members, invitations and API tokens`,
  msg`Also plan and billing, renames, deletes and transfers the workspace`,

  // ---- Codes, folders, short links (src/qr/) ----
  msg`QR code not found`,
  msg`Folder not found`,
  msg`Static QR codes cannot be edited. Create a new QR code instead.`,
  msg`The type of a QR code cannot be changed`,
  msg`A code cannot be switched between static and dynamic`,
  msg`A dynamic QR code cannot point to its own short link`,
  msg`A dynamic QR code cannot point to a local or private address`,
  msg`A scan test must come from QR Creator itself, not from another site`,
  msg`Type is not a known QR code type`,
  msg`Folder name is required`,
  msg`Folder name must be at most 100 characters`,
  msg`Short link must be at least 3 characters`,
  msg`Short link must be at most 64 characters`,
  msg`Short link may contain only letters, digits, - and _`,
  msg`This short link is reserved`,
  msg`This short link is taken`,
  msg({ message: 'Available', context: 'a short link nobody has yet' }),
  msg`Only dynamic codes have a short link`,
  msg`Version not found`,
  // The design (src/qr/customization.ts)
  msg`Logo URL is too long`,
  msg`Logo URL must be an http(s) address or an uploaded logo`,
  msg`Background colour must be a colour like #FFFFFF or transparent`,
  msg`Frame text must be at most 30 characters`,

  // ---- Smart redirects (src/qr/smart-redirect.ts; server/features/qr/smart-redirect-options.ts) ----
  msg({ message: 'Rule {rule}: {problem}', comment: "{problem}: the check's message, translated" }),
  msg({
    message: 'Rule {rule}, condition {condition}: {problem}',
    comment: "{problem}: the check's message, translated",
  }),
  msg`Countries must be two-letter codes like FR`,
  msg`Languages must be codes like fr`,
  msg`Days: choose at least one`,
  msg`From or until: give at least one`,
  msg`Until must be after from`,
  msg`After must be a number of scans`,
  msg`After must be a whole number`,
  msg`After must be 0 or more`,
  msg`After is too large`,
  msg`Label must be at most 60 characters`,
  msg`Conditions: add at least one`,
  msg`At most 5 conditions`,
  msg`At most 20 rules`,
  msg({
    message: 'UTM {key} must be at most 100 characters',
    comment: '{key}: source, medium, campaign, term or content',
  }),
  msg`Time zone must be a zone like Europe/Paris`,
  msg`Maximum scans must be a whole number`,
  msg`Maximum scans must be at least 1`,
  msg`Maximum scans is too large`,
  msg`Inactive message must be at most 500 characters`,
  msg`Active until must be after active from`,
  msg`Set a fallback URL to use it while the destination is down`,
  msg`Password must be at most 128 characters`,
  msg`Redirect options apply to dynamic codes only`,
  msg`A password applies to dynamic codes only`,
  msg({
    message: 'Redirect rules apply to link codes only ({types})',
    comment: '{types}: the link types, as the designer names them (URL, Social, PDF, Video, Image)',
  }),
  msg`UTM parameters and query forwarding apply to link codes only`,
  msg({
    message: "{label} cannot be one of this server's own short links",
    comment: '{label}: Fallback URL, or Rule 2: Destination (translated)',
  }),
  msg({
    message: '{label} cannot be a local or private address',
    comment: '{label}: Fallback URL, or Rule 2: Destination (translated)',
  }),

  // ---- Printing and the scan check (src/qr/print-size.ts, src/qr/scan-safety.ts) ----
  msg`Print width is required`,
  msg`Print width must be a number`,
  msg`Print width must be at least 1 cm`,
  msg`Print width must be at most 100 cm`,
  msg`DPI is required`,
  msg`DPI must be a number`,
  msg`DPI must be a whole number`,
  msg`DPI must be at least 72`,
  msg`DPI must be at most 1200`,
  msg`Caption text is required`,
  msg`Caption text must be at most 80 characters`,
  msg`These print options are not valid`,
  msg({
    message:
      'At {dpi} dpi a PNG can be at most {max} cm wide (8000 px; this would be {px} px). Choose a smaller width or DPI, or SVG or PDF.',
  }),
  msg({ message: 'Scanned from {distance} m away, print it at least {width} cm wide.' }),
  msg({
    message:
      'At {width} cm this design may not scan: the check could not read it {failed} cm wide (300 dpi), only from {min} cm. Print it at least {min} cm wide, or shorten the content.',
  }),
  msg({
    message:
      'At {width} cm this design may not scan: the check could not read it even {failed} cm wide (300 dpi). Print it bigger, or shorten the content.',
  }),
  msg`The code is lighter than its background; most scanners need dark modules on light.`,
  msg({
    message:
      'The foreground and background differ by only {contrast} % in brightness; print needs at least 40 %.',
  }),
  msg({
    message:
      'The logo hides {share} % of what error correction can repair, leaving little for print and camera flaws.',
  }),
  msg`No scanner could read it, even at full size.`,
  msg`It reads as different content from what you entered.`,
  msg`It decodes only as an inverted code; most scanners never try that.`,
  msg`The light margin around the code is under one module wide; leave white space around it.`,
  msg`Only large prints will scan: it did not decode at 3 cm wide (300 dpi). Print it bigger or shorten the content.`,
  msg({ message: 'Only prints at least {min} cm wide will scan; at 1 cm (300 dpi) it did not decode.' }),
  msg({ message: 'Decodes to exactly your content; contrast {contrast} %.' }),
  msg({
    message: 'Decodes to exactly your content, down to {min} cm wide at 300 dpi; contrast {contrast} %.',
  }),

  // ---- Dead destinations (src/qr/destination-check.ts): "Opens a 404 since 2 days" ----
  msg`Opens a 404`,
  msg({ message: 'Server error {status}' }),
  msg({ message: 'Opens a {status}' }),
  msg`Its address does not resolve`,
  msg`Its certificate is not valid`,
  msg`Does not answer in time`,
  msg`Refuses the connection`,
  msg`Does not answer as a web page`,
  msg({ message: 'Fails', context: 'a destination that does not work' }),
  msg({ message: '{problem} since today', comment: '{problem}: what fails, translated (Opens a 404)' }),
  msg({ message: '{problem} since yesterday', comment: '{problem}: what fails, translated (Opens a 404)' }),
  msg({
    message: '{problem} since {days} days',
    comment: '{problem}: what fails, translated (Opens a 404); {days} is 2 or more',
  }),
  msg`Every destination answers`,
  msg`This destination was checked less than a minute ago`,
  msg`Only a dynamic code has a destination to check`,

  // ---- Short domains (src/qr/short-domain.schema.ts) ----
  msg`Domain is required`,
  msg`Domain must be a host name such as go.example.com (no https://, port or path)`,
  msg`Domain must differ from the app's own address`,
  msg`This domain is already added`,
  msg({
    message:
      '{codes, plural, one {# code uses this domain: give it another domain first} other {# codes use this domain: give them another domain first}}',
  }),
  msg`This domain is not available in this workspace`,
  msg({
    message:
      '{codes, plural, one {The name of a domain that codes use cannot change (# code uses it)} other {The name of a domain that codes use cannot change (# codes use it)}}',
  }),
  msg`This code's short domain is not available in that workspace: give it another domain first`,
  msg`Domain not found`,

  // ---- Plans (src/plans.ts; the plan-limit errors of server/features/qr/) ----
  msg`Upgrade to Pro`,
  msg`Upgrade to Premium`,
  msg`Unlimited access`,
  msg`Free plan`,
  msg`Pro plan`,
  msg`Premium plan`,
  msg({ message: 'Upgrade to Pro to create up to {proLimit} QR codes with advanced features.' }),
  msg({
    message:
      'QR code limit reached. Your plan allows {max} QR codes: upgrade to Pro to create up to {proLimit}.',
  }),
  msg({
    message:
      'QR code limit reached. Your plan allows {max} QR codes: upgrade to Premium for unlimited QR codes.',
  }),
  msg({ message: 'QR code limit reached. Your plan allows {max} QR codes.' }),
  msg({
    message:
      "You've created {count} of {max} QR codes on the Pro plan. Upgrade to Premium for unlimited QR codes.",
  }),
  msg({
    message:
      "You've created {count} of {max} QR codes on the free plan. Upgrade to Pro to create up to {proLimit} QR codes with advanced features.",
  }),
  msg({
    message:
      'Pro (${proPrice}/month, up to {proLimit} codes) and Premium (${premiumPrice}/month, unlimited codes)',
  }),
  msg`Unlimited QR codes`,
  msg({ message: 'Up to {codes} QR codes' }),
  msg`Storage for your logos and profile picture`,
  msg({ message: "{factor}× the Free plan's storage for logos and pictures" }),
  msg`Every plan has every code type, dynamic codes, the full designer, scan analytics, bulk import and API tokens.`,

  // ---- Bulk creation (src/qr/bulk.ts; server/features/qr/bulk-parse.ts, bulk.service.ts) ----
  msg({ message: 'Row {row}: {problem}', comment: "{problem}: the row's problem, translated" }),
  msg`Dynamic must be yes or no (also true/false, 1/0, dynamic/static)`,
  msg({ message: "Over your plan's limit of {max} QR codes" }),
  msg({
    message:
      'These {rows} QR codes do not fit: your plan allows {max} QR codes and you have {count}. Create at most {left}, or upgrade to Pro.',
  }),
  msg({
    message:
      'These {rows} QR codes do not fit: your plan allows {max} QR codes and you have {count}. Create at most {left}, or upgrade to Premium.',
  }),
  msg`At most 5000 codes can be created at once`,
  msg`The file must be at most 5 MB`,
  msg`The file is empty`,
  msg`The file has only a header row: add one row per QR code below it`,
  msg`The file is not a spreadsheet: upload a CSV or an Excel (.xlsx) file`,
  msg`Excel 97-2003 files (.xls) cannot be read: save the sheet as .xlsx or CSV`,
  msg`The Excel file could not be read: save it again as .xlsx, or as CSV`,
  msg`The Excel file has no worksheet`,
  msg`The Excel file is too large once unpacked: keep it to 5000 rows of codes, or save it as CSV`,
  msg`The file has more than 200 columns: keep only the columns the codes need`,
  msg`The file took too long to read: keep it to 5000 rows of codes, or save it as CSV`,
  msg`Too many spreadsheets are being read right now: try again in a few seconds`,

  // ---- Imports from other link shorteners (src/imports/import.schema.ts) ----
  msg`Import not found`,
  msg`This file is not an export we can read: use a Shlink CSV export, a YOURLS SQL dump or CSV, or a Bitly CSV export`,
  msg`The file holds no links`,
  msg`An import holds at most 10,000 links`,
  msg`The file must be at most 20 MB`,
  msg({
    message: '{source} did not answer: check the address',
    comment: '{source}: a link shortener (Shlink)',
  }),
  msg({ message: '{source} refused the API key', comment: '{source}: a link shortener (Shlink)' }),
  msg({
    message: "This address does not answer like {source}'s API",
    comment: '{source}: a link shortener (Shlink)',
  }),
  msg`This address is on a private network: an administrator can allow it with OUTBOUND_ALLOWED_HOSTS`,
  msg({ message: 'Your code “{name}” has this short link', comment: "{name}: the code's name" }),
  msg({ message: 'Row {row} has the same short link' }),
  msg`The destination is not a web address this server can send scanners to`,
  msg`Only a short link of one of your codes can be overwritten`,
  msg`Give the new short link`,
  msg({ message: 'Row {row} is not in this import' }),
  msg`Skip this row or give it another short link`,
  msg`URL must be an http(s) address`,
  msg`API key is required`,

  // ---- Webhooks (src/webhooks/webhook.schema.ts; server/features/webhooks/) ----
  msg`A code is scanned`,
  msg`A code is created`,
  msg`A code is changed`,
  msg`A code is deleted`,
  msg`A destination stops working`,
  msg`The plan’s code limit is reached`,
  msg`Webhook added`,
  msg`Webhook saved`,
  msg`Webhook deleted`,
  msg`Test event sent`,
  msg`Delivery queued again`,
  msg`Webhook not found`,
  msg`Delivery not found`,
  msg`A workspace can have at most 10 webhooks`,
  msg`url: enter an http:// or https:// address`,
  msg`events: choose at least one event`,
  msg`url: enter the address that receives the events`,
  msg`url: at most 2,048 characters`,
  msg`description: at most 200 characters`,
  msg`url: private and loopback addresses are not allowed`,

  // ---- Forwarding to web analytics (src/forwarding/forwarding.schema.ts) ----
  msg`url is required`,
  msg`url must be at most 500 characters`,
  msg`url must be an http(s) address`,
  msg`siteId must be a number`,
  msg`siteId must be a whole number`,
  msg`siteId must be 1 or more`,
  msg`siteId is too large`,
  msg`tokenAuth must not be empty`,
  msg`tokenAuth must be at most 200 characters`,
  msg`tokenAuth must be printable characters without spaces`,
  msg`apiSecret must not be empty`,
  msg`apiSecret must be at most 200 characters`,
  msg`apiSecret must be printable characters without spaces`,
  msg`domain is required`,
  msg`domain must be at most 253 characters`,
  msg`domain must be a domain name such as example.com`,
  msg`measurementId is required`,
  msg`measurementId must look like G-XXXXXXXXXX`,
  msg`apiSecret is required for Google Analytics 4`,
  msg`Forwarding to web analytics is not set up for this workspace`,
  msg`Forwarding to web analytics removed`,

  // ---- Shared dashboards and reports (src/shares/share.schema.ts, src/analytics/analytics.schema.ts) ----
  msg`This shared dashboard does not exist or has expired`,
  msg`Wrong password`,
  msg`This dashboard is protected: unlock it with its password first`,
  msg`Share link not found`,
  msg`Too many requests for shared dashboards: try again in a minute`,
  msg`expiresAt must be in the future`,
  msg`password must not be empty`,
  msg`password must be at most 200 characters`,
  msg`from must not be after to`,
  msg`A report covers at most 3660 days`,

  // ---- Administration (src/admin/admin.schema.ts; server/features/admin/, billing/) ----
  msg`User not found`,
  msg`Username already exists`,
  msg`You cannot delete your own account`,
  msg`You cannot remove your own admin rights`,
  msg`The last admin cannot be deleted or demoted`,
  msg`Only a Pro or Premium subscription can be canceled`,
  msg`Only a Pro or Premium subscription can be extended: upgrade it first`,
  msg`Upgrade request not found`,
  msg`An upgrade request is already waiting for an admin`,
  msg`This request was already decided`,
  msg`Search must be at most 100 characters`,
  msg`Duration must be a number of days`,
  msg`Duration must be a whole number of days`,
  msg`Duration must be between 1 and 365 days`,
  msg`Free plan limit must be a number`,
  msg`Free plan limit must be a whole number`,
  msg`Free plan limit must be 0 or more`,
  msg`Free plan limit must be at most 1,000,000`,
  msg({ message: 'User {username} deleted' }),
  msg`Your request was sent to the administrators. You will get an e-mail when they decide.`,
  msg`Your request was sent to the administrators: they set the team's plan.`,
  msg`This server takes payments through Stripe: use the checkout instead.`,
  msg`Payments through Stripe are not set up on this server`,
  msg({ message: 'Stripe refused the request: {reason}', comment: "{reason}: Stripe's own words" }),
  // The mail tools (server/features/account/account.service.ts, mail/mail-queue.service.ts)
  msg`Email service is working: the SMTP server accepted the connection.`,
  msg`Email service is working: SMTP_URL is not set, so messages are written to the outbox.`,
  msg({ message: 'Failed to verify email service: {reason}', comment: "{reason}: the mail server's words" }),
  msg({ message: 'Failed to send email: {reason}', comment: "{reason}: the mail server's words" }),
  msg({ message: 'Test email sent to {to}' }),
  msg`Queued mail not found`,
  msg`This mail is being sent right now`,
  msg`The link in this mail has expired, so it is not sent: the user can ask for a new one`,
  msg({ message: 'Mail sent to {to}' }),

  // ---- The server's sign-in and account errors (server/features/auth/, account/) ----
  msg`Invalid username or password`,
  msg`Username or email address is already registered`,
  msg`Please verify your email address before logging in. Check your inbox for the link.`,
  msg`Registration is closed on this server. Ask an administrator for an account.`,
  msg`Registration successful! Please check your email to verify your account before logging in.`,
  msg`You have been logged out successfully.`,
  msg`Sign-in with a company account is not set up on this server.`,
  msg`Your company account’s e-mail address is not verified, so it cannot be linked to the existing account with that address. Ask an administrator.`,
  msg`An account with your e-mail address already exists. Enter its password once to link it to your company account.`,
  msg`An account with your e-mail address already exists and signs in another way. Ask an administrator to link it.`,
  msg`This link request has expired. Sign in with your company account again.`,
  msg`Wrong password for the existing account.`,
  msg`Too many wrong passwords. Sign in with your company account again.`,
  msg`Sign-in with a password is turned off on this server. Use your company account.`,
  msg`Your company account is now linked to your existing account.`,
  msg`The company directory is not answering. Try again in a minute.`,
  msg`No such sign-in provider.`,
  msg({
    message: 'Sign-in with {provider} failed. Try again.',
    comment: '{provider}: the company sign-in (Okta)',
  }),
  msg({
    message: 'Sign-in with {provider} took too long or was started in another browser. Try again.',
    comment: '{provider}: the company sign-in (Okta)',
  }),
  msg({
    message: '{provider} is not answering. Try again in a minute.',
    comment: '{provider}: the company sign-in (Okta)',
  }),
  msg`If an account exists with that email, we've sent a password reset link.`,
  msg`This password reset link is invalid, has expired or has already been used.`,
  msg`Your password has been reset. You can now log in with your new password.`,
  msg`If an unverified account exists with that email, we've sent a new verification link.`,
  msg`This verification link is invalid or has already been used.`,
  msg`This verification link has expired. Request a new one below.`,
  msg`Email verified successfully!`,
  msg`This link is invalid, has expired (it works for 7 days) or the change was already undone.`,
  msg`That address now belongs to another account: ask your administrator for help.`,
  msg`Your e-mail address is back. Every browser was signed out and every API token revoked: choose a new password now if anyone else may know it.`,
  msg({ message: 'Verification link sent to {email}. It works for 24 hours.' }),
  msg`Your e-mail address is already verified.`,
  msg`Add an e-mail address to your profile first: the link is sent there.`,
  msg`The verification link could not be sent right now. Please try again in a few minutes.`,
  msg`Two-factor authentication is off`,
  msg`Token revoked`,
  // Rate limits (server/features/auth/login-throttle.ts)
  msg({
    message:
      'Too many failed login attempts. Please try again in {minutes, plural, one {# minute} other {# minutes}}.',
  }),
  msg({
    message:
      'Too many wrong two-factor codes. Please try again in {minutes, plural, one {# minute} other {# minutes}}.',
  }),
  msg({
    message: 'Too many requests. Please try again in {minutes, plural, one {# minute} other {# minutes}}.',
  }),
  msg({
    message:
      'Too many registrations. Please try again in {minutes, plural, one {# minute} other {# minutes}}.',
  }),
  msg({
    message: 'Too many uploads. Please try again in {minutes, plural, one {# minute} other {# minutes}}.',
  }),
  msg({
    message:
      'Too many password attempts. Please try again in {minutes, plural, one {# minute} other {# minutes}}.',
  }),
  msg({
    message:
      'You asked for 5 verification links in the last hour. Please try again in {minutes, plural, one {# minute} other {# minutes}}.',
  }),
  msg({
    message:
      'You asked for 5 verification links in the last hour. Please try again in {seconds, plural, one {# second} other {# seconds}}.',
  }),
  msg({
    message:
      'A verification link was sent less than a minute ago. Please try again in {seconds, plural, one {# second} other {# seconds}}.',
  }),
  msg({
    message:
      'A verification link was sent less than a minute ago. Please try again in {minutes, plural, one {# minute} other {# minutes}}.',
  }),

  // ---- The server's other errors (server/errors.ts, trpc/, features/) ----
  msg`Not signed in`,
  msg`Admin access required`,
  msg`Invalid input`,
  msg`Internal server error`,
  msg`Logo image must be less than 5MB`,
  msg`Only JPG, PNG and SVG files are allowed`,
  msg`SVG files with a DOCTYPE or entities are not allowed`,
  msg`Upload not found`,
  msg`Upload deleted`,
  msg({
    message:
      'Upload storage is full: your plan keeps up to {mb} MB of images. Delete logos you no longer use, or upgrade your plan.',
  }),
  msg`Folder deleted; its QR codes moved to the root`,
  msg`QR code deleted`,
  msg`A code moves into a team workspace`,
  msg`Choose another member to transfer ownership to`,

  // ---- The screens' vocabulary: the names src/ gives its values (shown as they are, translated here) ----
  // Roles in a workspace (src/workspaces/roles.ts; their descriptions above)
  msg({ message: 'Viewer', context: 'a role in a workspace' }),
  msg({ message: 'Editor', context: 'a role in a workspace' }),
  msg({ message: 'Admin', context: 'a role in a workspace' }),
  msg({ message: 'Owner', context: 'a role in a workspace' }),
  // Code types (src/qr/qr-types.ts; URL, Email and Text above, vCard and PDF as they are)
  msg({ message: 'SMS', context: 'a type of QR code: a text message' }),
  msg({ message: 'Wi-Fi', context: 'a type of QR code: joins a Wi-Fi network' }),
  msg({ message: 'Event', context: 'a type of QR code: a calendar event' }),
  msg({ message: 'Social', context: 'a type of QR code: a social media profile' }),
  msg({ message: 'Video', context: 'a type of QR code: a link to a video' }),
  msg({ message: 'Image', context: 'a type of QR code: a link to an image' }),
  msg({
    message: 'Phone',
    context: 'a type of QR code (calls a number), and a kind of device in a rule (a smartphone)',
  }),
  // What a code holds, in a line (describeContent, src/qr/content.ts): 'Wi-Fi: MyNetwork'
  msg({
    message: '{label}: {content}',
    comment: "{label}: the code's type, translated (Wi-Fi); {content}: what it holds, as written",
  }),
  msg({ message: '{label}: (empty)', comment: "{label}: the code's type, translated (Wi-Fi)" }),
  // Wi-Fi security (src/qr/content-fields.ts; WPA/WPA2 and WEP as they are)
  msg({ message: 'None', context: 'no Wi-Fi security: an open network' }),

  // ---- Smart redirects' words (src/qr/smart-redirect.ts; Phone above, the systems' names as they are) ----
  msg({ message: 'Tablet', context: 'a kind of device in a rule' }),
  msg({ message: 'Computer', context: 'a kind of device in a rule' }),
  msg`Device`,
  msg`Operating system`,
  msg`Country`,
  msg`Language`,
  msg`Time of day`,
  msg`Date range`,
  msg`After N scans`,
  msg`Sunday`,
  msg`Monday`,
  msg`Tuesday`,
  msg`Wednesday`,
  msg`Thursday`,
  msg`Friday`,
  msg`Saturday`,
  // Why a code serves no scan
  msg({ message: 'Paused', context: 'why a code answers no scan' }),
  msg`Not started yet`,
  msg({ message: 'Ended', context: 'why a code answers no scan' }),
  msg`Scan limit reached`,
  // Where a scan went (describeOutcome, src/qr/scan-outcome.ts)
  msg({ message: 'Rule {rule}', comment: 'the rule of a code that served a scan (Rule 2)' }),
  msg({ message: 'Rule {rule} ({name})', comment: "{name}: the rule's own name, as the user wrote it" }),
  msg({ message: 'Default', context: "a scan served the code's own destination, no rule" }),
  msg`Password form`,
  msg`Refused: paused`,
  msg`Refused: not started`,
  msg`Refused: ended`,
  msg`Refused: scan limit`,
  msg`Your test scan`,
  msg`Served (not recorded)`,

  // ---- A code's history (src/qr/history.ts): what a change is about, and the short values it shows ----
  msg({ message: 'Name', context: "a code's name, in its history" }),
  msg({ message: 'Content', context: "a code's content, in its history" }),
  msg({ message: 'Design', context: "a code's design, in its history" }),
  msg({ message: 'Rules', context: "a code's redirect rules, in its history" }),
  msg({ message: 'Schedule', context: "a code's active window and scan limit, in its history" }),
  msg({ message: 'Tracking', context: "a code's UTM parameters, in its history" }),
  msg({ message: 'Short link', context: "a code's short link, in its history" }),
  msg`Redirect options`,
  msg({ message: 'none', context: 'in a code history: no rules, no password, no tracking' }),
  msg({ message: 'set', context: "in a code's history: a password is set" }),
  msg`always active`,
  msg`no logo`,
  msg`no frame`,
  msg`another logo`,
  msg`logo removed`,
  msg`the earlier design`,
  msg`a changed design`,
  msg({
    message: '{label} (details changed)',
    comment:
      '{label}: what the code held, translated: the same before and after (a Wi-Fi password is not shown)',
  }),

  // ---- The design (src/qr/customization.ts, customization-values.ts; the call-to-action texts as typed) ----
  msg({ message: 'Classic', context: 'the name of a design template' }),
  msg({ message: 'Blue Modern', context: 'the name of a design template' }),
  msg({ message: 'Framed Business', context: 'the name of a design template' }),
  msg({ message: 'Green Eco', context: 'the name of a design template' }),
  msg({ message: 'Purple Creative', context: 'the name of a design template' }),
  msg({ message: 'Red Alert', context: 'the name of a design template' }),
  msg({ message: 'Orange Event', context: 'the name of a design template' }),
  msg({ message: 'Minimalist', context: 'the name of a design template' }),
  msg({ message: 'Blue', context: 'a colour' }),
  msg({ message: 'Green', context: 'a colour' }),
  msg({ message: 'Purple', context: 'a colour' }),
  msg({ message: 'Black', context: 'a colour' }),
  msg({ message: 'Gray', context: 'a colour' }),
  msg({ message: 'Orange', context: 'a colour' }),
  msg({ message: 'Red', context: 'a colour' }),
  msg({ message: 'Transparent', context: 'a background colour: none' }),
  msg({ message: 'White', context: 'a colour' }),
  msg({ message: 'Light Gray', context: 'a colour' }),
  msg({ message: 'Off White', context: 'a colour' }),
  msg({ message: 'Light Blue', context: 'a colour' }),
  msg({ message: 'Light Green', context: 'a colour' }),
  msg({ message: 'Light Yellow', context: 'a colour' }),
  msg({ message: 'Light Red', context: 'a colour' }),
  msg({ message: 'Low', context: 'error correction level (7 %)' }),
  msg({ message: 'Medium', context: 'error correction level (15 %)' }),
  msg({ message: 'Quartile', context: 'error correction level (25 %)' }),
  msg({ message: 'High', context: 'error correction level (30 %)' }),
  // The scan check (src/qr/scan-safety.ts): its verdicts and its one-click fixes
  msg({ message: 'Scannable', context: 'the verdict of the scan check' }),
  msg({ message: 'Risky', context: 'the verdict of the scan check' }),
  msg({ message: "Won't scan", context: 'the verdict of the scan check' }),
  msg`Raise error correction`,
  msg`Lower error correction`,
  msg`Shrink the logo`,
  msg`Darken the foreground`,
  msg`Swap colours`,
  // Where a print goes (src/qr/print-size.ts)
  msg`Business card`,
  msg`Flyer or leaflet`,
  msg`Menu or table tent`,
  msg`Poster`,
  msg`Shop window or banner`,
  // The redirect export's files (src/qr/redirect-export.schema.ts; their names as they are)
  msg`slug, short URL, destination, name and what is not exported, for a spreadsheet or a script`,
  msg`a map and a server block to include in nginx’s http block`,
  msg`a site block for the short domain`,
  msg`one line per code, for the published folder of a Netlify site`,

  // ---- Plans (src/plans.ts; the plans' names, Free, Pro and Premium, as they are) ----
  msg({ message: '${price}/month', comment: 'a price per month in US dollars' }),

  // ---- Reports (src/analytics/analytics.schema.ts) ----
  msg`Full Analytics Report`,
  msg`Scan Activity`,
  msg`QR Code Performance`,

  // ---- Sessions (server/features/account/account.service.ts) ----
  msg`Unknown browser`,
  msg`Unknown OS`,

  // ---- What a webhook's or a forwarding's endpoint answered (server/features/webhooks/, forwarding/) ----
  msg`Refused: the address is on a private network`,
  msg`No answer within 10 seconds`,
  msg`The connection was refused`,
  msg`The answer was too large`,
  msg`It did not answer as a web server`,
  msg`The delivery could not be sent`,
  msg`The webhook was disabled`,
  msg({ message: 'The receiver answered {status}', comment: '{status}: an HTTP status (500)' }),
  msg`Its deliveries failed for 24 hours`,
  msg`The address is on a private network (OUTBOUND_ALLOWED_HOSTS may allow it)`,
  msg`The address does not resolve`,
  msg`The certificate is not valid`,
  msg`No answer in time`,
  msg`Not an http(s) answer`,
  msg({ message: 'Accepted ({status})', comment: '{status}: an HTTP status (202)' }),
  msg({ message: 'The provider answered {status}', comment: '{status}: an HTTP status (400)' }),
  // The scan sentence's inactive pages (src/qr/scan-outcome.ts inactivePageNames): "… sees the paused page".
  msg`the paused page`,
  msg`the “not active yet” page`,
  msg`the “has ended” page`,
  msg`the “scan limit reached” page`,
  // The admin's toasts (server/features/admin, billing): {name} is a username or a workspace's name.
  msg({
    message:
      'Password reset for {username}; two-factor sign-in turned off, every session signed out and every API token revoked.',
  }),
  msg({ message: 'Password reset for {username}; every session signed out and every API token revoked.' }),
  msg({ message: 'Unlimited access granted to {name}' }),
  msg({ message: 'Unlimited access removed from {name}' }),
  msg({ message: '{name} is on {plan} for {days} days', comment: '{plan}: Free, Pro or Premium' }),
  msg({ message: 'Request of {name} declined' }),
  msg({ message: 'Subscription of {name} extended by {days} days' }),
  msg({ message: 'Subscription of {name} canceled: back on Free now' }),
  msg({ message: 'Subscription of {name} canceled at the end of its period' }),
];
// ---- Matching a text against the list ----

/** A compiled message (scripts/build/lingui.ts): a text, or tokens: a text, `[name]` or `[name, type, options]`. */
type Token = string | [string, string?, unknown?];

/**
 * A capture group of a pattern: the placeholder it fills, or (`choice`) an empty group that says which case
 * of a plural or select matched, with the value that case stands for when it is known.
 */
interface Group {
  name: string;
  choice?: { value: number | string | undefined };
}

interface Pattern {
  descriptor: MessageDescriptor;
  re: RegExp;
  groups: Group[];
  /** The literal text it starts with: most texts are told apart by it before the RegExp runs. */
  prefix: string;
  /** Literal characters: the most specific pattern is tried first. */
  weight: number;
}

interface Index {
  exact: Map<string, MessageDescriptor>;
  patterns: Pattern[];
}

const NUMBER = String.raw`(-?\d+(?:\.\d+)?)`;
const ANY = '([\\s\\S]*?)';
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The tokens of a message, whether the build compiled it or not (then only `{name}` placeholders). */
function tokensOf(message: unknown): Token[] {
  if (Array.isArray(message)) return message as Token[];
  if (typeof message !== 'string') return [];
  return message.split(/\{(\w+)\}/).map((part, i) => (i % 2 === 1 ? [part] : part));
}

/** The RegExp source of `tokens`; `plural` names the value a `#` stands for. */
function sourceOf(tokens: Token[], groups: Group[], plural?: string): string {
  let source = '';
  for (const token of tokens) {
    if (typeof token === 'string') {
      if (token === '#' && plural !== undefined) {
        groups.push({ name: plural });
        source += NUMBER;
      } else source += escape(token);
      continue;
    }
    const [name, type, options] = token;
    if (
      (type === 'plural' || type === 'selectordinal' || type === 'select') &&
      options &&
      typeof options === 'object'
    ) {
      const alternatives: string[] = [];
      for (const [key, value] of Object.entries(options as Record<string, unknown>)) {
        if (key === 'offset' || !Array.isArray(value)) continue;
        // An empty group says which case matched: its value, unless a `#` in it gives the number.
        const choice: { value: number | string | undefined } = { value: undefined };
        groups.push({ name, choice });
        const first = groups.length;
        const inner = sourceOf(value as Token[], groups, type === 'select' ? undefined : name);
        const counted = groups.slice(first).some((g) => g.name === name && !g.choice);
        if (type === 'select') choice.value = key;
        else if (!counted && /^\d+$/.test(key)) choice.value = Number(key);
        else if (!counted) choice.value = ({ zero: 0, one: 1, two: 2 } as Record<string, number>)[key];
        alternatives.push(`()${inner}`);
      }
      source += `(?:${alternatives.join('|')})`;
      continue;
    }
    groups.push({ name });
    source += NUMBERS.has(name) || type === 'number' ? NUMBER : ANY;
  }
  return source;
}

/** How many characters of `tokens` are literal text (a choice counts its shortest case). */
function literalLength(tokens: Token[]): number {
  let length = 0;
  for (const token of tokens) {
    if (typeof token === 'string') length += token === '#' ? 0 : token.length;
    else if (token[2] && typeof token[2] === 'object') {
      const cases = Object.values(token[2] as Record<string, unknown>).filter(Array.isArray) as Token[][];
      length += cases.length ? Math.min(...cases.map(literalLength)) : 0;
    }
  }
  return length;
}

let built: Index | undefined;

/** The list's matchers, made at the first call. */
function index(): Index {
  if (built) return built;
  const exact = new Map<string, MessageDescriptor>();
  const patterns: Pattern[] = [];
  for (const descriptor of sharedMessages) {
    const tokens = tokensOf(descriptor.message);
    if (tokens.every((token) => typeof token === 'string')) {
      const text = tokens.join('');
      if (!exact.has(text)) exact.set(text, descriptor);
      continue;
    }
    const groups: Group[] = [];
    const source = sourceOf(tokens, groups);
    const prefix = typeof tokens[0] === 'string' ? tokens[0] : '';
    patterns.push({
      descriptor,
      re: new RegExp(`^${source}$`),
      groups,
      prefix,
      weight: literalLength(tokens),
    });
  }
  patterns.sort((a, b) => b.weight - a.weight);
  built = { exact, patterns };
  return built;
}

/** The message in the active language, or undefined when it has no translation there. */
function render(descriptor: MessageDescriptor, values?: Record<string, unknown>): string | undefined {
  if (i18n.messages[descriptor.id] === undefined) return undefined;
  return i18n._(descriptor.id, values, { message: descriptor.message });
}

function translated(text: string): string | undefined {
  const { exact, patterns } = index();
  const plain = exact.get(text);
  if (plain) return render(plain);
  for (const pattern of patterns) {
    if (!text.startsWith(pattern.prefix)) continue;
    const match = pattern.re.exec(text);
    if (!match) continue;
    const values: Record<string, unknown> = {};
    let nestedFound = true;
    pattern.groups.forEach((group, i) => {
      const captured = match[i + 1];
      if (captured === undefined || !nestedFound) return;
      if (group.choice) {
        if (group.choice.value !== undefined && !(group.name in values))
          values[group.name] = group.choice.value;
      } else if (NESTED.has(group.name)) {
        const inner = translated(captured);
        if (inner === undefined) nestedFound = false;
        else values[group.name] = inner;
      } else values[group.name] = /^-?\d+(?:\.\d+)?$/.test(captured) ? Number(captured) : captured;
    });
    if (!nestedFound) continue;
    const result = render(pattern.descriptor, values);
    if (result !== undefined) return result;
  }
  return undefined;
}

/**
 * `text` in the active language when it is one of the shared messages (src/'s checks, the server's
 * errors), else `text` unchanged. English active: always unchanged.
 */
export function translateShared(text: string): string {
  if (!text || i18n.locale === 'en' || !i18n.locale) return text;
  return translated(text) ?? text;
}
