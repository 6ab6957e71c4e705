// Every path the SDK calls, and nothing else: the one file to change when the API's paths move (a
// version prefix, say). The types in index.ts are read from the generated `paths` through these names.

export const QR_CODES = '/api/v1/qr-codes';
export const QR_CODE = '/api/v1/qr-codes/{id}';
export const QR_CODE_IMAGE = '/api/v1/qr-codes/{id}/image';
export const QR_CODES_BULK = '/api/v1/qr-codes/bulk';
export const FOLDERS = '/api/v1/folders';
export const FOLDER = '/api/v1/folders/{id}';
export const ANALYTICS_SUMMARY = '/api/v1/analytics/user';
export const ANALYTICS_CODE = '/api/v1/analytics/qr-codes/{id}';
export const ANALYTICS_EXPORT = '/api/v1/analytics/export';
