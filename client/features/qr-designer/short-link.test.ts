import { clientError } from '../../lib/trpc-error.test-helpers';
import { describe, expect, it } from 'vitest';
import { slugMessages } from '../../../src/qr/slug';
import type { AvailableDomains } from '../../../src/qr/short-domain.schema';
import {
  APP_DOMAIN,
  domainChoices,
  domainIdToSend,
  fieldRefusalOf,
  knownDomainId,
  localSlugProblem,
  lowerCaseNote,
  shortLinkBaseOf,
  shortLinkPrefix,
  slugChangeText,
  slugCheckOf,
  slugRefusalOf,
  slugToSend,
  standInShortLink,
  type SavedShortLink,
} from './short-link';

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

const available: AvailableDomains = {
  defaultBase: 'http://localhost:3000/r/',
  items: [
    { id: 4, hostname: 'go.example.com', shortLinkBase: 'http://go.example.com/' },
    { id: 7, hostname: 'menu.cafe.test', shortLinkBase: 'http://menu.cafe.test/' },
  ],
};
const none: AvailableDomains = { defaultBase: 'http://localhost:3000/r/', items: [] };
/** A saved code on the app's own address, and one on a domain the workspace has lost since. */
const onApp: SavedShortLink = {
  shortUrl: 'https://qr.example.com/r/Xk3pQ9a',
  slug: 'Xk3pQ9a',
  domainId: null,
};
const onLost: SavedShortLink = { shortUrl: 'http://old.example.org/menu', slug: 'menu', domainId: 9 };

describe('shortLinkBaseOf', () => {
  const origin = 'http://127.0.0.1:5173';

  it("is the server's base for the app's own address and for each domain of the workspace", () => {
    expect(shortLinkBaseOf({ domainId: null, available, origin })).toBe('http://localhost:3000/r/');
    expect(shortLinkBaseOf({ domainId: 4, available, origin })).toBe('http://go.example.com/');
    // The server's answer wins over the saved link (PUBLIC_URL may have changed since).
    expect(shortLinkBaseOf({ domainId: null, available, saved: onApp, origin })).toBe(
      'http://localhost:3000/r/',
    );
    expect(shortLinkBaseOf({ domainId: 7, available, saved: onApp, origin })).toBe('http://menu.cafe.test/');
  });

  it('is the saved link less its back-half for a domain the workspace has lost', () => {
    expect(shortLinkBaseOf({ domainId: 9, available, saved: onLost, origin })).toBe(
      'http://old.example.org/',
    );
    expect(shortLinkBaseOf({ domainId: null, available, saved: onLost, origin })).toBe(
      'http://localhost:3000/r/',
    );
  });

  it("before the server answers: the saved link's start for its own domain, else the page's origin and /r/", () => {
    expect(shortLinkBaseOf({ domainId: null, available: undefined, origin })).toBe(
      'http://127.0.0.1:5173/r/',
    );
    expect(shortLinkBaseOf({ domainId: null, available: undefined, saved: onApp, origin })).toBe(
      'https://qr.example.com/r/',
    );
    expect(shortLinkBaseOf({ domainId: 9, available: undefined, saved: onLost, origin })).toBe(
      'http://old.example.org/',
    );
    expect(shortLinkBaseOf({ domainId: null, available: undefined, saved: onLost, origin })).toBe(
      'http://127.0.0.1:5173/r/',
    );
    // A saved link that does not end in its back-half tells nothing.
    const odd = { shortUrl: 'https://a.test/r/other', slug: 'abc', domainId: null };
    expect(shortLinkBaseOf({ domainId: null, available: undefined, saved: odd, origin })).toBe(
      'http://127.0.0.1:5173/r/',
    );
  });

  it("an unknown domain (a draft's, taken away since) is the app's own address", () => {
    expect(shortLinkBaseOf({ domainId: 12, available, origin })).toBe('http://localhost:3000/r/');
    expect(shortLinkBaseOf({ domainId: 12, available: undefined, origin })).toBe('http://127.0.0.1:5173/r/');
  });
});

describe('shortLinkPrefix', () => {
  it('is the base without its scheme', () => {
    expect(shortLinkPrefix('http://localhost:3000/r/')).toBe('localhost:3000/r/');
    expect(shortLinkPrefix('https://go.example.com/')).toBe('go.example.com/');
    expect(shortLinkPrefix('https://qr.example.com/app/r/')).toBe('qr.example.com/app/r/');
  });
});

