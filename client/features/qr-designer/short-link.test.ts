import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { slugMessages } from '../../../src/qr/slug';
import {
  localSlugProblem,
  lowerCaseNote,
  shortLinkPrefix,
  slugChangeText,
  slugCheckOf,
  slugRefusalOf,
  slugToSend,
} from './short-link';

/** A failed call as the tRPC client hands it over, shaped by the server's errorFormatter (trpc/init.ts). */
function clientError(
  message: string,
  httpStatus: number,
  issues?: { path: string; message: string }[],
  extras?: Record<string, unknown>,
): TRPCClientError<never> {
  return new TRPCClientError(message, {
    result: {
      error: {
        message,
        code: -32000,
        data: {
          code: httpStatus === 409 ? 'CONFLICT' : 'BAD_REQUEST',
          httpStatus,
          path: 'qr.create',
          issues,
          extras,
        },
      },
    },
  } as never);
}

describe('slugToSend', () => {
  it('creating: nothing typed lets the server draw a random one; text is sent trimmed and in lower case', () => {
    expect(slugToSend('')).toBeNull();
    expect(slugToSend('   ')).toBeNull();
    expect(slugToSend(' Menu ')).toBe('menu');
    expect(slugToSend('spring-menu_2')).toBe('spring-menu_2');
  });

  it('editing: the saved back-half untouched is no change, even with its capitals', () => {
    expect(slugToSend('Xk3pQ9a', 'Xk3pQ9a')).toBeUndefined();
    expect(slugToSend(' Xk3pQ9a ', 'Xk3pQ9a')).toBeUndefined();
    expect(slugToSend('xk3pq9a', 'Xk3pQ9a')).toBe('xk3pq9a');
    expect(slugToSend('Menu', 'Xk3pQ9a')).toBe('menu');
    // Emptied: a change the local check refuses (a saved code always has a back-half).
    expect(slugToSend('', 'Xk3pQ9a')).toBe('');
  });
});

describe('localSlugProblem', () => {
  it('says what is wrong with the text itself, in the shared words', () => {
    expect(localSlugProblem('')).toBeNull();
    expect(localSlugProblem('me')).toBe(slugMessages.tooShort);
    expect(localSlugProblem('x'.repeat(65))).toBe(slugMessages.tooLong);
    expect(localSlugProblem('my menu')).toBe(slugMessages.characters);
    expect(localSlugProblem('café')).toBe(slugMessages.characters);
    expect(localSlugProblem('Admin')).toBe(slugMessages.reserved);
    expect(localSlugProblem('menu')).toBeNull();
  });

  it('editing: nothing to say while the saved back-half is untouched, and an emptied field is too short', () => {
    expect(localSlugProblem('Xk3pQ9a', 'Xk3pQ9a')).toBeNull();
    expect(localSlugProblem('', 'Xk3pQ9a')).toBe(slugMessages.tooShort);
  });
});

describe('lowerCaseNote', () => {
  it('names the lower case link when capitals were typed, and nothing otherwise', () => {
    expect(lowerCaseNote('Menu')).toBe('Saved in lower case: menu');
    expect(lowerCaseNote(' SPRING-Menu ')).toBe('Saved in lower case: spring-menu');
    expect(lowerCaseNote('menu')).toBeNull();
    expect(lowerCaseNote(' menu ')).toBeNull();
    expect(lowerCaseNote('')).toBeNull();
  });

  it('editing: a saved random back-half keeps its capitals and needs no note', () => {
    expect(lowerCaseNote('Xk3pQ9a', 'Xk3pQ9a')).toBeNull();
    expect(lowerCaseNote('Menu', 'Xk3pQ9a')).toBe('Saved in lower case: menu');
  });
});

describe('shortLinkPrefix', () => {
  it('is the saved link less its back-half, as the server writes links', () => {
    expect(
      shortLinkPrefix('http://localhost:3000', {
        shortUrl: 'https://qr.example.com/r/Xk3pQ9a',
        slug: 'Xk3pQ9a',
      }),
    ).toBe('https://qr.example.com/r/');
  });

  it("is the page's origin and /r/ for a new code, or when the saved link does not end in its back-half", () => {
    expect(shortLinkPrefix('http://localhost:3000')).toBe('http://localhost:3000/r/');
    expect(shortLinkPrefix('http://localhost:3000', { shortUrl: null, slug: null })).toBe(
      'http://localhost:3000/r/',
    );
    expect(shortLinkPrefix('https://a.test', { shortUrl: 'https://a.test/r/other', slug: 'abc' })).toBe(
      'https://a.test/r/',
    );
  });
});

