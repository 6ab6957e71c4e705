import { z } from 'zod';
import { strictVariantOf } from '../../src/api/strict.js';

/**
 * The `/api/v1` paths take only the fields they document: a request schema's closed copy, in which every
 * object (however deep: in arrays, unions, optionals, defaults, pipes) refuses a field it does not
 * declare, naming it ("destination: Unknown field"). The unprefixed spec paths keep the lenient schema
 * (unknown fields ignored), and tRPC too. The OpenAPI document publishes the closed copy, so the document
 * and the server hold the same rules (`additionalProperties: false`).
 */

// A catch-all `never` makes zod refuse unknown keys; server/errors.ts names each one ("Unknown field").
const unknownField = z.never();
const closed = new WeakMap<z.ZodType, z.ZodType>();

type Def = Record<string, unknown> & { type: string };

function closeDef(def: Def, shape: () => Record<string, z.ZodType> | undefined): Def | null {
  switch (def.type) {
    case 'object': {
      const fields = Object.fromEntries(
        Object.entries(shape() ?? {}).map(([key, value]) => [key, closedSchema(value)]),
      );
      // A declared catch-all (a free-form map) stays as it is; a plain object closes.
      const catchall = def.catchall as z.ZodType | undefined;
      return { ...def, shape: fields, catchall: catchall ? closedSchema(catchall) : unknownField };
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return { ...def, innerType: closedSchema(def.innerType as z.ZodType) };
    case 'array':
      return { ...def, element: closedSchema(def.element as z.ZodType) };
    case 'union':
      return { ...def, options: (def.options as z.ZodType[]).map(closedSchema) };
    case 'intersection':
      // Each side names only its own fields: closing them would refuse the other side's.
      return null;
    case 'pipe':
      return { ...def, in: closedSchema(def.in as z.ZodType) };
    case 'lazy': {
      const getter = def.getter as () => z.ZodType;
      return { ...def, getter: () => closedSchema(getter()) };
    }
    default:
      return null;
  }
}

/** The schema with every object closed to unknown fields (memoised: the same copy for the same schema). */
export function closedSchema<S extends z.ZodType>(schema: S): S {
  const known = closed.get(schema);
  if (known) return known as S;
  const variant = strictVariantOf(schema);
  if (variant) {
    closed.set(schema, variant);
    return variant as S;
  }
  const def = closeDef(schema._zod.def as unknown as Def, () =>
    schema instanceof z.ZodObject ? schema.shape : undefined,
  );
  if (!def) {
    closed.set(schema, schema);
    return schema;
  }
  const copy = schema.clone(def as never);
  // The description, examples and title belong to the copy too (the document shows them); an id stays
  // with the original, which the document may name as a component.
  const meta = z.globalRegistry.get(schema);
  if (meta) {
    const { id: _id, ...rest } = meta;
    z.globalRegistry.add(copy, rest);
  }
  closed.set(schema, copy);
  return copy;
}
