import type { Cell, Section } from './report-sections.js';

/** Spreadsheets run a cell starting with one of these as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field, RFC 4180: numbers bare, text always quoted; text that a spreadsheet would run as a formula gets a leading '. */
export function csvField(cell: Cell): string {
  let text: string;
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  if (typeof cell === 'string') text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  else if ('date' in cell) text = cell.date;
  else if ('time' in cell) text = cell.time;
  else return String(cell.percent);
  // Text is always quoted: where Excel's list separator is ';', an unquoted 'a;=1' would be split
  // into a second cell that starts with '=' (quoted, it stays one cell).
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

/**
 * The report as CSV text, chunk by chunk: a UTF-8 BOM (so Excel reads accents right), then each
 * section as a title line, a header row and its rows, sections separated by a blank line.
 */
export async function* csvReport(sections: readonly Section[]): AsyncGenerator<string> {
  yield '\uFEFF';
  for (const [i, section] of sections.entries()) {
    let head = i > 0 ? '\r\n' : '';
    head += csvLine([section.title]) + csvLine(section.columns.map((c) => c.header));
    if (Array.isArray(section.rows)) {
      yield head + section.rows.map(csvLine).join('');
      continue;
    }
    yield head;
    for await (const page of section.rows()) yield page.map(csvLine).join('');
  }
}
