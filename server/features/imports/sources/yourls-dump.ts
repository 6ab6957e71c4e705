import { IMPORT_MAX_LINKS, importMessages } from '../../../../src/imports/import.schema.js';
import { countryName } from '../../scans/geo.js';
import { SourceError, type SourceLink, type SourceVisit } from './source.js';

/**
 * YOURLS, read from its database: a MySQL dump (mysqldump, phpMyAdmin's SQL export) or a CSV of its url
 * table.
 *
 * Where the format is documented:
 * - The tables: YOURLS/YOURLS includes/functions-install.php (yourls_create_sql_tables):
 *   `{prefix}url` (keyword, url, title, timestamp, ip, clicks) and `{prefix}log` (click_id, click_time,
 *   shorturl, referrer, user_agent, ip_address, country_code), the prefix `yourls_` unless
 *   YOURLS_DB_PREFIX says otherwise. Releases before 1.5 had no `title` column.
 * - A visit: includes/functions.php (yourls_log_redirect, yourls_get_referrer): the server's local time
 *   as 'Y-m-d H:i:s' (read here as UTC), the referrer 'direct' when there was none, the country code ''
 *   when the address was not located.
 * - The dump's syntax: MySQL's INSERT and string literals (dev.mysql.com/doc/refman/8.0/en/insert.html,
 *   /string-literals.html): `\'` `\"` `\\` `\n` `\r` `\t` `\0` `\Z` `\b` escapes and doubled quotes;
 *   mysqldump writes `INSERT INTO \`t\` VALUES (…),(…);` (column list only with --complete-insert, which
 *   phpMyAdmin always writes), `_binary '…'` / 0x… for binary columns, comments `-- `, `#`, `/* *\/`.
 *   A statement without a column list is read with the columns of the dump's CREATE TABLE, else in the
 *   install order.
 */

type SqlValue = string | null;

interface SqlInsert {
  columns: string[] | null;
  rows: SqlValue[][];
}

interface SqlTable {
  name: string;
  /** The columns its CREATE TABLE declares, when the dump has it. */
  columns: string[] | null;
  inserts: SqlInsert[];
}

/** The install order of the columns (functions-install.php), by the number of values a row has. */
const URL_COLUMNS: Record<number, string[]> = {
  6: ['keyword', 'url', 'title', 'timestamp', 'ip', 'clicks'],
  5: ['keyword', 'url', 'timestamp', 'ip', 'clicks'],
};
const LOG_COLUMNS: Record<number, string[]> = {
  7: ['click_id', 'click_time', 'shorturl', 'referrer', 'user_agent', 'ip_address', 'country_code'],
};

class SqlSyntaxError extends Error {}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  b: '\b',
  n: '\n',
  r: '\r',
  t: '\t',
  Z: '\x1a',
  // LIKE's wildcards keep their backslash (MySQL's rule).
  '%': '\\%',
  _: '\\_',
};

const NUMBER = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/y;
const HEX_NUMBER = /0x([0-9a-fA-F]*)/y;
const WORD = /[A-Za-z0-9_$]+/y;

