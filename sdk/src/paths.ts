// Every path the SDK calls, and nothing else: the one file to change when the API's paths move (a
// version prefix, say). The types in index.ts are read from the generated `paths` through these names.

export const QR_CODES = '/api/qr-codes';
export const QR_CODE = '/api/qr-codes/{id}';
export const QR_CODE_IMAGE = '/api/qr-codes/{id}/image';
export const QR_CODES_BULK = '/api/qr-codes/bulk';
export const FOLDERS = '/api/folders';
export const FOLDER = '/api/folders/{id}';
export const ANALYTICS_SUMMARY = '/api/analytics/user';
export const ANALYTICS_CODE = '/api/analytics/qr-codes/{id}';
export const ANALYTICS_EXPORT = '/api/analytics/export';
