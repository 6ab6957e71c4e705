/**
 * An example of every JSON request body and JSON success answer of the documented paths, keyed by
 * operationId (server/rest/operation-ids.ts): what a reader of /api/docs copies, and what a generated client's
 * documentation shows. openapi.test.ts validates each against its schema and fails when one is missing.
 * One story runs through them: Ada (user 7) runs a café's codes in the "Café Aurora" team (workspace 12).
 */
export interface OperationExample {
  /** The JSON request body. */
  body?: unknown;
  /** The JSON of the success answer. */
  answer?: unknown;
}

const PUBLIC_URL = 'https://qr.example.com';

const user = {
  id: 7,
  username: 'ada',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  profilePicture: null,
  isAdmin: false,
  emailVerified: true,
  subscriptionTier: 'pro',
  subscriptionStatus: 'active',
  subscriptionEndDate: '2027-03-01T00:00:00.000Z',
  hasUnlimitedAccess: false,
  createdAt: '2026-02-14T09:30:00.000Z',
};

const customization = {
  foregroundColor: '#1A237E',
  backgroundColor: '#FFFFFF',
  errorCorrectionLevel: 'M',
  style: 'rounded',
  frame: { enabled: true, text: 'Scan for the menu', style: 'rounded', color: '#1A237E' },
};

const redirectOptions = {
  rules: [
    {
      label: 'iPhone users',
      conditions: [{ kind: 'os', os: ['ios'] }],
      destination: 'https://apps.apple.com/app/cafe-aurora/id123456789',
    },
  ],
  timeZone: 'Europe/Paris',
  activeFrom: null,
  activeUntil: null,
  maxScans: null,
  paused: false,
  inactiveMessage: null,
  fallbackUrl: null,
  fallbackWhenDown: false,
  utm: { source: 'qr', medium: 'table-card', campaign: 'autumn-menu' },
  forwardQuery: false,
};

const qrCode = {
  id: 42,
  name: 'Table menu',
  type: 'url',
  content: 'https://cafe-aurora.example.com/menu',
  isDynamic: true,
  customization,
  userId: 7,
  folderId: 3,
  slug: 'k7Qm2x',
  shortUrl: `${PUBLIC_URL}/r/k7Qm2x`,
  domainId: null,
  created: '2026-10-01T08:15:00.000Z',
  updated: '2026-11-20T16:42:10.000Z',
  scannable: { verdict: 'scannable', reason: 'Good contrast and quiet zone' },
  redirectOptions,
  hasPassword: false,
};

const staticCode = {
  ...qrCode,
  id: 43,
  name: 'Guest Wi-Fi',
  type: 'wifi',
  content: 'WIFI:T:WPA;S:Aurora-Guests;P:croissant2026;;',
  isDynamic: false,
  customization: {
    foregroundColor: '#000000',
    backgroundColor: '#FFFFFF',
    errorCorrectionLevel: 'M',
    style: 'square',
  },
  slug: null,
  shortUrl: null,
  domainId: null,
  redirectOptions: null,
};

const folder = { id: 3, name: 'Table cards', created: '2026-09-30T10:00:00.000Z', qrCodeCount: 12 };

const plan = {
  tier: 'pro',
  status: 'active',
  endDate: '2027-03-01T00:00:00.000Z',
  hasUnlimitedAccess: false,
};

const workspace = {
  id: 12,
  name: 'Café Aurora',
  kind: 'team',
  role: 'owner',
  plan,
  memberCount: 4,
  qrCodeCount: 38,
  createdAt: '2026-06-01T12:00:00.000Z',
};

const member = {
  userId: 9,
  username: 'grace',
  name: 'Grace Hopper',
  email: 'grace@example.com',
  role: 'editor',
  joinedAt: '2026-06-03T14:20:00.000Z',
};

const invitation = {
  id: 5,
  workspaceId: 12,
  workspaceName: 'Café Aurora',
  email: 'barista@example.com',
  username: null,
  role: 'viewer',
  invitedBy: 'ada',
  status: 'pending',
  createdAt: '2026-11-27T10:00:00.000Z',
  expiresAt: '2026-12-04T10:00:00.000Z',
};

const apiToken = {
  id: 4,
  name: 'Nightly menu sync',
  scope: 'write',
  prefix: 'qrc_Ab12',
  createdAt: '2026-11-01T09:00:00.000Z',
  lastUsedAt: '2026-11-28T02:00:05.000Z',
  expiresAt: '2027-11-01T09:00:00.000Z',
};

const upgradeRequest = {
  id: 15,
  userId: 7,
  tier: 'premium',
  status: 'pending',
  createdAt: '2026-11-26T18:00:00.000Z',
  decidedAt: null,
};

const adminUser = {
  ...user,
  qrCodeCount: 38,
  twoFactorEnabled: true,
  signInMethods: ['password'],
  upgradeRequest: null,
};

