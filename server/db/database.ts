import type { ColumnType, Generated, Insertable, Kysely, Selectable, Updateable } from 'kysely';

/**
 * Timestamps are ISO 8601 strings in SQLite and `timestamptz` in PostgreSQL (read back as Date).
 * Writes always pass ISO strings; reads go through `toIso()`.
 */
export type Timestamp = ColumnType<Date | string, string | undefined, string>;
export type NullableTimestamp = ColumnType<Date | string | null, string | null | undefined, string | null>;
/** SQLite has no boolean type: it reads back 0/1. Reads go through `Boolean()`. */
export type Bool = ColumnType<boolean | number, boolean | undefined, boolean>;
/** JSON is `jsonb` in PostgreSQL (read back parsed) and text in SQLite. Writes pass JSON text. */
export type Json = ColumnType<unknown, string | undefined, string>;

export interface UserTable {
  id: Generated<number>;
  username: string;
  password: string;
  name: string | null;
  email: string | null;
  profile_picture: string | null;
  is_admin: Bool;
  email_verified: Bool;
  email_verification_token: string | null;
  email_verification_expires: NullableTimestamp;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  subscription_status: string | null;
  subscription_tier: ColumnType<string, string | undefined, string>;
  subscription_end_date: NullableTimestamp;
  has_unlimited_access: Bool;
  created_at: Timestamp;
  /** 'light', 'dark' or 'system'. */
  theme: ColumnType<string, string | undefined, string>;
  /** IANA zone of the user's days (the daily digest). */
  time_zone: ColumnType<string, string | undefined, string>;
  notify_product_updates: Bool;
  notify_scan_digest: Bool;
  notify_scan_thresholds: Bool;
  login_alerts: Bool;
  /** Base32 TOTP secret, set at enrolment; counts once totp_enabled. */
  totp_secret: string | null;
  totp_enabled: Bool;
  /** The last 30-second step a code was accepted for (PostgreSQL bigint reads back as text). */
  totp_last_step: ColumnType<number | string | null, number | null | undefined, number | null>;
  /** The user changed the address and has not verified it: no reset mail goes to it (email_changes). */
  email_change_pending: Bool;
  /**
   * 'person' (signs in; the row is also their personal workspace) or 'team' (a team workspace: never
   * signs in, owns codes and a plan; its people are workspace_members). See migrations/2026-11-30T0900-workspaces.ts.
   */
  kind: ColumnType<string, string | undefined, string>;
  /** The workspace a person last switched to; null: their own. Checked against membership on every read. */
  current_workspace_id: number | null;
  /** The language the person chose (a tag of src/i18n/locales.ts); null: their browser's. */
  language: ColumnType<string | null, string | null | undefined, string | null>;
  /** The language their browser asked for when they last registered or signed in. */
  browser_language: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A person working in a team workspace, with a role. */
export interface WorkspaceMemberTable {
  workspace_id: number;
  user_id: number;
  /** 'viewer', 'editor', 'admin' or 'owner'. */
  role: string;
  created_at: Timestamp;
  /** 'manual' (invited or added) or 'sso' (granted by a group mapping: taken away with the group). */
  source: ColumnType<string, string | undefined, string>;
}

/** A company account (OIDC, LDAP, a trusted proxy) linked to a person. */
export interface UserIdentityTable {
  /** 'oidc:<id>', 'ldap' or 'proxy'. */
  provider: string;
  /** The provider's stable id of the person: OIDC `sub`, the LDAP entry's DN, the proxy's user name. */
  subject: string;
  user_id: number;
  email: string | null;
  created_at: Timestamp;
  last_sign_in_at: NullableTimestamp;
}

/** A company account waiting for its person to prove the password of the local account it matches. */
export interface SsoLinkRequestTable {
  /** SHA-256 of the token the browser holds. */
  id: string;
  user_id: number;
  provider: string;
  subject: string;
  /** JSON of the ExternalProfile the provider gave. */
  profile: string;
  attempts: ColumnType<number, number | undefined, number>;
  expires_at: Timestamp;
}

/** An invitation into a team: by e-mail (a mailed link: `token_hash`) or by username (`invitee_id`). */
export interface WorkspaceInvitationTable {
  id: Generated<number>;
  workspace_id: number;
  email: string | null;
  invitee_id: number | null;
  role: string;
  token_hash: string | null;
  invited_by: number | null;
  invited_by_username: string;
  /** 'pending', 'accepted', 'declined' or 'revoked' (an expired one stays 'pending' past expires_at). */
  status: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
  expires_at: Timestamp;
  responded_at: NullableTimestamp;
}

/** Who did what in a workspace. `details` is JSON text. */
export interface WorkspaceActivityTable {
  id: Generated<number>;
  workspace_id: number;
  actor_id: number | null;
  actor_username: string;
  action: string;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  details: string | null;
  created_at: Timestamp;
}

/** A self-service change of address: the old one is told and may undo it for 7 days. */
export interface EmailChangeTable {
  id: Generated<number>;
  user_id: number;
  old_email: string;
  old_verified: Bool;
  /** The old address was itself a change not verified yet. */
  old_pending: Bool;
  /** Where reset mails go while the new address is pending: the last trusted address, if any. */
  fallback_email: string | null;
  new_email: string;
  /** SHA-256 of the undo link's token. */
  undo_token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** Undone, or made moot by the undo of this or an earlier change. */
  closed_at: NullableTimestamp;
}

export interface RecoveryCodeTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the code: the code itself is shown once and never stored. */
  code_hash: string;
  used_at: NullableTimestamp;
}

