import { describe, expect, it } from 'vitest';
import { qrIdFromText, qrIdSchema } from './qr-id';

describe('qrIdSchema', () => {
  it.each([
    [12, 12],
    ['12', 12],
    ['2147483647', 2147483647],
  ])('%j → %j', (input, id) => expect(qrIdSchema.parse(input)).toBe(id));

  it.each([
    ['abc', 'Id must be a number'],
    [undefined, 'Id must be a number'],
    ['1.5', 'Id must be a whole number'],
    ['0', 'Id must be a positive number'],
    ['-4', 'Id must be a positive number'],
    ['99999999999', 'Id is too large'],
  ])('refuses %j with %j', (input, message) => {
    const result = qrIdSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});

describe('qrIdFromText', () => {
  it.each([
    ['12', 12],
    [' 7 ', 7],
    ['007', 7],
    ['2147483647', 2147483647],
  ])('%j → %j', (input, id) => expect(qrIdFromText(input)).toBe(id));

  it.each([
    '',
    '   ',
    'abc',
    '12a',
    '-3',
    '1.5',
    '1e3',
    '0x10',
    '0',
    '2147483648',
    '+4',
    '99999999999999999999',
  ])('refuses %j', (input) => expect(qrIdFromText(input)).toBeNull());
});