/** Reads MySQL statements: just what a dump holds. */
class SqlScanner {
  pos = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  /** Skips blanks and comments. */
  space(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 32 || c === 10 || c === 13 || c === 9 || c === 11 || c === 12) {
        this.pos++;
      } else if (
        c === 45 &&
        t.charCodeAt(this.pos + 1) === 45 &&
        isCommentDashEnd(t.charCodeAt(this.pos + 2))
      ) {
        this.toLineEnd();
      } else if (c === 35) {
        this.toLineEnd();
      } else if (c === 47 && t.charCodeAt(this.pos + 1) === 42) {
        const end = t.indexOf('*/', this.pos + 2);
        this.pos = end < 0 ? t.length : end + 2;
      } else {
        return;
      }
    }
  }

  private toLineEnd(): void {
    const end = this.text.indexOf('\n', this.pos);
    this.pos = end < 0 ? this.text.length : end + 1;
  }

  /** The next bare word (letters, digits, _ and $), or ''. */
  word(): string {
    this.space();
    WORD.lastIndex = this.pos;
    const match = WORD.exec(this.text);
    if (!match) return '';
    this.pos += match[0].length;
    return match[0];
  }

  /** The next word if it is `expected` (case-insensitive), consumed; false otherwise. */
  keyword(expected: string): boolean {
    const start = this.pos;
    if (this.word().toUpperCase() === expected) return true;
    this.pos = start;
    return false;
  }

  /** A name, quoted (`a`, "a") or bare; of `db`.`table` the last part. */
  name(): string {
    this.space();
    let value = this.namePart();
    for (;;) {
      const start = this.pos;
      this.space();
      if (this.text[this.pos] !== '.') {
        this.pos = start;
        return value;
      }
      this.pos++;
      this.space();
      value = this.namePart();
    }
  }

  private namePart(): string {
    const c = this.text[this.pos];
    if (c === '`' || c === '"') return this.quoted(c);
    const value = this.word();
    if (!value) throw new SqlSyntaxError('A name was expected');
    return value;
  }

  /** A quoted string or name starting at `pos`, its escapes undone. */
  quoted(quote: string): string {
    const t = this.text;
    const q = quote.charCodeAt(0);
    const backslashes = quote !== '`';
    let out = '';
    let start = ++this.pos;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (Number.isNaN(c)) throw new SqlSyntaxError('A string is not closed');
      if (c === 92 && backslashes) {
        const escaped = t[this.pos + 1];
        if (escaped === undefined) throw new SqlSyntaxError('A string is not closed');
        out += t.slice(start, this.pos) + (ESCAPES[escaped] ?? escaped);
        this.pos += 2;
        start = this.pos;
      } else if (c === q) {
        if (t.charCodeAt(this.pos + 1) === q) {
          out += t.slice(start, this.pos + 1);
          this.pos += 2;
          start = this.pos;
        } else {
          out += t.slice(start, this.pos);
          this.pos++;
          return out;
        }
      } else {
        this.pos++;
      }
    }
  }

  /** One value of a VALUES row. Numbers are kept as their text. */
  value(): SqlValue {
    this.space();
    const t = this.text;
    const c = t[this.pos];
    if (c === "'" || c === '"') return this.quoted(c);
    if (c === undefined) throw new SqlSyntaxError('A value was expected');
    HEX_NUMBER.lastIndex = this.pos;
    const hex = HEX_NUMBER.exec(t);
    if (hex) {
      this.pos += hex[0].length;
      return Buffer.from(hex[1]!, 'hex').toString('utf8');
    }
    NUMBER.lastIndex = this.pos;
    const number = NUMBER.exec(t);
    if (number) {
      this.pos += number[0].length;
      return number[0];
    }
    const word = this.word();
    const upper = word.toUpperCase();
    const next = t[this.pos];
    if (upper === 'NULL') return null;
    if (upper === 'TRUE') return '1';
    if (upper === 'FALSE') return '0';
    if (upper === 'X' && next === "'") return Buffer.from(this.quoted("'"), 'hex').toString('utf8');
    if (upper === 'N' && next === "'") return this.quoted("'");
    if (upper === 'B' && next === "'") return this.quoted("'");
    // A character set introducer: _binary '…', _utf8mb4'…'.
    if (word.startsWith('_') && word.length > 1) return this.value();
    throw new SqlSyntaxError(`Unexpected ${word || c}`);
  }

  /** Expects `char` next (after blanks), consumed. */
  expect(char: string): void {
    this.space();
    if (this.text[this.pos] !== char) throw new SqlSyntaxError(`${char} was expected`);
    this.pos++;
  }

  /** Whether `char` is next (after blanks); consumed when it is. */
  accept(char: string): boolean {
    this.space();
    if (this.text[this.pos] !== char) return false;
    this.pos++;
    return true;
  }

  /** Moves past the end of the current statement (its `;`, or the end of the text). */
  skipStatement(): void {
    const t = this.text;
    while (this.pos < t.length) {
      this.space();
      const c = t[this.pos];
      if (c === undefined) return;
      if (c === ';') {
        this.pos++;
        return;
      }
      if (c === "'" || c === '"' || c === '`') {
        try {
          this.quoted(c);
        } catch {
          this.pos = t.length;
        }
      } else {
        this.pos++;
      }
    }
  }
}