/** A sign-in between its password and its two-factor code; `id` is the SHA-256 of the cookie's token. */
export interface PendingLoginTable {
  id: string;
  user_id: number;
  expires_at: string | Date;
  /** JSON of the SsoSession a company sign-in starts once the code is given; null: a password sign-in. */
  sso_session: string | null;
}

/** A browser family and OS, or an address, a user has signed in from (login alerts). */
export interface KnownDeviceTable {
  user_id: number;
  fingerprint: string;
  first_seen_at: Timestamp;
}

/** A notification mail already sent, by what it was about: each goes out once. */
export interface SentNotificationTable {
  key: string;
  user_id: number;
  sent_at: Timestamp;
}

/** An admin action: who, what, on whom, the values before and after, when. */
export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number | null;
  actor_username: string;
  action: string;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  before: ColumnType<unknown, string | null | undefined, string | null>;
  after: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Timestamp;
}

/** A setting an admin changed at run time (over the environment's default); `value` is JSON. */
export interface InstanceSettingTable {
  key: string;
  value: string;
  updated_at: Timestamp;
}

/** A user's request for a paid plan on an instance without Stripe; an admin approves or declines it. */
export interface UpgradeRequestTable {
  id: Generated<number>;
  user_id: number;
  tier: string;
  /** 'pending', 'approved' or 'declined'. */
  status: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
  decided_at: NullableTimestamp;
  decided_by: number | null;
}

/** A Stripe event already applied: a replayed webhook changes nothing. */
export interface StripeEventTable {
  id: string;
  type: string;
  received_at: Timestamp;
}

/** Per Stripe subscription, the last event applied to it: an older event delivered late changes nothing. */
export interface StripeSubscriptionEventTable {
  subscription_id: string;
  event_id: string;
  event_type: string;
  /** Stripe's `created` of the event, Unix seconds (PostgreSQL bigint reads back as text). */
  event_created: ColumnType<number | string, number, number>;
  /** Which event wins among events of the same second (server/features/billing/stripe.ts). */
  event_rank: number;
  applied_at: Timestamp;
}

/** A mail sent through SMTP, written to the outbox, or failed. */
export interface MailLogTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  status: string;
  error: string | null;
  created_at: Timestamp;
}

/** A mail whose first attempt failed, tried again until sent or given up (server/features/mail/mail-queue.service.ts). */
export interface MailQueueTable {
  id: Generated<number>;
  recipient: string;
  /** null: MAIL_FROM. */
  sender: string | null;
  subject: string;
  body_text: string;
  body_html: string | null;
  /** A newer mail with the same key replaces this one while it waits. */
  replace_key: string | null;
  /** 'pending', 'sending' (claimed until next_attempt_at), 'sent' or 'given-up'. */
  status: ColumnType<string, string | undefined, string>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  /** When the mail stops being worth sending (its link expires); null: never. */
  expires_at: NullableTimestamp;
  last_error: string | null;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
}

/** A personal API token; only its SHA-256 is stored, `prefix` is shown to tell tokens apart. */
export interface ApiTokenTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_hash: string;
  prefix: string;
  /** 'read', 'write' or 'admin'. */
  scope: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  expires_at: NullableTimestamp;
  /** The workspace the token acts on (migrations/2026-11-30T0900-workspaces.ts). */
  workspace_id: number | null;
}