describe('domainChoices', () => {
  it("offers the app's own address first, then each domain by its host name", () => {
    expect(domainChoices(available)).toEqual([
      { value: APP_DOMAIN, label: 'localhost:3000/r/' },
      { value: '4', label: 'go.example.com' },
      { value: '7', label: 'menu.cafe.test' },
    ]);
    expect(domainChoices(available, onApp)).toEqual(domainChoices(available));
  });

  it('is empty (no select) while loading and when the workspace has no domain', () => {
    expect(domainChoices(undefined)).toEqual([]);
    expect(domainChoices(none)).toEqual([]);
    expect(domainChoices(none, onApp)).toEqual([]);
  });

  it("keeps a domain the workspace has lost as the code's value, named by its host", () => {
    expect(domainChoices(available, onLost)).toEqual([
      { value: APP_DOMAIN, label: 'localhost:3000/r/' },
      { value: '4', label: 'go.example.com' },
      { value: '7', label: 'menu.cafe.test' },
      { value: '9', label: 'old.example.org' },
    ]);
    // The only way back to the app's own address, even with no domain left.
    expect(domainChoices(none, onLost)).toEqual([
      { value: APP_DOMAIN, label: 'localhost:3000/r/' },
      { value: '9', label: 'old.example.org' },
    ]);
  });
});

describe('knownDomainId', () => {
  it('keeps a domain of the workspace, and any while the list is loading', () => {
    expect(knownDomainId(4, available)).toBe(4);
    expect(knownDomainId(null, available)).toBeNull();
    expect(knownDomainId(12, undefined)).toBe(12);
  });

  it('drops a domain the workspace may no longer use, unless the saved code has it', () => {
    expect(knownDomainId(12, available)).toBeNull();
    expect(knownDomainId(9, available, onLost)).toBe(9);
    expect(knownDomainId(9, none, onApp)).toBeNull();
  });
});

describe('domainIdToSend', () => {
  it("creating: the chosen domain, nothing for the app's own", () => {
    expect(domainIdToSend(4)).toBe(4);
    expect(domainIdToSend(null)).toBeUndefined();
  });

  it('editing: nothing while it is the saved one, else the new one (null: back to the app)', () => {
    expect(domainIdToSend(null, onApp)).toBeUndefined();
    expect(domainIdToSend(9, onLost)).toBeUndefined();
    expect(domainIdToSend(4, onApp)).toBe(4);
    expect(domainIdToSend(null, onLost)).toBeNull();
  });
});

describe('standInShortLink', () => {
  it('is the chosen base and a random back-half of the real length, or the back-half typed', () => {
    expect(standInShortLink('http://localhost:3000/r/')).toBe('http://localhost:3000/r/Qz7xKp2');
    expect(standInShortLink('http://go.example.com/', null)).toBe('http://go.example.com/Qz7xKp2');
    expect(standInShortLink('http://go.example.com/', 'spring-menu')).toBe(
      'http://go.example.com/spring-menu',
    );
    // Text that cannot be a back-half is refused before saving: the random one's stand-in meanwhile.
    expect(standInShortLink('http://go.example.com/', 'ab')).toBe('http://go.example.com/Qz7xKp2');
    expect(standInShortLink('http://go.example.com/', '')).toBe('http://go.example.com/Qz7xKp2');
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

describe('fieldRefusalOf', () => {
  const notAvailable = 'This domain is not available in this workspace';

  it('puts a domain the workspace may not use on the Domain select', () => {
    expect(fieldRefusalOf(clientError(notAvailable, 400, undefined, { field: 'domainId' }))).toEqual({
      field: 'domainId',
      message: notAvailable,
    });
    expect(
      fieldRefusalOf(clientError(notAvailable, 400, [{ path: 'domainId', message: notAvailable }])),
    ).toEqual({ field: 'domainId', message: notAvailable });
  });

  it('puts a refused back-half on the Short link field, and leaves the rest to the page', () => {
    expect(fieldRefusalOf(clientError(slugMessages.taken, 409))).toEqual({
      field: 'slug',
      message: slugMessages.taken,
    });
    expect(fieldRefusalOf(clientError('You have reached your plan limit', 403))).toBeNull();
    expect(fieldRefusalOf('nope')).toBeNull();
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

  it('on a short domain, says the domain keeps answering while the workspace may use it, and the app always', () => {
    const onDomain = 'http://go.example.com/menu';
    const oldDomain = { hostname: 'go.example.com', appLink: 'http://localhost:3000/r/menu' };
    expect(slugChangeText(3, onDomain, oldDomain)).toBe(
      `This code has been scanned 3 times. Its old link ${onDomain} will keep redirecting here, because it may already be printed. ` +
        'The domain go.example.com keeps answering while this workspace may use it, and http://localhost:3000/r/menu keeps working too.',
    );
    expect(slugChangeText(null, onDomain, oldDomain)).toMatch(
      /could not be counted\..* The domain go\.example\.com keeps answering while this workspace may use it, and http:\/\/localhost:3000\/r\/menu keeps working too\.$/,
    );
  });

  it('on a domain the workspace has lost, says the old link stops there and only the app keeps it', () => {
    const onDomain = 'http://go.example.com/menu';
    const lost = { hostname: 'go.example.com', appLink: 'http://localhost:3000/r/menu', lost: true };
    expect(slugChangeText(2, onDomain, lost)).toBe(
      `This code has been scanned 2 times. This workspace may no longer use go.example.com, so its old link ${onDomain} ` +
        'will stop answering; http://localhost:3000/r/menu keeps redirecting here.',
    );
  });
});
