import { describe, expect, it } from 'vitest';
import { reportFileName } from './analytics/analytics.schema';
import { safeFileName } from './file-name';
import { archiveFileNames } from './qr/bulk';
import { qrFileName } from './qr/render-options';

/** Any character a file name must not carry: control, format, separators, lone surrogates. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

describe('safeFileName', () => {
  it.each([
    // U+202E RIGHT-TO-LEFT OVERRIDE: shown as "invoiceexe.png", it is an .exe.
    ['invoice\u202Egnp.exe', 'invoicegnp.exe'],
    // The other bidi controls: embeddings, pop, isolates, marks (LRM, RLM, ALM).
    ['a\u202Ab\u202Bc\u202Cd\u202De\u2066f\u2067g\u2068h\u2069i', 'abcdefghi'],
    ['x\u200Ey\u200Fz\u061C.pdf', 'xyz.pdf'],
    // Zero-width characters, the BOM, a soft hyphen, a tag character.
    ['\uFEFFMe\u200Bnu\u200C\u200D\u2060.png', 'Menu.png'],
    ['Ca\u00ADfé\u{E0041}.svg', 'Café.svg'],
    // Control characters and line/paragraph separators break the name: a space each.
    ['a\u0000b\tc\nd\re\u007Ff\u0085g\u009Fh', 'a b c d e f g h'],
    ['line\u2028para\u2029end.csv', 'line para end.csv'],
    // A lone surrogate is no character (a pair is kept).
    ['half\uD83D.png', 'half.png'],
    ['😀\uDE00.png', '😀.png'],
    // Trimmed once the invisible characters are gone.
    ['\u202E \n name.zip \u200B', 'name.zip'],
  ])('%j → %j', (name, expected) => {
    expect(safeFileName(name)).toBe(expected);
    expect(safeFileName(name)).not.toMatch(INVISIBLE);
  });

  it('keeps every visible character, other scripts and emoji included', () => {
    for (const name of [
      'Café Menu (2).png',
      'قائمة الطعام.png',
      'メニュー.svg',
      'Ελληνικά-1.pdf',
      '😀 party 🎉.ics',
      'a/b\\c:d*e?.txt',
    ])
      expect(safeFileName(name)).toBe(name);
  });

  it('answers an empty string when nothing visible is left', () => {
    expect(safeFileName('\u202E\u200B\n\u2028')).toBe('');
    expect(safeFileName('')).toBe('');
  });

  it('changes nothing twice', () => {
    const once = safeFileName('in\u202Evoice\u0000 (1)\u2029.png');
    expect(safeFileName(once)).toBe(once);
  });
});

describe('the file names the app makes from a code name', () => {
  const hostile = 'invoice\u202Egnp\u200B.exe\u0000\u2028x';

  it('carry no invisible character: archive entries, image downloads, reports', () => {
    const names = [
      ...archiveFileNames(
        [
          { id: 1, name: hostile },
          { id: 2, name: '\u202E\u2066\u200F' },
        ],
        'png',
      ),
      qrFileName('png', hostile, 1),
      qrFileName('svg', '\u202E', 2),
      reportFileName({ type: 'full', from: '2026-01-01', to: '2026-01-31', format: 'pdf' }),
    ];
    expect(names).toEqual([
      'invoicegnp.exe x.png',
      'qrcode-2.png',
      'invoicegnp-exe-x.png',
      'qrcode-2.svg',
      'qr-analytics-full-2026-01-01-to-2026-01-31.pdf',
    ]);
    for (const name of names) expect(name).not.toMatch(INVISIBLE);
  });
});
