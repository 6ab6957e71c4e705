import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { qrIdFromText } from '../../src/qr/qr-id';
import { qrIdFromParam } from './qr-id-param';

describe('qrIdFromParam', () => {
  it.each([
    ['12', 12],
    [' 7 ', 7],
    ['007', 7],
    ['2147483647', 2147483647],
    ['2147483648', null],
    ['0', null],
    ['', null],
    ['1.5', null],
    ['1e3', null],
    ['-3', null],
    ['0x1f', null],
    ['99999999999999999999999', null],
  ])('%j → %j', (text, id) => expect(qrIdFromParam(text)).toBe(id));

  it('reads every text as qrIdFromText does (the rule the API checks ids with)', () => {
    const idLike = fc.oneof(
      fc.string(),
      fc.stringMatching(/^\s*\d{1,12}\s*$/),
      fc.integer({ min: -5, max: 2_147_483_660 }).map(String),
    );
    fc.assert(fc.property(idLike, (text) => qrIdFromParam(text) === qrIdFromText(text)));
  });
});