const adminWorkspace = {
  id: 12,
  name: 'Café Aurora',
  plan,
  memberCount: 4,
  qrCodeCount: 38,
  owners: ['ada'],
  createdAt: '2026-06-01T12:00:00.000Z',
};

const deletionImpact = {
  qrCodes: 38,
  scans: 15230,
  folders: 4,
  teamsKept: [{ id: 20, name: 'Market stall', qrCodeCount: 6 }],
  teamsDeleted: [{ id: 21, name: 'Old test team' }],
  blockingTeams: [],
};

const dailyCounts = [
  { date: '2026-11-26', count: 131, uniqueScanners: 118 },
  { date: '2026-11-27', count: 149, uniqueScanners: 127 },
  { date: '2026-11-28', count: 96, uniqueScanners: 90 },
];

const scan = {
  id: 90211,
  timestamp: '2026-11-28T07:58:12.000Z',
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
  location: 'France',
  ipAddress: '203.0.*.*',
  device: 'Mobile',
  deviceName: 'iPhone',
  outcome: { kind: 'rule', rule: 1 },
};

const done = (message: string) => ({ success: true, message });

const shortDomain = {
  id: 3,
  hostname: 'go.cafe-aurora.example',
  shortLinkBase: 'https://go.cafe-aurora.example/',
  allWorkspaces: false,
  workspaces: [{ id: 12, name: 'Café Aurora' }],
  rootUrl: 'https://cafe-aurora.example.com',
  notFoundUrl: null,
  codes: 4,
  created: '2026-11-20T09:00:00.000Z',
};

const settings = { registrationOpen: true, requireEmailVerification: true, freePlanLimit: 10 };

/** The winter menu's page was taken down: its scans go to the fallback page meanwhile. */
const forwardingSettings = {
  provider: 'plausible',
  url: 'https://plausible.io',
  domain: 'cafe-aurora.example.com',
  enabled: true,
  address: 'masked',
  lastSuccessAt: '2026-12-09T11:02:00.000Z',
  lastError: null,
  sentCount: 1284,
  failedCount: 0,
  updatedAt: '2026-12-09T10:58:00.000Z',
};

const destinationIssue = {
  codeId: 42,
  codeName: 'Winter menu',
  url: 'https://cafe-aurora.example.com/winter',
  label: 'Destination',
  state: 'down',
  problem: 'Opens a 404',
  httpStatus: 404,
  since: '2026-12-06T04:10:00.000Z',
  checkedAt: '2026-12-07T04:12:00.000Z',
  usingFallback: true,
};

/** The café's CRM takes every scan of its codes. */
const webhook = {
  id: 3,
  url: 'https://hooks.cafe-aurora.example.com/qr',
  description: 'CRM: every scan',
  events: ['scan', 'destination.down'],
  enabled: true,
  disabledReason: null,
  secretHint: 'whsec_Ab12…',
  createdAt: '2026-12-09T09:00:00.000Z',
  lastDelivery: { state: 'succeeded', at: '2026-12-09T09:05:02.000Z' },
};

const webhookDelivery = {
  id: 811,
  eventTypes: ['scan'],
  events: 2,
  state: 'succeeded',
  attempts: 1,
  createdAt: '2026-12-09T09:05:01.000Z',
  lastAttemptAt: '2026-12-09T09:05:02.000Z',
  nextAttemptAt: null,
  responseStatus: 200,
  responseExcerpt: '{"ok":true}',
  error: null,
  durationMs: 84,
  redeliveryOf: null,
  payload:
    '{"events":[{"id":"scan_90211","type":"scan","createdAt":"2026-12-09T09:05:00.412Z","workspace":{"id":12},"data":{"code":{"id":42,"name":"Winter menu","shortUrl":"https://qr.example.com/r/menu","folderId":null},"scan":{"id":90211,"at":"2026-12-09T09:05:00.412Z","device":"Mobile","bot":false,"location":"Lyon, France","referrer":null,"userAgent":"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X)","ipAddress":"203.0.113.0","outcome":{"kind":"default","rule":null}}}}]}',
};

/** An import of two Shlink links, the second's slug held by another workspace. */
const linkImport = {
  id: 'Xq2f9LmA0bVt3kPz',
  source: 'shlink',
  sourceLabel: 'Shlink',
  origin: 'short-urls.csv',
  createdAt: '2026-12-08T10:12:00.000Z',
  expiresAt: '2026-12-09T10:12:00.000Z',
  links: [
    {
      row: 0,
      slug: 'menu',
      destination: 'https://cafe-aurora.example.com/menu',
      title: 'Menu',
      createdAt: '2024-03-01T08:00:00.000Z',
      tags: ['tables'],
      sourceDomain: 's.cafe-aurora.example',
      visits: 1284,
      visitHistory: false,
      conflict: null,
      result: null,
    },
    {
      row: 1,
      slug: 'winter',
      destination: 'https://cafe-aurora.example.com/winter',
      title: 'Winter menu',
      createdAt: '2024-11-20T08:00:00.000Z',
      tags: [],
      sourceDomain: 's.cafe-aurora.example',
      visits: 311,
      visitHistory: false,
      conflict: { kind: 'taken', message: 'This short link is taken' },
      result: null,
    },
  ],
  totals: { links: 2, visits: 0, conflicts: 1, done: 0 },
};

