import { describe, expect, it } from 'vitest';
import { containsPattern, dateBoundParam, pagedQuery, PAGE_SIZE_DEFAULT } from './paging.js';

describe('pagedQuery', () => {
  const query = pagedQuery({ sort: ['created', 'name'], defaultSort: 'created', searchIn: 'name' });

  it('answers the first 100, newest first, when no parameter is given', () => {
    expect(query.parse({})).toEqual({ page: 1, pageSize: PAGE_SIZE_DEFAULT, sort: 'created', order: 'desc' });
  });

  it('reads the query’s text as numbers and trims the search', () => {
    expect(
      query.parse({ page: '3', pageSize: '500', search: '  Bulk ', sort: 'name', order: 'asc' }),
    ).toEqual({
      page: 3,
      pageSize: 500,
      search: 'Bulk',
      sort: 'name',
      order: 'asc',
    });
  });

  it.each([
    [{ pageSize: '501' }, 'pageSize', 'pageSize: must be at most 500'],
    [{ pageSize: '' }, 'pageSize', 'pageSize: must be at least 1'],
    [{ page: 'two' }, 'page', 'page: must be a whole number'],
    [{ page: ['1', '2'] }, 'page', 'page: must be a whole number'],
    [{ search: ['a', 'b'] }, 'search', 'search: must be text'],
    [{ sort: 'scans' }, 'sort', 'sort: must be one of created, name'],
  ])('refuses %o, naming %s', (input, path, message) => {
    const result = query.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: [path], message });
  });
});

describe('dateBoundParam', () => {
  const from = dateBoundParam('createdFrom', { end: false });
  const to = dateBoundParam('createdTo', { end: true });

  it('starts a range at the start of a date, and ends it after the whole day', () => {
    expect(from.parse('2026-03-01')).toBe('2026-03-01T00:00:00.000Z');
    expect(to.parse('2026-03-01')).toBe('2026-03-02T00:00:00.000Z');
  });

  it('takes a date-time with its offset as one instant, the end including it', () => {
    expect(from.parse('2026-03-01T01:00:00+01:00')).toBe('2026-03-01T00:00:00.000Z');
    expect(to.parse('2026-03-01T12:00Z')).toBe('2026-03-01T12:00:00.001Z');
  });

  it('keeps bounds at the far ends of time within the years the databases read', () => {
    expect(to.parse('9999-12-31')).toBe('9999-12-31T23:59:59.999Z');
    expect(from.parse('0000-01-01T00:00:00+01:00')).toBe('0001-01-01T00:00:00.000Z');
  });

  it.each(['2026-02-30', '2026-13-01', 'yesterday', '2026-03-01T12:00:00', '1700000000'])(
    'refuses %s',
    (value) => {
      expect(from.safeParse(value).error?.issues[0]?.message).toMatch(
        /^createdFrom: must be an ISO 8601 date/,
      );
    },
  );
});

describe('containsPattern', () => {
  it('lower-cases the search and escapes LIKE wildcards and the escape character', () => {
    expect(containsPattern('50%_Off\\')).toBe('%50\\%\\_off\\\\%');
  });
});
