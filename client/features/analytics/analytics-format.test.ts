import { describe, expect, it } from 'vitest';
import { filenameFromDisposition, groupLocations } from './analytics-format';

describe('groupLocations', () => {
  const list = Array.from({ length: 12 }, (_, i) => ({ location: `City ${i}`, count: 100 - i }));
  it('keeps up to ten locations as they are', () => {
    expect(groupLocations(list.slice(0, 10))).toHaveLength(10);
  });
  it('keeps nine and sums the rest as Other', () => {
    const grouped = groupLocations(list);
    expect(grouped).toHaveLength(10);
    expect(grouped[8]).toEqual({ location: 'City 8', count: 92 });
    expect(grouped[9]).toEqual({ location: 'Other', count: 91 + 90 + 89 });
  });
});

describe('filenameFromDisposition', () => {
  it.each([
    [
      'attachment; filename="qr-analytics-2026-05-01_2026-05-31.csv"',
      'qr-analytics-2026-05-01_2026-05-31.csv',
    ],
    ['attachment; filename=report.json', 'report.json'],
    ['attachment; filename="fallback.pdf"; filename*=UTF-8\'\'Caf%C3%A9%20report.pdf', 'Café report.pdf'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment; filename="a \\"quoted\\" name.xlsx"', 'a "quoted" name.xlsx'],
    // A right-to-left override would show this as "invoiceexe.pdf".
    ["attachment; filename*=UTF-8''invoice%E2%80%AEfdp.exe", 'invoicefdp.exe'],
    ["attachment; filename*=UTF-8''a%0D%0Ab%E2%80%8B%E2%80%A8c.csv", 'a  b c.csv'],
  ])('%s → %s', (header, name) => expect(filenameFromDisposition(header)).toBe(name));

  it.each([null, '', 'attachment', 'inline; filename=""', "inline; filename*=UTF-8''%E2%80%AE%E2%80%8B"])(
    '%j has no name',
    (header) => expect(filenameFromDisposition(header)).toBeNull(),
  );
});
