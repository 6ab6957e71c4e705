// The sign-in features' name for the app's random tokens (server/random-tokens.ts).
export { hashToken, newToken } from '../../random-tokens.js';
