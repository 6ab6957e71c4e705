import type { z } from 'zod';

/**
 * The content of one code, by field name (see `contentFields`). The stored `content` is the payload string
 * that `encodeContent` builds from these; `decodeContent` reads it back for the edit form and the scan demo.
 *
 * Round trip: for every type `t` and every `x` output by `contentFieldsSchema(t)`,
 * `decodeContent(t, encodeContent(t, x))` deep-equals `x`, except that pdf, video and image carry only the
 * url in their payload (decode answers `title: ''`; a title is kept beside the payload, not in it).
 * Hidden fields (the event's `timeZone`) are present only when set: the schema drops them when blank and
 * decode answers them only when the payload carries them (read a missing one as '').
 */
export type ContentFields = Record<string, string>;

/** Fields as the encoders take them: any may be missing (read as ''). */
export type FieldsIn = Partial<ContentFields>;

/** What a field's own check answers: the value to store, or the message of the issue. */
export type FieldOutcome = { value: string } | { message: string };

/**
 * A type's rules for one field beyond what `content-fields.ts` declares (required, length, kind). The common
 * rules still apply first: a blank value is '' (or 'is required'), a value over its length is refused.
 */
export interface FieldRefinement {
  /** Kept exactly as typed: not trimmed, line breaks left as they are (a space can be part of a secret). */
  verbatim?: boolean;
  /**
   * Replaces the checks of the field's kind for a non-blank value within its length. `label` is the field's
   * label, for the message.
   */
  check?(value: string, label: string): FieldOutcome;
}

/** The object schema of a type's fields, each a trimmed (or verbatim) string. */
export type FieldsObject = z.ZodType<ContentFields>;

/**
 * Everything that differs from one QR type to another: its field rules, its payload format and its summary.
 * `content.ts` dispatches to the codec of the type; `registry.ts` holds one per type.
 */
export interface QrTypeCodec {
  /** Field rules of the type, by field name (fields not named here follow the common rules only). */
  fields?: Readonly<Record<string, FieldRefinement>>;
  /** Rules across fields, added after the fields' own (an end after the start, say). */
  refine?(object: FieldsObject): FieldsObject;
  /** The blank form's values other than '' (a select's default). */
  formDefaults?: Readonly<ContentFields>;
  /** The payload a phone camera understands. Values are used as given (validate first). */
  encode(fields: FieldsIn): string;
  /**
   * Every input field of the type, read from a payload (also other generators' payloads); a payload that is
   * not of the type gives a best effort (the whole payload in the main field) for the schema to judge.
   */
  decode(payload: string): ContentFields;
  /** The summary of decoded fields, before the type's label is put in front and it is cut to one line. */
  describe(fields: ContentFields): string;
}

/** Summary parts joined by a dash, blank ones left out: 'a@b.c — Hello'. */
export function joinParts(...parts: string[]): string {
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join(' — ');
}