function isCommentDashEnd(c: number): boolean {
  return Number.isNaN(c) || c === 32 || c === 9 || c === 10 || c === 13;
}

/** Whether the table's rows are kept: candidates for the url and log tables. */
function wanted(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.endsWith('url') || lower.endsWith('log');
}

function tableOf(tables: Map<string, SqlTable>, name: string): SqlTable {
  const key = name.toLowerCase();
  let table = tables.get(key);
  if (!table) {
    table = { name, columns: null, inserts: [] };
    tables.set(key, table);
  }
  return table;
}

/**
 * INSERT [LOW_PRIORITY|DELAYED|HIGH_PRIORITY] [IGNORE] [INTO] name [(columns)] VALUES (…),(…). A broken
 * statement of another table is passed over; one of a url or log table throws SqlSyntaxError (the dump
 * is cut short, or not a dump): its links would be read in part.
 */
function readInsert(sql: SqlScanner, tables: Map<string, SqlTable>): void {
  const modifiers = ['LOW_PRIORITY', 'DELAYED', 'HIGH_PRIORITY', 'IGNORE'];
  let modifier = true;
  while (modifier) modifier = modifiers.some((w) => sql.keyword(w));
  sql.keyword('INTO');
  const name = sql.name();
  const keep = wanted(name);
  try {
    let columns: string[] | null = null;
    if (sql.accept('(')) {
      columns = [];
      do columns.push(sql.name().toLowerCase());
      while (sql.accept(','));
      sql.expect(')');
    }
    if (!sql.keyword('VALUES') && !sql.keyword('VALUE')) {
      // INSERT … SELECT / SET: nothing a dump of YOURLS writes.
      sql.skipStatement();
      return;
    }
    const rows: SqlValue[][] = [];
    do {
      sql.expect('(');
      const row: SqlValue[] = [];
      if (!sql.accept(')')) {
        do row.push(sql.value());
        while (sql.accept(','));
        sql.expect(')');
      }
      if (keep) rows.push(row);
    } while (sql.accept(','));
    sql.space();
    if (!sql.done && !sql.accept(';')) {
      // ON DUPLICATE KEY UPDATE …
      if (!sql.keyword('ON')) throw new SqlSyntaxError('; was expected');
      sql.skipStatement();
    }
    if (keep) tableOf(tables, name).inserts.push({ columns, rows });
  } catch (error) {
    if (keep || !(error instanceof SqlSyntaxError)) throw error;
    sql.skipStatement();
  }
}

const NOT_COLUMNS = new Set([
  'PRIMARY',
  'KEY',
  'INDEX',
  'UNIQUE',
  'CONSTRAINT',
  'FOREIGN',
  'FULLTEXT',
  'SPATIAL',
  'CHECK',
]);

/** CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name ( definitions ): the column names, in order. */
function readCreateTable(sql: SqlScanner, tables: Map<string, SqlTable>): void {
  sql.keyword('TEMPORARY');
  if (!sql.keyword('TABLE')) return sql.skipStatement();
  if (sql.keyword('IF')) {
    sql.keyword('NOT');
    sql.keyword('EXISTS');
  }
  const name = sql.name();
  if (!sql.accept('(')) return sql.skipStatement();
  const columns: string[] = [];
  const t = sql.text;
  for (;;) {
    sql.space();
    const c = t[sql.pos];
    if (c === undefined) break;
    const quoted = c === '`' || c === '"';
    const first = sql.name();
    if (quoted || !NOT_COLUMNS.has(first.toUpperCase())) columns.push(first.toLowerCase());
    // The rest of the definition, up to its comma or the closing parenthesis.
    let depth = 0;
    let end: string | undefined;
    while (sql.pos < t.length) {
      sql.space();
      const d = t[sql.pos];
      if (d === "'" || d === '"' || d === '`') {
        sql.quoted(d);
        continue;
      }
      sql.pos++;
      if (d === '(') depth++;
      else if (d === ')' && depth > 0) depth--;
      else if ((d === ',' || d === ')') && depth === 0) {
        end = d;
        break;
      }
    }
    if (end !== ',') break;
  }
  sql.skipStatement();
  if (wanted(name)) tableOf(tables, name).columns = columns;
}

