/** Examples of the documented paths, keyed by operationId (server/rest/operation-ids.ts). */
export interface OperationExample {
  body?: unknown;
  answer?: unknown;
}
export const examples: Readonly<Record<string, OperationExample>> = {};
