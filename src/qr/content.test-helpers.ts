// Helpers the content test files share.
import { contentFieldsSchema, type ContentFields } from './content';

/** Lines joined as vCard and iCalendar join them. */
export const crlf = (...lines: string[]) => lines.join('\r\n');

/** The schema's messages for an input, each as `field: message`; [] when it is valid. */
export function messages(type: string, input: unknown): string[] {
  const result = contentFieldsSchema(type).safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
}

/** The schema's output for a valid input. */
export function parsed(type: string, input: unknown): ContentFields {
  return contentFieldsSchema(type).parse(input);
}