/** The url and log candidate tables of a dump. Throws SqlSyntaxError on a broken INSERT into one. */
function readDump(text: string): Map<string, SqlTable> {
  const sql = new SqlScanner(text);
  const tables = new Map<string, SqlTable>();
  for (;;) {
    sql.space();
    if (sql.done) return tables;
    if (sql.accept(';')) continue;
    const start = sql.pos;
    const verb = sql.word().toUpperCase();
    if (verb === 'INSERT' || verb === 'REPLACE') {
      readInsert(sql, tables);
    } else if (verb === 'CREATE') {
      try {
        readCreateTable(sql, tables);
      } catch (error) {
        if (!(error instanceof SqlSyntaxError)) throw error;
        sql.skipStatement();
      }
    } else if (verb === 'DELIMITER') {
      const end = text.indexOf('\n', sql.pos);
      sql.pos = end < 0 ? text.length : end + 1;
    } else {
      // Not a word: a stray character; step over it.
      if (sql.pos === start) sql.pos++;
      sql.skipStatement();
    }
  }
}

/** Whether the text starts (after blanks and comments) like an SQL script. */
export function looksLikeSqlDump(text: string): boolean {
  const sql = new SqlScanner(text.slice(0, 1_000_000));
  // mysqldump starts with comments and /*!…*/; statements.
  do sql.space();
  while (sql.accept(';'));
  const verb = sql.word().toUpperCase();
  return [
    'INSERT',
    'REPLACE',
    'CREATE',
    'DROP',
    'SET',
    'LOCK',
    'UNLOCK',
    'USE',
    'START',
    'BEGIN',
    'ALTER',
    'DELIMITER',
    'COMMIT',
  ].includes(verb);
}

/** The table of links: named `…url`, best one that has a keyword column, or YOURLS's default name. */
function urlTableOf(tables: Map<string, SqlTable>): SqlTable | undefined {
  const candidates = [...tables.values()].filter((t) => t.name.toLowerCase().endsWith('url'));
  const hasKeyword = (t: SqlTable) =>
    (t.columns ?? []).includes('keyword') || t.inserts.some((i) => i.columns?.includes('keyword'));
  return (
    candidates.find((t) => hasKeyword(t) && t.inserts.length > 0) ??
    candidates.find(hasKeyword) ??
    candidates.find((t) => t.name.toLowerCase() === 'yourls_url') ??
    candidates.find((t) => t.inserts.length > 0)
  );
}

/** Each row of the table as a column → value lookup. */
function* recordsOf(
  table: SqlTable,
  installOrder: Record<number, string[]>,
): Generator<Map<string, SqlValue>> {
  for (const insert of table.inserts) {
    for (const row of insert.rows) {
      const columns = insert.columns ?? table.columns ?? installOrder[row.length] ?? [];
      const record = new Map<string, SqlValue>();
      columns.forEach((column, i) => record.set(column, row[i] ?? null));
      yield record;
    }
  }
}

/** 'YYYY-MM-DD HH:MM:SS' (the server's time, taken as UTC) in ms; null for none or MySQL's zero date. */
export function parseSqlTime(value: string | null | undefined): number | null {
  const match = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*$/.exec(
    value ?? '',
  );
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map<number>(Number);
  if (!y || !mo || !d) return null;
  const ms = Date.UTC(y, mo - 1, d, h || 0, mi || 0, s || 0);
  return Number.isNaN(ms) ? null : ms;
}

function text(value: SqlValue | undefined): string {
  return (value ?? '').trim();
}

