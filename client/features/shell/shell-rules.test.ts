import { describe, expect, it } from 'vitest';
import { initialsOf } from '../../../src/auth/auth.schema';
import { headerTitle } from './header-title';
import { adminNav, isActive, mainNav } from './nav-items';

describe('headerTitle', () => {
  it.each([
    ['/', 'Dashboard'],
    ['/create', 'Create QR Code'],
    ['/my-qr-codes', 'My QR Codes'],
    ['/analytics', 'Analytics'],
    ['/settings', 'Settings'],
    ['/admin/users', 'User Management'],
    ['/edit-qr/12', 'Edit QR Code'],
    ['/scan-demo', 'QR Code Scanner'],
    ['/admin', 'Admin'],
    ['/admin/subscriptions', 'Admin'],
    ['/profile', 'QR Creator'],
    ['/qr-details/3', 'QR Creator'],
    ['/upgrade', 'QR Creator'],
  ])('%s → %s', (path, title) => {
    expect(headerTitle(path)).toBe(title);
  });
});

describe('sidebar highlight', () => {
  const entry = (to: string) => [...mainNav, ...adminNav].find((i) => i.to === to)!;

  it('highlights a user entry on an exact match only', () => {
    expect(isActive(entry('/'), '/', false)).toBe(true);
    expect(isActive(entry('/'), '/create', false)).toBe(false);
    expect(isActive(entry('/my-qr-codes'), '/my-qr-codes/extra', false)).toBe(false);
  });

  it('highlights an admin entry on any sub-path too', () => {
    expect(isActive(entry('/admin'), '/admin', true)).toBe(true);
    expect(isActive(entry('/admin'), '/admin/users', true)).toBe(true);
    expect(isActive(entry('/admin/users'), '/admin/users/7', true)).toBe(true);
    expect(isActive(entry('/admin/users'), '/admin/subscriptions', true)).toBe(false);
    expect(isActive(entry('/admin'), '/administrator', true)).toBe(false);
  });
});

describe('avatar initials', () => {
  it('takes the first letters of up to two words of the name, upper-cased', () => {
    expect(initialsOf({ name: 'ada lovelace byron', username: 'ada' })).toBe('AL');
    expect(initialsOf({ name: '  Grace  ', username: 'gh' })).toBe('G');
    expect(initialsOf({ name: 'Émile Zola', username: 'ez' })).toBe('ÉZ');
  });

  it('falls back to two letters of the username, then to a question mark', () => {
    expect(initialsOf({ name: null, username: 'demo' })).toBe('DE');
    expect(initialsOf({ name: '   ', username: 'x' })).toBe('X');
    expect(initialsOf(null)).toBe('?');
  });
});
