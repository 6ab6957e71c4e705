import { describe, expect, it } from 'vitest';
import { initialsOf } from '../../../src/auth/initials';
import { documentTitle, headerTitle, pageTitle } from './header-title';
import { activeNavPath, adminNav, mainNav, upgradeNav } from './nav-items';

describe("headerTitle: the spec's title by route", () => {
  it.each([
    ['/', 'Dashboard'],
    ['/create', 'Create QR Code'],
    ['/my-qr-codes', 'My QR Codes'],
    ['/analytics', 'Analytics'],
    ['/settings', 'Settings'],
    ['/invitations', 'Invitations'],
    ['/admin/users', 'User Management'],
    ['/edit-qr/12', 'Edit QR Code'],
    ['/scan-demo', 'QR Code Scanner'],
    ['/scan-demo/4', 'QR Code Scanner'],
    ['/import', 'Import links'],
    ['/admin', 'Admin'],
    ['/admin/subscriptions', 'Admin'],
    ['/profile', 'QR Creator'],
    ['/upgrade', 'QR Creator'],
    ['/qr-details/3', 'QR Creator'],
  ])('%s → %s', (path, title) => {
    expect(headerTitle(path)).toBe(title);
  });
});

describe('pageTitle', () => {
  it.each([
    ['/', 'Dashboard'],
    ['/create', 'Create QR Code'],
    ['/my-qr-codes', 'My QR Codes'],
    ['/analytics', 'Analytics'],
    ['/settings', 'Settings'],
    ['/profile', 'Profile'],
    ['/upgrade', 'Upgrade'],
    ['/invitations', 'Invitations'],
    ['/workspace', 'Team Settings'],
    ['/integrations', 'Integrations'],
    ['/admin/workspaces', 'Workspaces'],
    ['/admin/domains', 'Short domains'],
    ['/admin/users', 'User Management'],
    ['/admin/users/', 'User Management'],
    ['/edit-qr/12', 'Edit QR Code'],
    ['/qr-details/3', 'QR Code Details'],
    ['/scan-demo', 'QR Code Scanner'],
    ['/import', 'Import links'],
    ['/admin', 'Admin Dashboard'],
    ['/admin/subscriptions', 'Subscriptions'],
    ['/admin/other', 'Admin'],
    ['/nowhere', 'QR Creator'],
  ])('%s → %s', (path, title) => {
    expect(pageTitle(path)).toBe(title);
  });

  it('makes the tab title: the page, then the product', () => {
    expect(documentTitle('/')).toBe('Dashboard · QR Creator');
    expect(documentTitle('/nowhere')).toBe('QR Creator');
  });
});

describe('sidebar highlight: exactly one entry, the most specific', () => {
  const user = [...mainNav, upgradeNav];
  const admin = [...mainNav, ...adminNav];

  it.each([
    ['/', user, '/'],
    ['/create', user, '/create'],
    ['/my-qr-codes', user, '/my-qr-codes'],
    ['/qr-details/3', user, '/my-qr-codes'],
    ['/edit-qr/3', user, '/my-qr-codes'],
    ['/scan-demo', user, '/my-qr-codes'],
    ['/import', user, '/my-qr-codes'],
    ['/analytics', user, '/analytics'],
    ['/profile', user, '/profile'],
    ['/settings', user, '/settings'],
    ['/upgrade', user, '/upgrade'],
    ['/workspace', user, '/workspace'],
    ['/admin', admin, '/admin'],
    ['/admin/workspaces', admin, '/admin/workspaces'],
    ['/admin/workspaces/3', admin, '/admin/workspaces'],
    ['/admin/domains', admin, '/admin/domains'],
    ['/admin/users', admin, '/admin/users'],
    ['/admin/users/7', admin, '/admin/users'],
    ['/admin/subscriptions', admin, '/admin/subscriptions'],
    ['/admin/other', admin, '/admin'],
  ])('%s lights %s', (path, shown, lit) => {
    expect(activeNavPath(path, shown)).toBe(lit);
  });

  it('lights nothing when no entry shown stands for the page', () => {
    expect(activeNavPath('/upgrade', admin)).toBeNull();
    expect(activeNavPath('/administrator', admin)).toBeNull();
    expect(activeNavPath('/nowhere', user)).toBeNull();
    expect(activeNavPath('/invitations', user)).toBeNull();
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