function count(value: SqlValue | undefined): number | null {
  const n = Number.parseInt(text(value).replace(/[\s,]/g, ''), 10);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** 'City, Country' / 'Country' of geo.ts from an ISO country code; null when unknown. */
function locationOf(code: string): string | null {
  if (!/^[A-Za-z]{2}$/.test(code)) return null;
  const name = countryName(code.toUpperCase());
  if (!name || name.toUpperCase() === code.toUpperCase() || name === 'Unknown Region') return null;
  return name;
}

function linkOf(get: (column: string) => SqlValue | undefined): SourceLink | null {
  const slug = text(get('keyword'));
  const destination = text(get('url'));
  if (!slug && !destination) return null;
  const title = text(get('title'));
  return {
    slug,
    destination,
    title: title && title !== 'NULL' ? title : null,
    createdAt: parseSqlTime(get('timestamp')),
    tags: [],
    domain: null,
    visitCount: count(get('clicks')),
    shortUrl: null,
  };
}

function pushLink(links: SourceLink[], link: SourceLink | null): void {
  if (!link) return;
  if (links.length >= IMPORT_MAX_LINKS) throw new SourceError(importMessages.tooMany);
  links.push(link);
}

export interface YourlsDump {
  links: SourceLink[];
  /** Present when the dump holds the log table: visits by index in `links`. */
  visits?: Map<number, SourceVisit[]>;
}

/**
 * The links of a YOURLS dump, and their visits when it holds the log table. Throws
 * SourceError(unknownFormat) when it has no url table or one of its statements is cut short,
 * SourceError(tooMany) past IMPORT_MAX_LINKS.
 */
export function readYourlsDump(sqlText: string): YourlsDump {
  let tables: Map<string, SqlTable>;
  try {
    tables = readDump(sqlText);
  } catch (error) {
    if (error instanceof SqlSyntaxError) throw new SourceError(importMessages.unknownFormat);
    throw error;
  }
  const urlTable = urlTableOf(tables);
  if (!urlTable) throw new SourceError(importMessages.unknownFormat);
  const links: SourceLink[] = [];
  for (const record of recordsOf(urlTable, URL_COLUMNS))
    pushLink(
      links,
      linkOf((c) => record.get(c)),
    );

  const prefix = urlTable.name.slice(0, -3).toLowerCase();
  const logTable = tables.get(`${prefix}log`);
  if (!logTable) return { links };
  const byKeyword = new Map<string, number>();
  links.forEach((link, index) => {
    if (!byKeyword.has(link.slug)) byKeyword.set(link.slug, index);
  });
  const visits = new Map<number, SourceVisit[]>();
  for (const record of recordsOf(logTable, LOG_COLUMNS)) {
    const index = byKeyword.get(text(record.get('shorturl')));
    const at = parseSqlTime(record.get('click_time'));
    if (index === undefined || at === null) continue;
    const referrer = text(record.get('referrer'));
    const visit: SourceVisit = {
      at,
      userAgent: text(record.get('user_agent')) || null,
      referrer: referrer && referrer !== 'direct' ? referrer : null,
      location: locationOf(text(record.get('country_code'))),
      ipAddress: text(record.get('ip_address')) || null,
      bot: false,
    };
    const list = visits.get(index);
    if (list) list.push(visit);
    else visits.set(index, [visit]);
  }
  return { links, visits };
}

const norm = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Whether a CSV header is the url table's (keyword and url columns). */
export function isYourlsCsvHeader(header: string[]): boolean {
  const names = header.map(norm);
  return names.includes('keyword') && names.includes('url');
}

/** The links of a CSV of the url table (phpMyAdmin's CSV export with its header row, or any such CSV). */
export function readYourlsCsv(header: string[], rows: string[][]): SourceLink[] {
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    const key = norm(name);
    if (!index.has(key)) index.set(key, i);
  });
  const links: SourceLink[] = [];
  for (const row of rows) {
    pushLink(
      links,
      linkOf((column) => {
        const i = index.get(norm(column));
        return i === undefined ? undefined : (row[i] ?? null);
      }),
    );
  }
  return links;
}
