import { constants, crc32, deflateRawSync } from 'node:zlib';
import { strToU8, Zip, zipSync, type ZipInputFile } from 'fflate';

// Spreadsheets that are costly to read, built in a few milliseconds: for the tests of
// POST /api/qr-codes/bulk/parse and for `npm run bench:bulk-parse`.

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC_RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The parts of a one-sheet workbook around its sheet's XML. */
function workbookParts(): Record<string, Uint8Array> {
  return {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '</Types>',
    ),
    '_rels/.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}">` +
        `<Relationship Id="rId1" Type="${DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${DOC_RELS}">` +
        '<sheets><sheet name="Codes" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}">` +
        `<Relationship Id="rId1" Type="${DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
  };
}

const inlineCell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

/** The rows every slow workbook holds: a header and two codes. */
export const slowWorkbookRows = [
  ['Name', 'URL'],
  ['Menu', 'https://example.com/menu'],
  ['Flyer', 'https://example.com/flyer'],
];

/**
 * A valid workbook of three rows (slowWorkbookRows) and `merges` merged ranges below them, a file of
 * tens of KB that takes seconds to read: the Excel reader checks each merged range against every one
 * before it. Measured on the 2-core test machine in one thread: 5,000 merges 1.2 s, 10,000 5.5 s.
 */
export function slowWorkbook(merges: number): Buffer {
  const rows = slowWorkbookRows
    .map(
      ([a, b], i) => `<row r="${i + 1}">${inlineCell(`A${i + 1}`, a!)}${inlineCell(`B${i + 1}`, b!)}</row>`,
    )
    .join('');
  const ranges = Array.from({ length: merges }, (_, i) => `<mergeCell ref="C${i + 5}:D${i + 5}"/>`).join('');
  const sheet =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${MAIN}">` +
    `<sheetData>${rows}</sheetData><mergeCells count="${merges}">${ranges}</mergeCells></worksheet>`;
  return Buffer.from(
    zipSync({ ...workbookParts(), 'xl/worksheets/sheet1.xml': strToU8(sheet) }, { level: 9 }),
  );
}

/**
 * A "zip bomb" shaped as a workbook: its sheet (or `entries` sheets) is `unpackedMiB` MiB of zeros in
 * about 1 KB a MiB (the file of issue 27: 409 KB, 400 MB unpacked). Built without ever holding the
 * unpacked bytes: one MiB deflated once and repeated (each copy a block ending in a sync flush, which
 * deflate streams may chain), then an empty final block.
 */
export function xlsxBomb(unpackedMiB = 400, entries = 1): Buffer {
  const mib = Buffer.alloc(1024 * 1024);
  const block = deflateRawSync(mib, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  // `entries` sheets of equal size, each below what all of them make together.
  const perEntry = unpackedMiB / entries;
  if (!Number.isInteger(perEntry)) throw new Error('unpackedMiB must be a multiple of entries');
  let crc = 0;
  for (let i = 0; i < perEntry; i++) crc = crc32(mib, crc);
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    chunks.push(chunk);
  });
  for (const [name, bytes] of Object.entries(workbookParts())) {
    addDeflated(zip, name, bytes.length, crc32(bytes))(deflateRawSync(bytes), true);
  }
  for (let n = 1; n <= entries; n++) {
    const push = addDeflated(zip, `xl/worksheets/sheet${n}.xml`, perEntry * mib.length, crc);
    for (let i = 0; i < perEntry; i++) push(block, false);
    push(deflateRawSync(Buffer.alloc(0)), true);
  }
  zip.end();
  return Buffer.concat(chunks);
}

/** Adds a ZIP entry whose deflated bytes the caller pushes; its size and CRC are those of the unpacked bytes. */
function addDeflated(zip: Zip, filename: string, size: number, crc: number) {
  const file: ZipInputFile = { filename, size, crc, compression: 8 };
  zip.add(file);
  return (deflated: Uint8Array<ArrayBuffer>, final: boolean) => file.ondata!(null, deflated, final);
}