/** Requests of a token in one minute (minutes since the epoch): the rate limit, shared by instances. */
export interface ApiTokenUsageTable {
  token_id: number;
  minute: ColumnType<number | string, number, number>;
  count: ColumnType<number, number | undefined, number>;
}

export interface SessionTable {
  /** SHA-256 of the cookie token: the token itself is never stored. */
  id: string;
  user_id: number;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: string | Date;
  ip_address: string | null;
  user_agent: string | null;
  /** How the session was signed in: 'oidc:<id>', 'ldap' or 'proxy'; null: a local password. */
  sso_provider: string | null;
  sso_subject: string | null;
  /** The OIDC session id (`sid`), for back-channel logout. */
  sso_sid: string | null;
  sso_refresh_token: string | null;
  /** The ID token, the hint of RP-initiated logout. */
  sso_id_token: string | null;
  /** When the provider last said the person may still sign in. */
  sso_checked_at: NullableTimestamp;
}

export interface LoginFailureTable {
  id: Generated<number>;
  key: string;
  failed_at: string | Date;
}

export interface FolderTable {
  id: Generated<number>;
  name: string;
  user_id: number;
  created: Timestamp;
}

export interface QrCodeTable {
  id: Generated<number>;
  name: string;
  type: string;
  content: string;
  is_dynamic: Bool;
  customization: Json;
  user_id: number;
  folder_id: number | null;
  slug: string | null;
  created: Timestamp;
  updated: Timestamp;
  /** The scan-safety check (migrations/2026-11-26T0500-scan-verdicts.ts); null until checked. */
  scan_verdict: Generated<string | null>;
  scan_reason: Generated<string | null>;
  /** Smart-redirect options as JSON text (migrations/2026-11-26T0600-smart-redirects.ts); null: none. */
  redirect_options: Generated<string | null>;
  /** argon2 hash of the short link's password; null: no password. */
  password_hash: Generated<string | null>;
  /** The short domain of its link (migrations/2026-12-07T0900-short-domains.ts); null: PUBLIC_URL/r/. */
  domain_id: Generated<number | null>;
}

/** A version of a code (migrations/2026-11-26T0700-code-versions.ts): its editable state after a change. */
export interface QrCodeVersionTable {
  id: Generated<number>;
  qr_code_id: number;
  /** Who made the change; null once that account is deleted. */
  user_id: number | null;
  created: Timestamp;
  /** 'created', 'edited' or 'restored'. */
  kind: string;
  restored_from: number | null;
  /** JSON text: name, content, customization (and redirect options, hasPassword when the code has them). */
  snapshot: string;
}

/**
 * A raw scan, lean (migrations/2026-11-25T2000-lean-scans.ts): the time in ms since the epoch, the
 * user agent, referrer and location as ids of their dictionary tables, the device category as a code
 * (server/features/scans/scan-columns.ts reads and writes them).
 */
export interface QrScanTable {
  id: Generated<number>;
  qr_code_id: number;
  at: number;
  user_agent_id: number | null;
  referrer_id: number | null;
  location_id: number | null;
  ip_address: string | null;
  device: number;
  /** Why the scan got the "not available" page (server/features/redirect/smart-redirect.ts); null: served. */
  refused: Generated<number | null>;
  /**
   * The scan's visitor hash for its UTC day (server/features/scans/unique-scanners.ts); null for bots
   * and scans stored before unique scanners were counted. PostgreSQL bigint reads back as text.
   */
  visitor: ColumnType<number | string | null, number | null | undefined, number | null>;
}

/** Today's salt of the visitor hashes (UTC day since the epoch); older days' salts are deleted. */
export interface ScanSaltTable {
  day: number;
  salt: Buffer;
}

/** The visitors each code has seen on a UTC day still being counted; deleted once the day is over. */
export interface ScanCodeDayVisitorTable {
  qr_code_id: number;
  day: number;
  visitor: ColumnType<number | string, number, number>;
}

/** A dictionary of the distinct values of one scan column (user agents, referrers, locations). */
export interface ScanDictionaryTable {
  id: Generated<number>;
  value: string;
}

export interface PasswordResetTokenTable {
  id: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: string | Date;
  used_at: NullableTimestamp;
}

