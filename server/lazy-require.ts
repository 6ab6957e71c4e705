import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded the first time it is needed rather than at start-up: the report writers, the PNG
 * renderer, Stripe, the PostgreSQL driver and the mail transport are megabytes of memory an idle server
 * (or one that never exports a PDF) should not hold. The type comes from a type-only import.
 */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}