const analyticsShare = {
  id: 7,
  kind: 'code',
  qrCodeId: 42,
  folderId: null,
  title: 'Winter menu',
  url: `${PUBLIC_URL}/share/q8Jr2xK0vN5mTb7YcWd3LpHs9GfZe1Ua`,
  hasPassword: true,
  expiresAt: '2027-01-06T09:00:00.000Z',
  createdAt: '2026-12-07T09:00:00.000Z',
  views: 12,
  lastViewedAt: '2026-12-07T15:30:00.000Z',
};

export const examples: Readonly<Record<string, OperationExample>> = {
  // Sign-in
  getCurrentUser: { answer: user },
  signIn: { body: { username: 'ada', password: 'correct horse battery staple' }, answer: user },
  register: {
    body: {
      username: 'ada',
      password: 'correct horse battery staple',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    },
    answer: {
      ...user,
      emailVerified: false,
      subscriptionTier: 'free',
      subscriptionStatus: null,
      subscriptionEndDate: null,
    },
  },
  signOut: { answer: { message: 'Signed out' } },
  getPendingSsoLink: { answer: { email: 'ada@example.com', username: 'ada', provider: 'Company sign-in' } },
  linkSsoAccount: { body: { password: 'correct horse battery staple' }, answer: user },
  requestPasswordReset: {
    body: { email: 'ada@example.com' },
    answer: { message: 'If an account uses this address, a reset link is on its way.' },
  },
  verifyPasswordResetToken: {
    body: { token: 'f3b9c1d2e4a5968778695a4b3c2d1e0f' },
    answer: { success: true },
  },
  resetPassword: {
    body: { token: 'f3b9c1d2e4a5968778695a4b3c2d1e0f', password: 'a new long passphrase' },
    answer: done('Password changed. Sign in with the new one.'),
  },
  verifyEmail: { answer: done('Email address verified') },
  undoEmailChange: {
    body: { token: '0a1b2c3d4e5f60718293a4b5c6d7e8f9' },
    answer: done('Your address is back to ada@example.com. Every session was signed out.'),
  },
  resendEmailVerification: {
    body: { email: 'ada@example.com' },
    answer: { message: 'If this address waits for verification, a new link is on its way.' },
  },
  getPublicConfig: {
    answer: {
      demoAccount: null,
      freePlanLimit: 10,
      requireEmailVerification: true,
      registrationOpen: true,
      payments: 'request',
      sso: {
        providers: [{ id: 'company', name: 'Company sign-in' }],
        ldap: null,
        passwordSignIn: true,
        proxy: false,
      },
    },
  },
  // Two-factor sign-in
  signInWithTwoFactor: { body: { code: '492039' }, answer: user },
  getTwoFactorStatus: { answer: { enabled: true, recoveryCodesLeft: 8 } },
  beginTwoFactor: {
    body: { password: 'correct horse battery staple' },
    answer: {
      secret: 'JBSWY3DPEHPK3PXP',
      otpauthUrl: 'otpauth://totp/QR%20Creator:ada?secret=JBSWY3DPEHPK3PXP&issuer=QR%20Creator',
    },
  },
  confirmTwoFactor: {
    body: { code: '492039' },
    answer: {
      recoveryCodes: [
        'k3v9-2hq8',
        'p7x2-9wd4',
        'm4c8-7tz1',
        'r2j6-5nb3',
        'w9f1-3ks7',
        'h5d3-8qm2',
        'b8n4-1vx6',
        'z6t7-4pg9',
        'c1l5-6rj8',
        'e2y9-7hw3',
      ],
    },
  },
  disableTwoFactor: {
    body: { password: 'correct horse battery staple', code: '492039' },
    answer: done('Two-factor sign-in is off'),
  },
  // Account
  updateProfile: {
    body: { name: 'Ada King', email: 'ada@example.com' },
    answer: { ...user, name: 'Ada King' },
  },
  sendEmailVerificationLink: { answer: { message: 'A new link is on its way to ada@example.com.' } },
  changePassword: {
    body: { currentPassword: 'correct horse battery staple', newPassword: 'a new long passphrase' },
    answer: done('Password changed'),
  },
  uploadProfilePicture: {
    answer: {
      url: '/api/uploads/8d2f4c1a',
      user: { ...user, profilePicture: '/api/uploads/8d2f4c1a' },
    },
  },
  getPreferences: {
    answer: {
      theme: 'system',
      productUpdates: false,
      scanDigest: true,
      scanThresholds: true,
      loginAlerts: true,
      language: null,
      timeZone: 'Europe/Paris',
    },
  },
  updatePreferences: {
    body: { theme: 'dark', scanDigest: false, language: 'fr' },
    answer: {
      theme: 'dark',
      productUpdates: false,
      scanDigest: false,
      scanThresholds: true,
      loginAlerts: true,
      language: 'fr',
      timeZone: 'Europe/Paris',
    },
  },
  listSessions: {
    answer: [
      {
        id: 's_41f2',
        browser: 'Firefox 132',
        os: 'Ubuntu',
        ip: '203.0.*.*',
        createdAt: '2026-11-20T08:00:00.000Z',
        lastSeenAt: '2026-11-28T09:12:00.000Z',
        current: true,
      },
      {
        id: 's_9c07',
        browser: 'Safari 18',
        os: 'iOS 18',
        ip: '198.51.*.*',
        createdAt: '2026-11-02T19:30:00.000Z',
        lastSeenAt: '2026-11-27T21:05:00.000Z',
        current: false,
      },
    ],
  },
  deleteSession: { answer: { success: true } },
  signOutOtherSessions: {
    body: { revokeTokens: false },
    answer: { success: true, count: 2, tokensRevoked: 0 },
  },
  checkMailTransport: { answer: { success: true, message: 'Signed in to smtp.example.com:587' } },
  sendTestMail: {
    body: { to: 'ops@example.com', subject: 'Test from QR Creator', message: 'It works.' },
    answer: { success: true, message: 'Test mail sent to ops@example.com' },
  },
  // QR codes
  listQrCodes: { answer: [qrCode, staticCode] },
  createQrCode: {
    body: {
      name: 'Table menu',
      type: 'url',
      content: 'https://cafe-aurora.example.com/menu',
      isDynamic: true,
      folderId: 3,
      customization: { foregroundColor: '#1A237E', style: 'rounded' },
    },
    answer: qrCode,
  },
  getQrCode: { answer: qrCode },
  checkSlugAvailability: { answer: { slug: 'winter-menu', status: 'available', message: 'Available' } },
  listAvailableShortDomains: {
    answer: {
      defaultBase: `${PUBLIC_URL}/r/`,
      items: [
        { id: 3, hostname: 'go.cafe-aurora.example', shortLinkBase: 'https://go.cafe-aurora.example/' },
      ],
    },
  },
  askShortDomain: { answer: { domain: 'go.cafe-aurora.example', allowed: true } },
  adminListShortDomains: { answer: { items: [shortDomain] } },
  adminCreateShortDomain: {
    body: {
      hostname: 'go.cafe-aurora.example',
      allWorkspaces: false,
      workspaceIds: [12],
      rootUrl: 'https://cafe-aurora.example.com',
      notFoundUrl: null,
    },
    answer: { ...shortDomain, codes: 0 },
  },
  adminUpdateShortDomain: {
    body: {
      hostname: 'go.cafe-aurora.example',
      allWorkspaces: true,
      workspaceIds: [],
      rootUrl: 'https://cafe-aurora.example.com',
      notFoundUrl: 'https://cafe-aurora.example.com/not-found',
    },
    answer: {
      ...shortDomain,
      allWorkspaces: true,
      workspaces: [],
      notFoundUrl: 'https://cafe-aurora.example.com/not-found',
    },
  },
  adminDeleteShortDomain: { answer: { success: true } },
  importLinksFromFile: { answer: linkImport },
  importLinksFromApi: {
    body: {
      source: 'shlink',
      url: 'https://s.cafe-aurora.example',
      apiKey: 'b5f0d3a1-4c1e-4f7e-9b0a-2d3c4e5f6a7b',
    },
    answer: { ...linkImport, origin: 'https://s.cafe-aurora.example' },
  },
  getLinkImport: { answer: linkImport },
  runLinkImportRows: {
    body: {
      domainId: 3,
      folderId: null,
      rows: [
        { row: 0, action: 'create' },
        { row: 1, action: 'rename', slug: 'menu-winter' },
      ],
    },
    answer: {
      results: [
        {
          row: 0,
          status: 'created',
          codeId: 58,
          slug: 'menu',
          shortUrl: 'https://go.cafe-aurora.example/menu',
          visits: 1284,
        },
        {
          row: 1,
          status: 'created',
          codeId: 59,
          slug: 'menu-winter',
          shortUrl: 'https://go.cafe-aurora.example/menu-winter',
          visits: 311,
        },
      ],
      done: 2,
      currentCount: 44,
      maxCount: null,
    },
  },
  discardLinkImport: { answer: { success: true } },
  listDestinationIssues: { answer: { items: [destinationIssue] } },
  listWebhooks: { answer: { items: [webhook] } },
  createWebhook: {
    body: { url: webhook.url, description: webhook.description, events: webhook.events },
    answer: { ...webhook, lastDelivery: null, secret: 'whsec_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56' },
  },
  getWebhook: { answer: webhook },
  updateWebhook: { body: { events: ['scan'] }, answer: { ...webhook, events: ['scan'] } },
  deleteWebhook: { answer: done('Webhook deleted') },
  rotateWebhookSecret: { answer: { ...webhook, secret: 'whsec_Zy98Xw76Vu54Ts32Rq10Po98Nm76Lk54' } },
  listWebhookDeliveries: { answer: { items: [webhookDelivery], next: null } },
  testWebhook: {
    answer: {
      ...webhookDelivery,
      id: 812,
      eventTypes: ['ping'],
      events: 1,
      payload:
        '{"events":[{"id":"evt_4f1c","type":"ping","createdAt":"2026-12-09T09:06:00.000Z","workspace":{"id":12},"data":{"message":"A test event from QR Creator"}}]}',
    },
  },
  redeliverWebhookDelivery: { answer: { ...webhookDelivery, id: 813, redeliveryOf: 811 } },
  getAnalyticsForwarding: { answer: { settings: forwardingSettings } },
  updateAnalyticsForwarding: {
    body: { provider: 'plausible', domain: 'cafe-aurora.example.com', enabled: true, address: 'masked' },
    answer: { settings: forwardingSettings },
  },
  deleteAnalyticsForwarding: { answer: done('Forwarding to web analytics removed') },
  testAnalyticsForwarding: { answer: { ok: true, httpStatus: 202, message: 'ok' } },
  listAnalyticsShares: { answer: { items: [analyticsShare] } },
  createAnalyticsShare: {
    body: { qrCodeId: 42, password: 'winter-2026', expiresAt: '2027-01-06T09:00:00.000Z' },
    answer: { ...analyticsShare, views: 0, lastViewedAt: null },
  },
  getSharedDashboard: {
    answer: {
      kind: 'folder',
      title: 'Posters',
      needsPassword: false,
      expiresAt: null,
      analytics: {
        days: 7,
        totalScans: 31,
        uniqueScanners: 27,
        uniqueScannersPartial: false,
        daily: [
          { date: '2026-12-06', count: 17, uniqueScanners: 15 },
          { date: '2026-12-07', count: 14, uniqueScanners: 12 },
        ],
        hourly: [{ hour: 9, count: 12 }],
        devices: [
          { device: 'Mobile', count: 26 },
          { device: 'Desktop', count: 5 },
        ],
        locations: [
          { location: 'Berlin, Germany', count: 22 },
          { location: 'Vienna, Austria', count: 9 },
        ],
        codes: [
          { name: 'Winter menu', scans: 24 },
          { name: 'Terrace', scans: 7 },
        ],
      },
    },
  },
  unlockSharedDashboard: { body: { password: 'winter-2026' }, answer: { unlocked: true } },
  checkQrCodeDestination: {
    answer: {
      items: [
        destinationIssue,
        {
          ...destinationIssue,
          url: 'https://cafe-aurora.example.com/closed',
          label: 'Fallback URL',
          state: 'ok',
          problem: null,
          httpStatus: 200,
          since: null,
          usingFallback: false,
        },
      ],
    },
  },
  getQrCodeImport: {
    answer: {
      import: {
        source: 'shlink',
        sourceLabel: 'Shlink',
        sourceLink: 'https://s.cafe-aurora.example/menu',
        visits: 1284,
        importedAt: '2026-12-08T10:15:00.000Z',
      },
    },
  },
  updateQrCode: {
    body: { content: 'https://cafe-aurora.example.com/winter-menu' },
    answer: { ...qrCode, content: 'https://cafe-aurora.example.com/winter-menu' },
  },
  moveQrCode: { body: { folderId: null }, answer: { ...qrCode, folderId: null } },
  deleteQrCode: { answer: done('QR code deleted') },
  testScanQrCode: { answer: { type: 'url', content: 'https://cafe-aurora.example.com/menu' } },
  listQrCodeVersions: {
    answer: [
      {
        id: 310,
        created: '2026-11-20T16:42:10.000Z',
        kind: 'edited',
        actor: { id: 7, username: 'ada' },
        restoredFrom: null,
        state: { name: 'Table menu', content: 'https://cafe-aurora.example.com/menu' },
        changes: [
          {
            field: 'destination',
            before: 'https://cafe-aurora.example.com/summer-menu',
            after: 'https://cafe-aurora.example.com/menu',
          },
        ],
      },
      {
        id: 287,
        created: '2026-10-01T08:15:00.000Z',
        kind: 'created',
        actor: { id: 7, username: 'ada' },
        restoredFrom: null,
        state: { name: 'Table menu', content: 'https://cafe-aurora.example.com/summer-menu' },
        changes: [],
      },
    ],
  },
  restoreQrCodeVersion: { answer: qrCode },
  moveQrCodeToWorkspace: { body: { workspaceId: 12 }, answer: done('Moved to Café Aurora') },
  // Bulk creation
  parseBulkFile: {
    answer: {
      fileName: 'menu-codes.csv',
      columns: ['name', 'type', 'content', 'folder'],
      rows: [
        ['Table 1', 'url', 'https://cafe-aurora.example.com/t/1', 'Table cards'],
        ['Table 2', 'url', 'https://cafe-aurora.example.com/t/2', 'Table cards'],
      ],
      truncated: false,
    },
  },
  findBulkRepeats: {
    body: {
      codes: [
        { name: 'Table menu', type: 'url', content: 'https://cafe-aurora.example.com/menu', isDynamic: true },
        { name: 'Table 2', type: 'url', content: 'https://cafe-aurora.example.com/t/2', isDynamic: true },
      ],
    },
    answer: { repeats: [{ row: 0, id: 42 }] },
  },
  createQrCodesInBulk: {
    body: {
      codes: [
        {
          name: 'Table 1',
          type: 'url',
          content: 'https://cafe-aurora.example.com/t/1',
          isDynamic: true,
          folder: 'Table cards',
        },
        { name: 'Guest Wi-Fi', type: 'wifi', content: 'WIFI:T:WPA;S:Aurora-Guests;P:croissant2026;;' },
      ],
      customization: { foregroundColor: '#1A237E' },
      allOrNothing: true,
      repeats: 'skip',
    },
    answer: {
      created: [
        {
          id: 51,
          name: 'Table 1',
          type: 'url',
          isDynamic: true,
          folderId: 3,
          shortUrl: `${PUBLIC_URL}/r/p2Lx9a`,
          row: 0,
        },
        {
          id: 52,
          name: 'Guest Wi-Fi',
          type: 'wifi',
          isDynamic: false,
          folderId: null,
          shortUrl: null,
          row: 1,
        },
      ],
      skipped: [],
      repeated: [],
      currentCount: 40,
      maxCount: 100,
    },
  },
  downloadQrCodeArchive: { body: { ids: [42, 43, 51], format: 'svg', size: 1024 } },
  // Folders
  listFolders: {
    answer: [folder, { id: 4, name: 'Posters', created: '2026-10-12T09:00:00.000Z', qrCodeCount: 3 }],
  },
  createFolder: {
    body: { name: 'Posters' },
    answer: { id: 4, name: 'Posters', created: '2026-10-12T09:00:00.000Z', qrCodeCount: 0 },
  },
  deleteFolder: { answer: done('Folder deleted; its codes moved to the root') },
  // Uploads
  uploadLogo: { answer: { url: '/api/uploads/3f9c2b7e' } },
  deleteUpload: { answer: done('Upload deleted') },
  // Analytics
  getAnalyticsSummary: {
    answer: {
      totalQRCodes: 2,
      totalScans: 1532,
      qrCodeScans: [
        { id: 42, name: 'Table menu', type: 'url', scans: 1410, lastScanAt: '2026-11-28T07:58:12.000Z' },
        { id: 43, name: 'Guest Wi-Fi', type: 'wifi', scans: 122, lastScanAt: '2026-11-27T18:03:40.000Z' },
      ],
      lastScanAt: '2026-11-28T07:58:12.000Z',
      uniqueScanners: 1204,
      uniqueScannersPartial: false,
    },
  },
  getQrCodeAnalytics: {
    answer: {
      qrCode,
      scans: [scan],
      page: 1,
      pageSize: 10,
      totalPages: 141,
      totalScans: 1410,
      uniqueLocations: 6,
      uniqueDevices: 3,
      devices: [
        { device: 'Mobile', count: 1302 },
        { device: 'Tablet', count: 71 },
        { device: 'Desktop', count: 37 },
      ],
      throttledScans: 4,
      refusedScans: 0,
      uniqueScanners: 1120,
      uniqueScannersPartial: false,
      historyFrom: null,
    },
  },
  listQrCodeScans: { answer: [scan] },
  getQrCodeScanOutcomes: {
    answer: {
      outcomes: [
        { kind: 'default', rule: null, count: 902 },
        { kind: 'rule', rule: 1, count: 508 },
      ],
      from: null,
      servedScans: 1410,
    },
  },
  getQrCodeDailyScans: { answer: dailyCounts },
  getDailyScans: { answer: dailyCounts },
  getScansByDevice: {
    answer: [
      { device: 'Mobile', count: 1398 },
      { device: 'Tablet', count: 84 },
      { device: 'Desktop', count: 50 },
    ],
  },
  getScansByHour: {
    answer: [
      { hour: 8, count: 210 },
      { hour: 12, count: 388 },
      { hour: 19, count: 254 },
    ],
  },
  getScansByLocation: {
    answer: [
      { location: 'France', count: 1290 },
      { location: 'Belgium', count: 142 },
      { location: 'Unknown', count: 100 },
    ],
  },
  getQrCodePerformance: {
    answer: [
      { qrCodeId: 42, name: 'Table menu', type: 'url', count: 1410 },
      { qrCodeId: 43, name: 'Guest Wi-Fi', type: 'wifi', count: 122 },
    ],
  },
  // Plans and billing
  getBillingStatus: {
    answer: {
      tier: 'pro',
      effectiveTier: 'pro',
      status: 'active',
      endDate: '2027-03-01T00:00:00.000Z',
      currentCount: 38,
      maxCount: 100,
      payments: 'request',
      pendingRequest: upgradeRequest,
    },
  },
  createCheckoutSession: {
    body: { tier: 'premium' },
    answer: { url: 'https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4' },
  },
  requestUpgrade: {
    body: { tier: 'premium' },
    answer: { ...done('Request sent: an admin will upgrade your plan.'), request: upgradeRequest },
  },
  receiveStripeEvent: { answer: { received: true, duplicate: false } },
  // API tokens
  listApiTokens: { answer: [apiToken] },
  createApiToken: {
    body: { name: 'Nightly menu sync', scope: 'write', expiresInDays: 365 },
    answer: { token: 'qrc_Ab12x9Yt5Qw3Er7Ui1Op4As8Df6Gh2Jk', apiToken },
  },
  deleteApiToken: { answer: done('Token revoked') },
  // Workspaces
  listWorkspaces: {
    answer: [
      {
        ...workspace,
        id: 7,
        name: 'Personal',
        kind: 'personal',
        memberCount: 1,
        qrCodeCount: 2,
        createdAt: '2026-02-14T09:30:00.000Z',
      },
      workspace,
    ],
  },
  createWorkspace: {
    body: { name: 'Café Aurora' },
    answer: {
      ...workspace,
      plan: { ...plan, tier: 'free', status: null, endDate: null },
      memberCount: 1,
      qrCodeCount: 0,
    },
  },
  getCurrentWorkspace: { answer: workspace },
  setCurrentWorkspace: { body: { workspaceId: 12 }, answer: workspace },
  getWorkspace: { answer: workspace },
  updateWorkspace: {
    body: { name: 'Café Aurora — Lyon' },
    answer: { ...workspace, name: 'Café Aurora — Lyon' },
  },
  deleteWorkspace: { answer: done('Workspace deleted') },
  listWorkspaceMembers: {
    answer: [
      {
        userId: 7,
        username: 'ada',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        role: 'owner',
        joinedAt: '2026-06-01T12:00:00.000Z',
      },
      member,
    ],
  },
  updateWorkspaceMember: { body: { role: 'admin' }, answer: { ...member, role: 'admin' } },
  deleteWorkspaceMember: { answer: done('grace was removed from Café Aurora') },
  leaveWorkspace: { answer: done('You left Café Aurora') },
  transferWorkspace: { body: { userId: 9 }, answer: done('grace is now an owner of Café Aurora') },
  listWorkspaceInvitations: { answer: [invitation] },
  createWorkspaceInvitation: { body: { email: 'barista@example.com', role: 'viewer' }, answer: invitation },
  deleteWorkspaceInvitation: { answer: done('Invitation revoked') },
  listWorkspaceActivity: {
    answer: {
      items: [
        {
          id: 801,
          actor: { id: 7, username: 'ada' },
          action: 'code.changed',
          targetType: 'qr_code',
          targetId: '42',
          targetLabel: 'Table menu',
          details: { fields: ['destination'] },
          createdAt: '2026-11-20T16:42:10.000Z',
        },
      ],
      nextBefore: 801,
    },
  },
  listMyInvitations: { answer: [{ ...invitation, email: null, username: 'ada', invitedBy: 'grace' }] },
  acceptInvitation: { body: { invitationId: 5 }, answer: { ...workspace, role: 'viewer' } },
  declineInvitation: { body: { invitationId: 5 }, answer: done('Invitation declined') },
  // Admin
  adminListUsers: { answer: [adminUser] },
  adminCreateUser: {
    body: {
      username: 'grace',
      password: 'a long first password',
      name: 'Grace Hopper',
      email: 'grace@example.com',
    },
    answer: {
      ...adminUser,
      id: 9,
      username: 'grace',
      name: 'Grace Hopper',
      email: 'grace@example.com',
      emailVerified: false,
      subscriptionTier: 'free',
      subscriptionStatus: null,
      subscriptionEndDate: null,
      qrCodeCount: 0,
      twoFactorEnabled: false,
      createdAt: '2026-11-28T09:00:00.000Z',
    },
  },
  adminUpdateUser: { body: { name: 'Ada King' }, answer: { ...adminUser, name: 'Ada King' } },
  adminDeleteUser: { answer: { ...done('User ada deleted'), deleted: deletionImpact } },
  adminResetUserPassword: {
    body: { newPassword: 'a temporary passphrase', clearTwoFactor: true },
    answer: done("Password reset; ada's sessions were signed out"),
  },
  adminGetUserDeletionImpact: { answer: deletionImpact },
  adminToggleUserUnlimited: {
    answer: { ...done('ada now has unlimited codes'), user: { ...adminUser, hasUnlimitedAccess: true } },
  },
  adminListSubscriptions: { answer: [{ ...adminUser, upgradeRequest }] },
  adminUpgradeUser: {
    body: { tier: 'premium', duration: 30 },
    answer: {
      ...done('ada is on Premium until 2026-12-28'),
      user: { ...adminUser, subscriptionTier: 'premium' },
    },
  },
  adminExtendUserSubscription: {
    body: { days: 30 },
    answer: {
      ...done('Extended by 30 days'),
      user: { ...adminUser, subscriptionEndDate: '2027-03-31T00:00:00.000Z' },
    },
  },
  adminCancelUserSubscription: {
    body: { immediate: false },
    answer: {
      ...done('Pro ends on 2027-03-01'),
      user: { ...adminUser, subscriptionStatus: 'cancelled' },
    },
  },
  adminListWorkspaces: { answer: [adminWorkspace] },
  adminGetWorkspace: { answer: adminWorkspace },
  adminUpgradeWorkspace: {
    body: { tier: 'premium', duration: 30 },
    answer: {
      ...done('Café Aurora is on Premium until 2026-12-28'),
      workspace: { ...adminWorkspace, plan: { ...plan, tier: 'premium' } },
    },
  },
  adminExtendWorkspaceSubscription: {
    body: { days: 30 },
    answer: {
      ...done('Extended by 30 days'),
      workspace: { ...adminWorkspace, plan: { ...plan, endDate: '2027-03-31T00:00:00.000Z' } },
    },
  },
  adminCancelWorkspaceSubscription: {
    body: { immediate: true },
    answer: {
      ...done('Café Aurora is back on Free'),
      workspace: { ...adminWorkspace, plan: { ...plan, tier: 'free', status: null, endDate: null } },
    },
  },
  adminToggleWorkspaceUnlimited: {
    answer: {
      ...done('Café Aurora now has unlimited codes'),
      workspace: { ...adminWorkspace, plan: { ...plan, hasUnlimitedAccess: true } },
    },
  },
  adminDecideUpgradeRequest: {
    body: { approve: true, duration: 30 },
    answer: {
      ...done('Approved: ada is on Premium until 2026-12-28'),
      user: { ...adminUser, subscriptionTier: 'premium' },
    },
  },
  adminGetStats: {
    answer: {
      users: 214,
      admins: 2,
      qrCodes: 3180,
      scansToday: 1840,
      scans7Days: 12410,
      scans30Days: 51230,
      signupsPerDay: [
        { date: '2026-11-27', count: 3 },
        { date: '2026-11-28', count: 1 },
      ],
      scansPerDay: [
        { date: '2026-11-27', count: 1920 },
        { date: '2026-11-28', count: 1840 },
      ],
      topUsers: [{ id: 7, username: 'ada', scans: 1532 }],
      databaseBytes: 48234496,
      databaseKind: 'postgres',
    },
  },
  adminGetNotices: { answer: { pendingUpgradeRequests: 1, adminsWithEmail: 2 } },
  adminListMails: {
    answer: {
      transport: 'smtp',
      from: 'QR Creator <noreply@example.com>',
      entries: [
        {
          id: 330,
          recipient: 'ada@example.com',
          subject: 'Your weekly scan digest',
          status: 'sent',
          error: null,
          createdAt: '2026-11-24T07:00:00.000Z',
        },
      ],
    },
  },
  adminListMailQueue: {
    answer: {
      waiting: 1,
      givenUp: 0,
      mails: [
        {
          id: 12,
          recipient: 'barista@example.com',
          subject: 'You are invited to Café Aurora',
          status: 'waiting',
          attempts: 2,
          nextAttemptAt: '2026-11-28T09:20:00.000Z',
          expiresAt: '2026-12-04T10:00:00.000Z',
          lastError: '421 4.7.0 Try again later',
          createdAt: '2026-11-27T10:00:00.000Z',
          finishedAt: null,
        },
      ],
    },
  },
  adminRetryMail: { answer: done('Sent to barista@example.com') },
  adminGetSettings: { answer: settings },
  adminUpdateSettings: { body: { freePlanLimit: 20 }, answer: { ...settings, freePlanLimit: 20 } },
  adminListAuditLog: {
    answer: {
      entries: [
        {
          id: 77,
          actorId: 1,
          actorUsername: 'admin',
          action: 'user.subscription.upgrade',
          targetType: 'user',
          targetId: '7',
          targetLabel: 'ada',
          before: { tier: 'pro' },
          after: { tier: 'premium' },
          createdAt: '2026-11-28T08:30:00.000Z',
        },
      ],
      total: 1,
      page: 1,
      pageSize: 20,
    },
  },
  // Reference
  getOpenApiDocument: {
    answer: { openapi: '3.1.0', info: { title: 'QR Creator API', version: '1' }, paths: {} },
  },
};
