// A smart redirect's limits, without zod (smart-redirect.ts has the schemas and re-exports these), so
// the designer's first screen can use them before any check is loaded.
export const SMART_RULES_MAX = 20;
export const RULE_CONDITIONS_MAX = 5;
export const RULE_LABEL_MAX = 60;
export const RULE_COUNTRIES_MAX = 250;
export const RULE_LANGUAGES_MAX = 50;
export const DESTINATION_MAX = 2048;
export const INACTIVE_MESSAGE_MAX = 500;
export const UTM_VALUE_MAX = 100;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
