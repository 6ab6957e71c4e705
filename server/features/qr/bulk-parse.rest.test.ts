import ExcelJS from 'exceljs';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { BULK_MAX_ROWS, type BulkParseAnswer } from '../../../src/qr/bulk.js';
import { insertQrRow } from '../../test/fixtures.js';
import { call, expectRestError, signedInUser, useTestApp, type TestApp } from '../../test/test-app.js';
import { describeOnSqlite } from '../../test/test-db.js';
import { BOUNDARY, makePng, multipartBody, type FilePart } from '../../test/upload-fixtures.js';
import { bulkParseMessages, spreadsheetReaderCount } from './bulk-parse.js';
import { slowWorkbook, slowWorkbookRows, xlsxBomb } from './bulk-parse.test-helpers.js';
import { cellText } from './bulk-sheet.js';

const PATH = '/api/qr-codes/bulk/parse';
/**
 * Merged ranges in the slow workbook of the tests that need files still being read: about 1.2 s of
 * reading on the 2-core test machine (slowWorkbook), a few seconds on a loaded CI run.
 */
const SLOW_MERGES = 5000;
/** The time limit, and the test timeout, of the tests whose files take long to read. */
const SLOW_TEST_MS = 120_000;

function filePart(data: Buffer | string, filename = 'codes.csv', contentType = 'text/csv'): FilePart {
  return { field: 'file', filename, contentType, data };
}