export interface UploadTable {
  /** Random and unguessable: it appears in logo URLs. */
  id: string;
  user_id: number;
  kind: string;
  mime: string;
  size: number;
  data: Buffer;
  created_at: Timestamp;
}

interface DeviceCountColumns {
  mobile: ColumnType<number, number | undefined, number>;
  tablet: ColumnType<number, number | undefined, number>;
  desktop: ColumnType<number, number | undefined, number>;
  bot: ColumnType<number, number | undefined, number>;
  unknown: ColumnType<number, number | undefined, number>;
  /** First sightings of a visitor (unique-scanners.ts); null: rows counted before, unknown. */
  unique_scanners: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Scan rollups (server/features/scans/rollup-model.ts). `bucket`: quarter hours, `day`: UTC days since the epoch. */
export interface ScanUserQuarterTable extends DeviceCountColumns {
  user_id: number;
  bucket: number;
}
export interface ScanCodeQuarterTable extends DeviceCountColumns {
  qr_code_id: number;
  bucket: number;
}
export interface ScanCodeDayTable extends DeviceCountColumns {
  qr_code_id: number;
  day: number;
  user_id: number;
}
export interface ScanCodeDayLocationTable {
  qr_code_id: number;
  day: number;
  location: string;
  user_id: number;
  scans: ColumnType<number, number | undefined, number>;
  bots: ColumnType<number, number | undefined, number>;
}
export interface ScanUserDayLocationTable {
  user_id: number;
  day: number;
  location: string;
  scans: ColumnType<number, number | undefined, number>;
  bots: ColumnType<number, number | undefined, number>;
}
/** Scans of one client beyond the per-minute limit (scan-throttle.ts): counted, not stored as scans. */
export interface ScanCodeThrottledTable {
  qr_code_id: number;
  day: number;
  scans: ColumnType<number, number | undefined, number>;
}
/** Scans answered with the "not available" page (paused, not started, ended, over the limit). */
export interface RefusedScanTable {
  qr_code_id: number;
  day: number;
  scans: ColumnType<number, number | undefined, number>;
  bots: ColumnType<number, number | undefined, number>;
  /** Of `scans`, those of the owner's in-app scan test: never served to anyone, never turned away. */
  simulated: ColumnType<number, number | undefined, number>;
}
/** Random keys the server makes once and shares between instances (e.g. the short links' cookie key). */
export interface ServerSecretTable {
  name: string;
  value: string;
}
export interface ScanCodePlaceTable {
  qr_code_id: number;
  place: string;
  scans: ColumnType<number, number | undefined, number>;
  bots: ColumnType<number, number | undefined, number>;
}

/** A POST's Idempotency-Key, remembered for 24 hours with the answer it got (null while it runs). */
export interface IdempotencyKeyTable {
  owner: string;
  key: string;
  fingerprint: string;
  status: number | null;
  body: string | null;
  created_at: Timestamp;
}

/** A slug a code had before and still answers at (migrations/2026-12-06T0900-slug-aliases.ts). */
export interface QrSlugAliasTable {
  slug: string;
  qr_code_id: number;
  created: Timestamp;
}

/** A short domain (migrations/2026-12-07T0900-short-domains.ts). */
export interface ShortDomainTable {
  id: Generated<number>;
  hostname: string;
  all_workspaces: Bool;
  root_url: string | null;
  not_found_url: string | null;
  created: Timestamp;
}

/** A workspace (its account's id) that may use a short domain not available to all. */
export interface ShortDomainWorkspaceTable {
  domain_id: number;
  workspace_id: number;
}

/** An import read and kept for a day (migrations/2026-12-08T0900-link-imports.ts). */
export interface LinkImportTable {
  id: string;
  /** The workspace's account the codes go to. */
  user_id: number;
  source: string;
  /** The file's name or the API's address, for the user. */
  origin: string;
  api_url: string | null;
  api_key: string | null;
  /** JSON: the links read (SourceLink and how many visits the file holds for each). */
  links: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** The visits a file held for one row of an import (JSON: SourceVisit[]). */
export interface LinkImportVisitsTable {
  import_id: string;
  row: number;
  visits: string;
}

/** A row of an import carried out. */
export interface LinkImportRowTable {
  import_id: string;
  row: number;
  status: string;
  code_id: number | null;
  slug: string | null;
  visits: number | null;
  message: string | null;
}

/** Where an imported code came from. */
export interface QrCodeImportTable {
  qr_code_id: number;
  source: string;
  source_link: string | null;
  visits: ColumnType<number, number | undefined, number>;
  imported_at: Timestamp;
}

/** A URL some dynamic code sends scanners to, and what its last checks found. */
export interface DestinationCheckTable {
  url: string;
  host: string;
  state: ColumnType<string, string | undefined, string>;
  failures: ColumnType<number, number | undefined, number>;
  problem: string | null;
  http_status: number | null;
  failing_since: NullableTimestamp;
  checked_at: NullableTimestamp;
  next_check_at: Timestamp;
  claimed_until: NullableTimestamp;
}

/** A shared dashboard: a read-only link to one code's or one folder's analytics (2026-12-09T0900-analytics-shares). */
export interface AnalyticsShareTable {
  id: Generated<number>;
  /** The workspace's account whose code or folder it shows. */
  owner_id: number;
  created_by: number | null;
  qr_code_id: number | null;
  folder_id: number | null;
  /** The link's token (a read-only capability the owner may copy again), and its SHA-256 to look it up. */
  token: string;
  token_hash: string;
  password_hash: string | null;
  expires_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_at: Timestamp;
  views: ColumnType<number, number | undefined, number>;
  last_viewed_at: NullableTimestamp;
}

export interface Database {
  users: UserTable;
  sessions: SessionTable;
  user_identities: UserIdentityTable;
  sso_link_requests: SsoLinkRequestTable;
  login_failures: LoginFailureTable;
  folders: FolderTable;
  qr_codes: QrCodeTable;
  qr_scans: QrScanTable;
  qr_code_versions: QrCodeVersionTable;
  scan_user_agents: ScanDictionaryTable;
  scan_referrers: ScanDictionaryTable;
  scan_locations: ScanDictionaryTable;
  scan_user_quarters: ScanUserQuarterTable;
  scan_code_quarters: ScanCodeQuarterTable;
  scan_code_days: ScanCodeDayTable;
  scan_code_day_locations: ScanCodeDayLocationTable;
  scan_user_day_locations: ScanUserDayLocationTable;
  scan_code_places: ScanCodePlaceTable;
  throttled_scans: ScanCodeThrottledTable;
  refused_scans: RefusedScanTable;
  email_changes: EmailChangeTable;
  server_secrets: ServerSecretTable;
  scan_salts: ScanSaltTable;
  scan_code_day_visitors: ScanCodeDayVisitorTable;
  password_reset_tokens: PasswordResetTokenTable;
  uploads: UploadTable;
  recovery_codes: RecoveryCodeTable;
  known_devices: KnownDeviceTable;
  pending_logins: PendingLoginTable;
  sent_notifications: SentNotificationTable;
  audit_log: AuditLogTable;
  instance_settings: InstanceSettingTable;
  upgrade_requests: UpgradeRequestTable;
  stripe_events: StripeEventTable;
  stripe_subscription_events: StripeSubscriptionEventTable;
  mail_log: MailLogTable;
  mail_queue: MailQueueTable;
  api_tokens: ApiTokenTable;
  api_token_usage: ApiTokenUsageTable;
  workspace_members: WorkspaceMemberTable;
  idempotency_keys: IdempotencyKeyTable;
  qr_slug_aliases: QrSlugAliasTable;
  short_domains: ShortDomainTable;
  short_domain_workspaces: ShortDomainWorkspaceTable;
  link_imports: LinkImportTable;
  link_import_rows: LinkImportRowTable;
  link_import_visits: LinkImportVisitsTable;
  qr_code_imports: QrCodeImportTable;
  destination_checks: DestinationCheckTable;
  analytics_shares: AnalyticsShareTable;
  workspace_invitations: WorkspaceInvitationTable;
  workspace_activity: WorkspaceActivityTable;
}

export type Db = Kysely<Database>;
export type UserRow = Selectable<UserTable>;
export type NewUserRow = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type SessionRow = Selectable<SessionTable>;
export type QrCodeRow = Selectable<QrCodeTable>;
export type NewQrCodeRow = Insertable<QrCodeTable>;
export type NewQrScanRow = Insertable<QrScanTable>;
export type FolderRow = Selectable<FolderTable>;

export function toIso(value: Date | string): string;
export function toIso(value: Date | string | null): string | null;
export function toIso(value: Date | string | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}
