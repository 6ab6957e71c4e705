/**
 * The `code` of every REST error body: a stable name of the cause, for a program to branch on (the
 * `message` is for people and may be reworded). The OpenAPI document and docs/api.md list this table; a
 * code is never renamed or reused, new ones may be added.
 */
export const errorCodes = {
  VALIDATION_FAILED: { status: 400, description: 'A field is invalid or unknown; `issues` lists each one.' },
  BAD_REQUEST: { status: 400, description: 'The request cannot be understood as sent (not the fields).' },
  INVALID_JSON: { status: 400, description: 'The body is not valid JSON, or not a JSON object.' },
  NOT_SIGNED_IN: { status: 401, description: 'No session and no API token.' },
  INVALID_CREDENTIALS: {
    status: 401,
    description: 'Wrong username, password or two-factor code, or no sign-in pending.',
  },
  TOKEN_INVALID: { status: 401, description: 'The API token is unknown, revoked or expired.' },
  FORBIDDEN: { status: 403, description: 'Not allowed, for a reason the message gives.' },
  ADMIN_REQUIRED: { status: 403, description: 'The path is for admins.' },
  TOKEN_READ_ONLY: { status: 403, description: 'A read token asked to change something.' },
  TOKEN_SCOPE: {
    status: 403,
    description: 'The token lacks the scope (admin paths need an admin-scope token) or the workspace.',
  },
  TOKEN_NOT_ACCEPTED: {
    status: 403,
    description: "The path takes the app's session only (the account's e-mail, password, sessions, tokens…).",
  },
  ROLE_REQUIRED: { status: 403, description: "The caller's role in the workspace is too low." },
  LIMIT_REACHED: {
    status: 403,
    description: 'The plan allows no more codes: `limitReached`, `currentCount`, `maxCount` say how many.',
  },
  STATIC_CODE_NOT_EDITABLE: {
    status: 403,
    description: 'Only a dynamic code can be changed after creation.',
  },
  EMAIL_NOT_VERIFIED: {
    status: 403,
    description: 'The account must confirm its e-mail first (`requiresVerification`).',
  },
  REGISTRATION_CLOSED: { status: 403, description: 'New accounts are not taken here.' },
  CROSS_SITE_REFUSED: { status: 403, description: 'A request from another site was refused.' },
  NOT_FOUND: {
    status: 404,
    description: "No such object for this caller (another user's is a 404 too), or no such path.",
  },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The path does not take this method.' },
  CONFLICT: { status: 409, description: 'The object is not in a state that allows this.' },
  USERNAME_TAKEN: { status: 409, description: 'Another account has this username.' },
  EMAIL_TAKEN: { status: 409, description: 'Another account has this e-mail address.' },
  SLUG_TAKEN: { status: 409, description: 'Another short link has this slug.' },
  DOMAIN_TAKEN: { status: 409, description: 'This short domain is already added.' },
  DOMAIN_IN_USE: { status: 409, description: 'Codes use this short domain: it cannot be deleted.' },
  NAME_TAKEN: { status: 409, description: 'Another object here has this name.' },
  ALREADY_DONE: {
    status: 409,
    description: 'Already so (two-factor on, e-mail verified, member, invited…).',
  },
  LAST_OWNER: { status: 409, description: 'A workspace must keep one owner.' },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    description: 'A request with this Idempotency-Key is still running: retry after it ends.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    description: 'This Idempotency-Key was used with another method, path or body in the last 24 hours.',
  },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The body or file is larger than the path takes.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'The body is not of a type the path takes.' },
  RATE_LIMITED: {
    status: 429,
    description: 'Too many requests or attempts: wait `Retry-After` seconds (`retryAfterSeconds`).',
  },
  INTERNAL_SERVER_ERROR: { status: 500, description: 'The server failed; nothing was changed.' },
  UPSTREAM_FAILED: {
    status: 502,
    description: 'A service the server relies on (mail, payments) refused or failed.',
  },
  UNAVAILABLE: {
    status: 503,
    description: 'A service the server relies on (the directory) cannot be reached.',
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof errorCodes;
export const errorCodeNames = Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]];