describe('slugCheckOf', () => {
  const none = { answer: undefined, failed: false };

  it('has nothing to check for an empty new code or an untouched saved back-half', () => {
    expect(slugCheckOf({ wanted: null, rested: true, ...none })).toEqual({ state: 'none' });
    expect(slugCheckOf({ wanted: undefined, rested: true, ...none })).toEqual({ state: 'none' });
  });

  it('says a problem of the text itself only once the owner pauses, and never asks the server', () => {
    expect(slugCheckOf({ wanted: 'me', rested: false, ...none })).toEqual({ state: 'none' });
    expect(slugCheckOf({ wanted: 'me', rested: true, ...none })).toEqual({
      state: 'refused',
      slug: 'me',
      message: slugMessages.tooShort,
    });
    expect(slugCheckOf({ wanted: 'admin', rested: true, ...none })).toEqual({
      state: 'refused',
      slug: 'admin',
      message: slugMessages.reserved,
    });
  });

  it("checks while typing and asking, then says the server's answer for this very back-half", () => {
    expect(slugCheckOf({ wanted: 'menu', rested: false, ...none })).toEqual({
      state: 'checking',
      slug: 'menu',
    });
    expect(slugCheckOf({ wanted: 'menu', rested: true, ...none })).toEqual({
      state: 'checking',
      slug: 'menu',
    });
    expect(
      slugCheckOf({
        wanted: 'menu',
        rested: true,
        answer: { slug: 'menu', status: 'available', message: 'Available' },
        failed: false,
      }),
    ).toEqual({ state: 'available', slug: 'menu', message: 'Available' });
    expect(
      slugCheckOf({
        wanted: 'menu',
        rested: false,
        answer: { slug: 'menu', status: 'taken', message: slugMessages.taken },
        failed: false,
      }),
    ).toEqual({ state: 'refused', slug: 'menu', message: slugMessages.taken });
  });

  it('never shows an answer about another back-half (the one typed before)', () => {
    expect(
      slugCheckOf({
        wanted: 'menus',
        rested: false,
        answer: { slug: 'menu', status: 'available', message: 'Available' },
        failed: false,
      }),
    ).toEqual({ state: 'checking', slug: 'menus' });
  });

  it('says nothing when the server could not be asked: the save decides', () => {
    expect(slugCheckOf({ wanted: 'menu', rested: true, answer: undefined, failed: true })).toEqual({
      state: 'unknown',
      slug: 'menu',
    });
  });
});

describe('slugRefusalOf', () => {
  it('reads a 409 SLUG_TAKEN as the field’s message', () => {
    expect(slugRefusalOf(clientError(slugMessages.taken, 409))).toBe(slugMessages.taken);
  });

  it('reads a 400 whose issue names slug, or whose message is about the short link', () => {
    expect(
      slugRefusalOf(
        clientError(slugMessages.reserved, 400, [{ path: 'slug', message: slugMessages.reserved }]),
      ),
    ).toBe(slugMessages.reserved);
    expect(slugRefusalOf(clientError(slugMessages.staticCode, 400))).toBe(slugMessages.staticCode);
    expect(slugRefusalOf(clientError('Pick another one', 400, undefined, { field: 'slug' }))).toBe(
      'Pick another one',
    );
  });

  it('leaves every other refusal to the page', () => {
    expect(
      slugRefusalOf(clientError('Name is required', 400, [{ path: 'name', message: 'Name is required' }])),
    ).toBeNull();
    expect(slugRefusalOf(clientError('You have reached your plan limit', 403))).toBeNull();
    expect(slugRefusalOf(clientError('This folder was deleted', 409))).toBeNull();
    expect(slugRefusalOf(new Error('Failed to fetch'))).toBeNull();
    expect(slugRefusalOf('nope')).toBeNull();
  });
});

describe('slugChangeText', () => {
  const old = 'https://qr.example.com/r/Xk3pQ9a';

  it('counts the scans and says the old link keeps redirecting', () => {
    expect(slugChangeText(1, old)).toBe(
      `This code has been scanned 1 time. Its old link ${old} will keep redirecting here, because it may already be printed.`,
    );
    expect(slugChangeText(1204, old)).toBe(
      `This code has been scanned 1,204 times. Its old link ${old} will keep redirecting here, because it may already be printed.`,
    );
  });

  it('without a count, says what happens if the code has been scanned', () => {
    expect(slugChangeText(null, old)).toBe(
      `This code's scans could not be counted. If it has been scanned, its old link ${old} will keep redirecting here, because it may already be printed.`,
    );
  });
});
