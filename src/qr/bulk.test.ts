import { describe, expect, it } from 'vitest';
import {
  archiveFileNames,
  BULK_MAX_ROWS,
  bulkArchiveInput,
  bulkCreateInput,
  bulkRow,
  bulkTargetOptions,
  fieldMessage,
  guessBulkMapping,
  type BulkDefaults,
  type BulkTarget,
} from './bulk';
import { contentFieldsSchema, decodeContent, encodeContent } from './content';
import { qrTypes, type QrType } from './qr-types';

const URL_DEFAULTS: BulkDefaults = { type: 'url', isDynamic: false, folder: null };

function ok(cells: string[], mapping: BulkTarget[], defaults: BulkDefaults = URL_DEFAULTS) {
  const result = bulkRow(cells, mapping, defaults);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.errors)}`);
  return result.code;
}

function errors(cells: string[], mapping: BulkTarget[], defaults: BulkDefaults = URL_DEFAULTS) {
  const result = bulkRow(cells, mapping, defaults);
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(result.code)}`);
  return result.errors;
}

/** The form's own payload for the same fields: what the designer would have saved. */
function formPayload(type: QrType, fields: Record<string, string>): string {
  return encodeContent(type, contentFieldsSchema(type).parse(fields));
}

describe('bulkRow: one row of every type', () => {
  const cases: [QrType, Record<string, string>, string][] = [
    ['url', { url: 'https://example.com/menu' }, 'example.com'],
    ['email', { email: 'hello@example.com', subject: 'Booking', body: 'Table for two' }, 'hello@example.com'],
    ['text', { text: 'Free coffee on Fridays' }, 'Free coffee on Fridays'],
    ['sms', { phone: '+1 555 123 4567', message: 'Hi there' }, '+1 555 123 4567'],
    ['wifi', { ssid: 'Cafe Guest', password: 'welcome123', encryption: 'WPA' }, 'Wi-Fi Cafe Guest'],
    [
      'vcard',
      { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', organization: 'Engines' },
      'Ada Lovelace',
    ],
    [
      'event',
      { title: 'Launch party', location: 'Berlin', startDate: '2026-12-24T18:00:00Z' },
      'Launch party',
    ],
    ['social', { url: 'https://social.example/@cafe' }, 'social.example'],
    ['pdf', { url: 'https://example.com/menu.pdf', title: 'Winter menu' }, 'Winter menu'],
    ['video', { url: 'https://video.example/watch?v=1' }, 'video.example'],
    ['image', { url: 'https://example.com/photo.jpg' }, 'example.com'],
    ['phone', { phone: '+15557654321' }, '+15557654321'],
  ];

  it('covers every type', () => {
    expect(new Set(cases.map(([type]) => type))).toEqual(new Set(qrTypes));
  });

  it.each(cases)('%s: the form’s payload and a suggested name', (type, fields, name) => {
    const mapping = Object.keys(fields).map((f) => `field:${f}` as BulkTarget);
    const code = ok(Object.values(fields), mapping, { type, isDynamic: false, folder: null });
    expect(code).toEqual({ name, type, content: formPayload(type, fields), isDynamic: false, folder: null });
  });

  it('takes the type from its column (name or label, any case) and leaves other types’ fields out', () => {
    const mapping: BulkTarget[] = ['type', 'field:url', 'field:ssid', 'field:password', 'name'];
    expect(ok(['Wi-Fi', '', 'Guests', 'pw', 'Lobby'], mapping)).toEqual({
      name: 'Lobby',
      type: 'wifi',
      content: 'WIFI:T:WPA;S:Guests;P:pw;;',
      isDynamic: false,
      folder: null,
    });
    expect(ok(['URL', 'https://example.com', 'ignored', '', ''], mapping).content).toBe(
      'https://example.com',
    );
    // A blank type cell: the default type.
    expect(ok(['', 'https://example.com', '', '', 'Site'], mapping).type).toBe('url');
  });

  it('makes cells friendly as the form does: bare URLs, Wi-Fi security labels, dates without a zone', () => {
    expect(ok(['example.com/menu'], ['field:url']).content).toBe('https://example.com/menu');
    for (const [cell, value] of [
      ['WPA2', 'WPA'],
      ['wpa/wpa2', 'WPA'],
      ['None', 'nopass'],
      ['open', 'nopass'],
      ['wep', 'WEP'],
      ['', 'WPA'],
    ]) {
      const code = ok(['Net', cell!], ['field:ssid', 'field:encryption'], { ...URL_DEFAULTS, type: 'wifi' });
      expect(decodeContent('wifi', code.content).encryption, cell).toBe(value);
    }
    const event = (cells: string[], mapping: BulkTarget[]) =>
      decodeContent('event', ok(cells, mapping, { ...URL_DEFAULTS, type: 'event' }).content);
    // No zone: UTC, or the row's time zone (Berlin is UTC+1 in December).
    expect(event(['Party', '2026-12-24 18:00'], ['field:title', 'field:startDate']).startDate).toBe(
      '2026-12-24T18:00:00.000Z',
    );
    expect(
      event(
        ['Party', '2026-12-24T18:00:00', 'Europe/Berlin'],
        ['field:title', 'field:startDate', 'field:timeZone'],
      ),
    ).toMatchObject({ startDate: '2026-12-24T17:00:00.000Z', timeZone: 'Europe/Berlin' });
    // Summer time.
    expect(
      event(
        ['Party', '2026-07-01 18:00', 'Europe/Berlin'],
        ['field:title', 'field:startDate', 'field:timeZone'],
      ).startDate,
    ).toBe('2026-07-01T16:00:00.000Z');
    expect(event(['Party', '2026-12-24'], ['field:title', 'field:startDate']).startDate).toBe(
      '2026-12-24T00:00:00.000Z',
    );
  });

  it('names a code from its name cell, else from its content, else after its type', () => {
    expect(ok(['  Menu  ', 'https://example.com'], ['name', 'field:url']).name).toBe('Menu');
    expect(ok(['', 'https://www.example.com'], ['name', 'field:url']).name).toBe('example.com');
    expect(ok(['Lobby', 'https://example.com'], ['ignore', 'field:url']).name).toBe('example.com');
  });

  it('reads the dynamic cell (blank: the default)', () => {
    const dyn = (cell: string, isDynamic = false) =>
      ok(['https://example.com', cell], ['field:url', 'dynamic'], { ...URL_DEFAULTS, isDynamic }).isDynamic;
    for (const cell of ['yes', 'Yes', 'TRUE', 'true', '1', 'dynamic', 'Dynamic', ' y '])
      expect(dyn(cell), cell).toBe(true);
    for (const cell of ['no', 'NO', 'false', 'FALSE', '0', 'static', 'n'])
      expect(dyn(cell, true), cell).toBe(false);
    expect(dyn('', true)).toBe(true);
    expect(dyn('  ', false)).toBe(false);
    expect(errors(['https://example.com', 'maybe'], ['field:url', 'dynamic'])).toEqual([
      { field: 'dynamic', message: 'Dynamic must be yes or no (also true/false, 1/0, dynamic/static)' },
    ]);
  });

  it('reads the folder cell: trimmed, blank → the default, at most 100 characters', () => {
    const folder = (cell: string, fallback: string | null = 'Imported') =>
      ok(['https://example.com', cell], ['field:url', 'folder'], { ...URL_DEFAULTS, folder: fallback })
        .folder;
    expect(folder('  Posters ')).toBe('Posters');
    expect(folder('')).toBe('Imported');
    expect(folder('', null)).toBeNull();
    expect(errors(['https://example.com', 'f'.repeat(101)], ['field:url', 'folder'])).toEqual([
      { field: 'folder', message: 'Folder name must be at most 100 characters' },
    ]);
  });

  it('refuses bad rows with the schema’s own messages, naming each target', () => {
    expect(errors(['javascript:alert(1)'], ['field:url'])).toEqual([
      { field: 'url', message: 'Must be a valid URL' },
    ]);
    expect(errors([''], ['field:url'])).toEqual([{ field: 'url', message: 'URL is required' }]);
    // No column for a required field at all.
    expect(errors(['Menu'], ['name'])).toEqual([{ field: 'url', message: 'URL is required' }]);
    expect(errors(['n'.repeat(101), 'https://example.com'], ['name', 'field:url'])).toEqual([
      { field: 'name', message: 'Name must be at most 100 characters' },
    ]);
    expect(errors(['barcode', 'https://example.com'], ['type', 'field:url'])).toEqual([
      { field: 'type', message: 'Type is not a known QR code type' },
    ]);
    expect(
      errors(['not-an-address', 'Hi'], ['field:email', 'field:subject'], { ...URL_DEFAULTS, type: 'email' }),
    ).toEqual([{ field: 'email', message: 'Must be a valid email address' }]);
    expect(
      errors(['Net', 'WPA4'], ['field:ssid', 'field:encryption'], { ...URL_DEFAULTS, type: 'wifi' }),
    ).toEqual([{ field: 'encryption', message: 'Security must be WPA/WPA2, WEP or None' }]);
    expect(
      errors(['Party', 'soon', '2026-12-24'], ['field:title', 'field:startDate', 'field:endDate'], {
        ...URL_DEFAULTS,
        type: 'event',
      }),
    ).toEqual([{ field: 'startDate', message: 'Start date must be a valid date' }]);
    expect(
      errors(
        ['Party', '2026-12-24 18:00', '2026-12-24 17:00'],
        ['field:title', 'field:startDate', 'field:endDate'],
        {
          ...URL_DEFAULTS,
          type: 'event',
        },
      ),
    ).toEqual([{ field: 'endDate', message: 'End date must be after the start date' }]);
    expect(errors(['abc:def'], ['field:phone'], { ...URL_DEFAULTS, type: 'phone' })).toEqual([
      { field: 'phone', message: 'Must be a valid phone number' },
    ]);
    // Several problems at once, each once.
    expect(errors(['', 'nope', 'later'], ['field:url', 'type', 'dynamic'])).toEqual([
      { field: 'type', message: 'Type is not a known QR code type' },
      { field: 'dynamic', message: 'Dynamic must be yes or no (also true/false, 1/0, dynamic/static)' },
    ]);
  });

  it('never accepts a row the server would refuse (payload length)', () => {
    const text = 'x'.repeat(2000);
    const code = ok([text], ['field:text'], { ...URL_DEFAULTS, type: 'text' });
    expect(code.content).toBe(text);
    // An e-mail whose message is percent-encoded to more than the 4,000 characters the server stores.
    expect(
      errors(['a@example.com', '€'.repeat(1000)], ['field:email', 'field:body'], {
        ...URL_DEFAULTS,
        type: 'email',
      }),
    ).toEqual([{ field: 'content', message: 'Content must be at most 4000 characters' }]);
  });

  it('says what a field’s message is about', () => {
    expect(fieldMessage('url', 'url', 'Must be a valid URL')).toBe('URL must be a valid URL');
    expect(fieldMessage('email', 'email', 'Must be a valid email address')).toBe(
      'Email must be a valid email address',
    );
    expect(fieldMessage('url', 'url', 'URL is required')).toBe('URL is required');
  });
});

describe('guessBulkMapping', () => {
  it('maps headers whatever their case, spaces, underscores and dashes', () => {
    expect(guessBulkMapping(['NAME', 'Link', 'Folder_Name', 'is dynamic', 'Notes'], 'url')).toEqual([
      'name',
      'field:url',
      'folder',
      'dynamic',
      'ignore',
    ]);
    expect(guessBulkMapping(['Title', 'Website'], 'url')).toEqual(['name', 'field:url']);
    expect(guessBulkMapping(['E-mail', 'Subject', 'Message'], 'email')).toEqual([
      'field:email',
      'field:subject',
      'field:body',
    ]);
    expect(guessBulkMapping(['Network name (SSID)', 'Password', 'Security'], 'wifi')).toEqual([
      'field:ssid',
      'field:password',
      'field:encryption',
    ]);
    expect(
      guessBulkMapping(['first_name', 'Last Name', 'Company', 'Phone', 'Web site', 'Job title'], 'vcard'),
    ).toEqual([
      'field:firstName',
      'field:lastName',
      'field:organization',
      'field:phone',
      'field:website',
      'field:title',
    ]);
    expect(guessBulkMapping(['Mobile', 'Text'], 'sms')).toEqual(['field:phone', 'field:message']);
    expect(guessBulkMapping(['Title', 'Start', 'End', 'Time zone'], 'event')).toEqual([
      'field:title',
      'field:startDate',
      'field:endDate',
      'field:timeZone',
    ]);
  });

  it('"title" is the name unless the type has a title field', () => {
    expect(guessBulkMapping(['Title', 'URL'], 'url')).toEqual(['name', 'field:url']);
    expect(guessBulkMapping(['Title', 'URL'], 'pdf')).toEqual(['field:title', 'field:url']);
    expect(guessBulkMapping(['Name', 'Title', 'URL'], 'url')).toEqual(['name', 'ignore', 'field:url']);
  });

  it('never gives a target twice, and ignores what it does not know', () => {
    expect(guessBulkMapping(['URL', 'Link', 'website', '', 'Colour'], 'url')).toEqual([
      'field:url',
      'ignore',
      'ignore',
      'ignore',
      'ignore',
    ]);
    expect(guessBulkMapping(['Name', 'name'], 'url')).toEqual(['name', 'ignore']);
  });

  it('with a type column, every type’s fields are candidates', () => {
    expect(guessBulkMapping(['Type', 'URL', 'SSID', 'Password', 'Email'], 'url')).toEqual([
      'type',
      'field:url',
      'field:ssid',
      'field:password',
      'field:email',
    ]);
  });
});

describe('bulkTargetOptions', () => {
  it('lists Ignore, Name, Type, Folder, Dynamic, then the type’s fields with their labels', () => {
    expect(bulkTargetOptions('wifi')).toEqual([
      { value: 'ignore', label: 'Ignore' },
      { value: 'name', label: 'Name' },
      { value: 'type', label: 'Type' },
      { value: 'folder', label: 'Folder' },
      { value: 'dynamic', label: 'Dynamic' },
      { value: 'field:ssid', label: 'Network name (SSID)' },
      { value: 'field:password', label: 'Password' },
      { value: 'field:encryption', label: 'Security' },
    ]);
    expect(bulkTargetOptions('event').map((o) => o.value)).toContain('field:timeZone');
  });

  it('lists every type’s fields once each when the type comes from a column', () => {
    const options = bulkTargetOptions('url', true);
    const values = options.map((o) => o.value);
    expect(new Set(values).size).toBe(values.length);
    expect(new Set(options.map((o) => o.label)).size).toBe(options.length);
    expect(options).toContainEqual({ value: 'field:url', label: 'URL' });
    expect(options).toContainEqual({ value: 'field:title', label: 'Title' });
    expect(options).toContainEqual({ value: 'field:body', label: 'Message (Email)' });
    expect(options).toContainEqual({ value: 'field:message', label: 'Message (SMS)' });
    expect(values).toEqual(
      expect.arrayContaining(['field:ssid', 'field:firstName', 'field:startDate', 'field:phone']),
    );
  });
});

describe('archiveFileNames', () => {
  it('makes names safe, short and distinct whatever their case', () => {
    expect(
      archiveFileNames(
        [
          { id: 1, name: 'Menu/Drinks' },
          { id: 2, name: 'Menu' },
          { id: 3, name: 'menu' },
          { id: 4, name: 'MENU' },
          { id: 5, name: '..' },
          { id: 6, name: 'a\u0000b\nc<>:"|?*d' },
          { id: 7, name: 'CON' },
          { id: 8, name: '  Café  ' },
          { id: 9, name: 'x'.repeat(120) },
          { id: 10, name: 'Menu (2)' },
          { id: 11, name: 'C:\\temp\\evil' },
        ],
        'png',
      ),
    ).toEqual([
      'Menu-Drinks.png',
      'Menu.png',
      'menu (2).png',
      'MENU (3).png',
      'qrcode-5.png',
      'a b cd.png',
      'qrcode-7.png',
      'Café.png',
      `${'x'.repeat(80)}.png`,
      'Menu (2) (2).png',
      'C-temp-evil.png',
    ]);
    expect(archiveFileNames([{ id: 3, name: '😀'.repeat(50) }], 'svg')[0]).toBe(`${'😀'.repeat(40)}.svg`);
  });

  it('drops the invisible characters that would disguise an extension (safeFileName)', () => {
    expect(
      archiveFileNames(
        [
          // Shown as "invoiceexe.png" with the override.
          { id: 1, name: 'invoice\u202Egnp.exe' },
          { id: 2, name: 'Me\u200Bnu\u2066\u2069' },
          { id: 3, name: 'Menu' },
          { id: 4, name: '\u202E\u200F' },
          { id: 5, name: 'a\u2028b\u2029c' },
        ],
        'png',
      ),
    ).toEqual(['invoicegnp.exe.png', 'Menu.png', 'Menu (2).png', 'qrcode-4.png', 'a b c.png']);
  });
});

describe('bulkCreateInput', () => {
  it('fills in the defaults', () => {
    expect(
      bulkCreateInput.parse({ codes: [{ name: ' Menu ', type: 'url', content: 'https://example.com' }] }),
    ).toEqual({
      codes: [{ name: 'Menu', type: 'url', content: 'https://example.com', isDynamic: false }],
      customization: expect.objectContaining({ foregroundColor: '#000000' }) as unknown,
      folderId: null,
      allOrNothing: true,
      // Callers that do not say what to do with repeats get what the call did before: they are created.
      repeats: 'create',
    });
  });

  it('takes skip or create for repeats, and names the field otherwise', () => {
    const codes = [{ name: 'Menu', type: 'url', content: 'https://example.com' }];
    expect(bulkCreateInput.parse({ codes, repeats: 'skip' }).repeats).toBe('skip');
    const result = bulkCreateInput.safeParse({ codes, repeats: 'twice' });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['repeats', 'repeats must be "skip" or "create"'],
    ]);
  });

  it('names the row of each problem', () => {
    const result = bulkCreateInput.safeParse({
      codes: [
        { name: 'Fine', type: 'url', content: 'https://example.com' },
        { name: ' ', type: 'url', content: 'https://example.com', isDynamic: 'yes' },
        7,
        { name: 'F', type: 'url', content: 'x', folder: 'f'.repeat(101) },
      ],
    });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['codes.1.name', 'Row 2: Name is required'],
      ['codes.1.isDynamic', 'Row 2: isDynamic must be true or false'],
      ['codes.2', 'Row 3: Each code must be an object { name, type, content }'],
      ['codes.3.folder', 'Row 4: Folder name must be at most 100 characters'],
    ]);
  });

  it('takes 1 to 5,000 codes, a blank folder as none', () => {
    const code = { name: 'A', type: 'url', content: 'https://example.com' };
    expect(bulkCreateInput.safeParse({ codes: [] }).error?.issues[0]?.message).toBe(
      'codes must hold at least one code',
    );
    expect(bulkCreateInput.safeParse({}).error?.issues[0]?.message).toBe('codes is required');
    expect(bulkCreateInput.safeParse({ codes: Array(BULK_MAX_ROWS + 1).fill(code) }).success).toBe(false);
    expect(bulkCreateInput.parse({ codes: [{ ...code, folder: '  ' }] }).codes[0]!.folder).toBeNull();
  });

  it('bulkArchiveInput takes ids with png at 512 px by default', () => {
    expect(bulkArchiveInput.parse({ ids: [3, '4'] })).toEqual({ ids: [3, 4], format: 'png', size: 512 });
    expect(bulkArchiveInput.safeParse({ ids: [] }).success).toBe(false);
    expect(bulkArchiveInput.safeParse({ ids: [1], size: 10 }).error?.issues[0]?.message).toBe(
      'size must be at least 64',
    );
  });
});