function upload(t: TestApp, cookie: string | undefined, parts: FilePart[]) {
  return call(t.app, 'POST', PATH, {
    ...(cookie ? { cookie } : {}),
    payload: multipartBody(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  });
}

async function parsed(t: TestApp, cookie: string, part: FilePart): Promise<BulkParseAnswer> {
  const res = await upload(t, cookie, [part]);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<BulkParseAnswer>();
}

/** A workbook built as Excel would hold it: numbers, a date, a hyperlink, rich text, a formula. */
async function workbookBytes(build: (workbook: ExcelJS.Workbook) => void): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  build(workbook);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describeOnSqlite('bulk creation REST paths', (getDb) => {
  // The reading worker runs at the lowest priority: on a loaded CI machine the slow files below may take
  // longer than the server's 15 s (which its own test, further down, covers) and the test's 20 s.
  describe('POST /api/qr-codes/bulk/parse', { timeout: SLOW_TEST_MS }, () => {
    const t = useTestApp(getDb, { config: { bulkParseTimeoutMs: SLOW_TEST_MS } });

    it('reads a CSV: delimiter guessed (;), BOM stripped, quoted commas and line breaks, blank lines skipped', async () => {
      const { cookie } = await signedInUser(t(), 'csv');
      const csv =
        '\uFEFFName;URL;Notes\r\n' +
        '\r\n' +
        'Menu;https://example.com/menu;"one, two; three"\r\n' +
        '   \r\n' +
        '"Flyer ""A""";https://example.com/flyer;"line\r\nbreak"\r\n' +
        ';;\r\n' +
        'Short;https://example.com/s\r\n';
      expect(await parsed(t(), cookie, filePart(csv, 'C:\\Users\\me\\codes.csv'))).toEqual({
        fileName: 'codes.csv',
        columns: ['Name', 'URL', 'Notes'],
        rows: [
          ['Menu', 'https://example.com/menu', 'one, two; three'],
          ['Flyer "A"', 'https://example.com/flyer', 'line\r\nbreak'],
          ['Short', 'https://example.com/s', ''],
        ],
        truncated: false,
      });
    });

    it('reads commas, tabs, Windows-1252 and UTF-16 (Excel’s “Unicode text”), and names blank headers', async () => {
      const { cookie } = await signedInUser(t(), 'encodings');
      expect((await parsed(t(), cookie, filePart('name,url\nA,"https://x.example/?a=1,2"\n'))).rows).toEqual([
        ['A', 'https://x.example/?a=1,2'],
      ]);
      const latin = Buffer.from('Name,Caf\xe9\nMen\xfc,x\n', 'latin1');
      expect(await parsed(t(), cookie, filePart(latin))).toMatchObject({
        columns: ['Name', 'Café'],
        rows: [['Menü', 'x']],
      });
      const utf16 = Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from('Name\tURL\nCafé\thttps://x.example\n', 'utf16le'),
      ]);
      expect(await parsed(t(), cookie, filePart(utf16, 'codes.txt'))).toMatchObject({
        columns: ['Name', 'URL'],
        rows: [['Café', 'https://x.example']],
      });
      // A blank header, and a row wider than the header.
      expect(await parsed(t(), cookie, filePart('Name,,\nA,b\nC,d,e\n'))).toMatchObject({
        columns: ['Name', 'Column 2', 'Column 3'],
        rows: [
          ['A', 'b', ''],
          ['C', 'd', 'e'],
        ],
      });
    });

    it('decides by content, not by name: an XLSX named .csv is read as a workbook', async () => {
      const { cookie } = await signedInUser(t(), 'sniff');
      const bytes = await workbookBytes((workbook) => {
        const sheet = workbook.addWorksheet('Codes');
        sheet.addRow(['Name', 'URL']);
        sheet.addRow(['Menu', 'https://example.com']);
      });
      expect(await parsed(t(), cookie, filePart(bytes, 'codes.csv'))).toEqual({
        fileName: 'codes.csv',
        columns: ['Name', 'URL'],
        rows: [['Menu', 'https://example.com']],
        truncated: false,
      });
    });

    it('reads an XLSX’s first sheet: numbers as written, dates ISO, hyperlinks, rich text, formula results', async () => {
      const { cookie } = await signedInUser(t(), 'xlsx');
      const bytes = await workbookBytes((workbook) => {
        const sheet = workbook.addWorksheet('Codes');
        sheet.addRow(['Name', 'Website', 'Count', 'Start', 'Day', 'Phone', 'Dynamic', 'Total']);
        sheet.addRow([
          'Menu',
          { text: 'Our menu', hyperlink: 'https://example.com/menu' },
          42,
          new Date(Date.UTC(2026, 11, 24, 18, 30, 0)),
          new Date(Date.UTC(2026, 11, 24)),
          4915112345678,
          true,
          { formula: 'C2*2', result: 84 },
        ]);
        sheet.addRow([
          { richText: [{ text: 'Bold ', font: { bold: true } }, { text: 'flyer' }] },
          { text: 'https://example.com/flyer', hyperlink: 'https://example.com/flyer' },
          2.5,
          null,
          null,
          null,
          false,
          { formula: 'C3*2', result: 5 },
        ]);
        // A blank row between data rows is skipped.
        sheet.addRow([]);
        sheet.addRow(['Last', { text: 'hello@example.com', hyperlink: 'mailto:hello@example.com' }]);
        workbook.addWorksheet('Other').addRow(['not', 'read']);
      });
      expect(await parsed(t(), cookie, filePart(bytes, 'codes.xlsx', 'application/octet-stream'))).toEqual({
        fileName: 'codes.xlsx',
        columns: ['Name', 'Website', 'Count', 'Start', 'Day', 'Phone', 'Dynamic', 'Total'],
        rows: [
          [
            'Menu',
            'https://example.com/menu',
            '42',
            '2026-12-24T18:30:00',
            '2026-12-24',
            '4915112345678',
            'TRUE',
            '84',
          ],
          ['Bold flyer', 'https://example.com/flyer', '2.5', '', '', '', 'FALSE', '5'],
          ['Last', 'hello@example.com', '', '', '', '', '', ''],
        ],
        truncated: false,
      });
    });

    it('gives the first 5,000 rows of a longer file, with truncated', async () => {
      const { cookie } = await signedInUser(t(), 'long');
      const lines = [
        'Name,URL',
        ...Array.from({ length: BULK_MAX_ROWS + 7 }, (_, i) => `Code ${i},https://example.com/${i}`),
      ];
      const csv = await parsed(t(), cookie, filePart(lines.join('\n')));
      expect(csv.truncated).toBe(true);
      expect(csv.rows).toHaveLength(BULK_MAX_ROWS);
      expect(csv.rows.at(-1)).toEqual([
        `Code ${BULK_MAX_ROWS - 1}`,
        `https://example.com/${BULK_MAX_ROWS - 1}`,
      ]);
      const bytes = await workbookBytes((workbook) => {
        const sheet = workbook.addWorksheet('Codes');
        sheet.addRow(['Name']);
        for (let i = 0; i < BULK_MAX_ROWS + 1; i++) sheet.addRow([`Code ${i}`]);
      });
      const xlsx = await parsed(t(), cookie, filePart(bytes, 'long.xlsx'));
      expect([xlsx.truncated, xlsx.rows.length, xlsx.rows.at(-1)]).toEqual([
        true,
        BULK_MAX_ROWS,
        [`Code ${BULK_MAX_ROWS - 1}`],
      ]);
    });

    it('answers 400 naming the field `file` to an empty file, a header alone, or a file that is no spreadsheet', async () => {
      const { cookie } = await signedInUser(t(), 'bad');
      const cases: [FilePart, string][] = [
        [filePart(''), 'The file is empty'],
        [filePart('\uFEFF\r\n \r\n,,\r\n'), 'The file is empty'],
        [filePart('Name,URL\r\n'), 'The file has only a header row: add one row per QR code below it'],
        [
          filePart(makePng(), 'codes.csv', 'text/csv'),
          'The file is not a spreadsheet: upload a CSV or an Excel (.xlsx) file',
        ],
        [
          filePart(Buffer.from([0, 1, 2, 3, 0, 0, 7, 8, 9, 0, 0, 0, 5])),
          'The file is not a spreadsheet: upload a CSV or an Excel (.xlsx) file',
        ],
        [
          filePart(Buffer.from(zipSync({ 'photo.txt': strToU8('hello') })), 'codes.xlsx'),
          'The file is not a spreadsheet: upload a CSV or an Excel (.xlsx) file',
        ],
        [
          filePart(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6]), 'codes.xlsx'),
          'The Excel file could not be read: save it again as .xlsx, or as CSV',
        ],
        [
          filePart(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 'codes.xls'),
          'Excel 97-2003 files (.xls) cannot be read: save the sheet as .xlsx or CSV',
        ],
        [
          filePart(`Name,${Array.from({ length: 201 }, (_, i) => `c${i}`).join(',')}\nA\n`),
          'The file has more than 200 columns: keep only the columns the codes need',
        ],
      ];
      for (const [part, message] of cases) {
        const body = expectRestError(await upload(t(), cookie, [part]), 400, 'VALIDATION_FAILED');
        expect(body).toEqual({ message, code: 'VALIDATION_FAILED', issues: [{ path: 'file', message }] });
      }
    });

    it('refuses a workbook that unpacks to far more than a sheet of codes (a zip bomb) without reading it', async () => {
      const { cookie } = await signedInUser(t(), 'bomb');
      const bomb = zipSync(
        {
          '[Content_Types].xml': strToU8('<Types/>'),
          'xl/workbook.xml': strToU8('<workbook/>'),
          'xl/worksheets/sheet1.xml': new Uint8Array(64 * 1024 * 1024),
        },
        { level: 9 },
      );
      expect(bomb.length).toBeLessThan(1024 * 1024);
      const body = expectRestError(
        await upload(t(), cookie, [filePart(Buffer.from(bomb), 'bomb.xlsx')]),
        400,
      );
      expect(body.message).toMatch(/^The Excel file is too large once unpacked/);
      // The file of issue 27 (409 KB, 400 MB unpacked), and one whose entries pass the limit only together.
      for (const file of [xlsxBomb(400), xlsxBomb(60, 60)]) {
        expect(file.length).toBeLessThan(512 * 1024);
        const refused = expectRestError(await upload(t(), cookie, [filePart(file, 'bomb.xlsx')]), 400);
        expect(refused).toEqual({
          message: bulkParseMessages.unpackedTooLarge,
          code: 'VALIDATION_FAILED',
          issues: [{ path: 'file', message: bulkParseMessages.unpackedTooLarge }],
        });
      }
    });

    it('refuses a 2 KB workbook whose reading would fill any heap (one merged range over the whole sheet)', async () => {
      const { cookie } = await signedInUser(t(), 'heap');
      const files = unzipSync(slowWorkbook(1));
      const sheet = new TextDecoder()
        .decode(files['xl/worksheets/sheet1.xml'])
        .replace('C5:D5', 'C5:XFD1048576');
      const file = Buffer.from(zipSync({ ...files, 'xl/worksheets/sheet1.xml': strToU8(sheet) }));
      expect(file.length).toBeLessThan(2048);
      // Its worker reaches its heap's limit and is stopped: the server itself holds nothing of it.
      const body = expectRestError(await upload(t(), cookie, [filePart(file, 'merged.xlsx')]), 400);
      expect(body).toEqual({
        message: bulkParseMessages.unpackedTooLarge,
        code: 'VALIDATION_FAILED',
        issues: [{ path: 'file', message: bulkParseMessages.unpackedTooLarge }],
      });
      await expect.poll(() => spreadsheetReaderCount()).toBe(0);
    });

    it('keeps short links answering while a zip bomb and a slow workbook are read, in a worker', async () => {
      const { user, cookie } = await signedInUser(t(), 'probe');
      const code = await insertQrRow(t().db, { userId: user.id, isDynamic: true });
      const probe = async (busy: () => boolean) => {
        // A short link every 10 ms, one after another, while `busy` (at least 50). Each one's time counts
        // from when it was due, not from when it was sent: had the event loop been held, every link due
        // meanwhile would show it.
        const latencies: number[] = [];
        let readers = 0;
        const start = performance.now();
        for (let i = 0; busy() || i < 50; i++) {
          const due = start + i * 10;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          const res = await call(t().app, 'GET', `/r/${code.slug}`);
          latencies.push(performance.now() - due);
          readers = Math.max(readers, spreadsheetReaderCount());
          expect(res.statusCode).toBe(302);
        }
        latencies.sort((a, b) => a - b);
        const at = (p: number) => latencies[Math.ceil(p * latencies.length) - 1]!;
        return {
          readers,
          answered: latencies.length,
          text: `${latencies.length} requests, p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`,
        };
      };
      // Two workers started first: here each loads the TypeScript through tsx, hundreds of ms of CPU that
      // the built server's worker (dist/bulk-parse-worker.mjs, about 50 ms) does not spend.
      const small = filePart('Name,URL\nMenu,https://example.com\n');
      await Promise.all([parsed(t(), cookie, small), parsed(t(), cookie, small)]);
      const alone = await probe(() => false);
      let reading = 2;
      const parses = [
        upload(t(), cookie, [filePart(xlsxBomb(400), 'bomb.xlsx')]),
        upload(t(), cookie, [filePart(slowWorkbook(SLOW_MERGES), 'slow.xlsx')]),
      ].map((parse) => parse.finally(() => (reading -= 1)));
      const reads = await probe(() => reading > 0);
      const [bomb, slow] = await Promise.all(parses);
      expect(expectRestError(bomb!, 400).message).toBe(bulkParseMessages.unpackedTooLarge);
      expect(slow!.statusCode, slow!.body).toBe(200);
      expect(slow!.json<BulkParseAnswer>().rows).toEqual(slowWorkbookRows.slice(1));
      console.log(`/r/<slug> alone: ${alone.text}`);
      console.log(`/r/<slug> while a zip bomb and a slow workbook were read: ${reads.text}`);
      // The files were read by worker threads while short links kept answering (at least 50, one after
      // another); how fast they answered is measured by `npm run bench:bulk-parse`, not asserted here.
      expect(reads.readers).toBeGreaterThanOrEqual(1);
      expect(reads.answered).toBeGreaterThanOrEqual(50);
    });

    it('answers 429 with Retry-After to a third file while two are being read', async () => {
      const { cookie } = await signedInUser(t(), 'busy');
      const first = upload(t(), cookie, [filePart(slowWorkbook(SLOW_MERGES), 'one.xlsx')]);
      const second = upload(t(), cookie, [filePart(slowWorkbook(SLOW_MERGES), 'two.xlsx')]);
      // Each read starts its worker as it begins.
      await expect.poll(() => spreadsheetReaderCount()).toBe(2);
      const third = await upload(t(), cookie, [filePart('Name,URL\nMenu,https://example.com\n')]);
      const body = expectRestError(third, 429, 'RATE_LIMITED');
      expect(body.message).toBe('Too many spreadsheets are being read right now: try again in a few seconds');
      expect(third.headers['retry-after']).toBe('5');
      for (const res of await Promise.all([first, second])) expect(res.statusCode, res.body).toBe(200);
      // Done: the next file is read, by a worker left waiting (none started).
      expect((await parsed(t(), cookie, filePart('Name,URL\nMenu,https://example.com\n'))).rows).toEqual([
        ['Menu', 'https://example.com'],
      ]);
      expect(spreadsheetReaderCount()).toBe(2);
    });

    it('answers 413 to a file over 5 MB, and 400 when the field is not `file`', async () => {
      const { cookie } = await signedInUser(t(), 'big');
      const big = `Name,URL\n${'A,https://example.com\n'.repeat(Math.ceil((5 * 1024 * 1024) / 22) + 10)}`;
      const tooLarge = expectRestError(await upload(t(), cookie, [filePart(big)]), 413, 'PAYLOAD_TOO_LARGE');
      expect(tooLarge.message).toBe('The file must be at most 5 MB');
      const wrong = expectRestError(
        await upload(t(), cookie, [{ ...filePart('a,b\n1,2\n'), field: 'logo' }]),
        400,
      );
      expect(wrong.message).toBe('No file received: send it in the field "file"');
      const notMultipart = await call(t().app, 'POST', PATH, { cookie, json: { file: 'a,b' } });
      expect(expectRestError(notMultipart, 415).message).toBe(
        'Send the file as multipart/form-data in the field "file"',
      );
    });

    it('needs a signed-in user', async () => {
      expectRestError(await upload(t(), undefined, [filePart('a,b\n1,2\n')]), 401);
    });
  });

  describe('POST /api/qr-codes/bulk/parse past its time limit', () => {
    const t = useTestApp(getDb, { config: { bulkParseTimeoutMs: 300 } });

    it('refuses a file still being read after the time limit, and stops its worker', async () => {
      const { cookie } = await signedInUser(t(), 'slow');
      // About 5 s of reading on the test machine.
      const res = await upload(t(), cookie, [filePart(slowWorkbook(10_000), 'slow.xlsx')]);
      const body = expectRestError(res, 400, 'VALIDATION_FAILED');
      expect(body).toEqual({
        message: `The file took too long to read: keep it to ${BULK_MAX_ROWS} rows of codes, or save it as CSV`,
        code: 'VALIDATION_FAILED',
        issues: [
          {
            path: 'file',
            message: `The file took too long to read: keep it to ${BULK_MAX_ROWS} rows of codes, or save it as CSV`,
          },
        ],
      });
      // Terminated, not left running: it exits at once rather than when its reading would have ended.
      await expect.poll(() => spreadsheetReaderCount(), { timeout: 2000 }).toBe(0);
    });
  });
});

describe('cellText', () => {
  it('writes each kind of Excel value as text', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(0.1)).toBe('0.1');
    expect(cellText({ error: '#N/A' })).toBe('#N/A');
    expect(cellText({ formula: 'A1', result: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)) })).toBe(
      '2026-01-02T03:04:05',
    );
    expect(cellText({ text: 'Click here', hyperlink: 'https://example.com/x' })).toBe(
      'https://example.com/x',
    );
    expect(cellText({ text: '+1 555', hyperlink: 'tel:+1 555' })).toBe('+1 555');
  });
});
