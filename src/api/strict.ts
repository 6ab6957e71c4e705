import type { z } from 'zod';

/**
 * A field's stricter twin for the versioned REST paths (`/api/v1`): the spec's paths keep its lenient
 * reading (an unknown QR type read as url, as the spec says), the versioned ones refuse what the lenient
 * one would guess at. Declared beside the field, used by the server's closed copy of a request schema.
 */
const strictVariants = new WeakMap<z.ZodType, z.ZodType>();

export function withStrictVariant<S extends z.ZodType>(lenient: S, strict: z.ZodType): S {
  strictVariants.set(lenient, strict);
  return lenient;
}

export function strictVariantOf(schema: z.ZodType): z.ZodType | undefined {
  return strictVariants.get(schema);
}
