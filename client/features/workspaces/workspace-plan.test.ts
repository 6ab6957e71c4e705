import { describe, expect, it } from 'vitest';
import type { Workspace } from '../../../src/workspaces/workspace.schema';
import { workspacePlanView } from './workspace-plan';

describe("a workspace's plan in the shell: the current workspace's, the upgrade for its owners", () => {
  const now = new Date('2026-12-01T12:00:00Z');
  const plan = (tier: 'free' | 'pro' | 'premium', extra: Partial<Workspace['plan']> = {}) => ({
    tier,
    status: tier === 'free' ? null : 'active',
    endDate: null,
    hasUnlimitedAccess: false,
    ...extra,
  });
  const person = { isAdmin: false };

  it('reads the plan of the workspace, not of the person', () => {
    const team = { kind: 'team', role: 'owner', plan: plan('pro') } as const;
    expect(workspacePlanView(person, team, now)).toEqual({
      badge: 'Pro plan',
      offer: { tier: 'premium', label: 'Upgrade to Premium' },
      owner: true,
    });
    const free = { kind: 'team', role: 'owner', plan: plan('free') } as const;
    expect(workspacePlanView(person, free, now)).toMatchObject({
      badge: null,
      offer: { label: 'Upgrade to Pro' },
    });
  });

  it.each(['admin', 'editor', 'viewer'] as const)(
    'offers a %s no upgrade; the badge still says the plan',
    (role) => {
      expect(workspacePlanView(person, { kind: 'team', role, plan: plan('premium') }, now)).toEqual({
        badge: 'Premium plan',
        offer: null,
        owner: false,
      });
      expect(workspacePlanView(person, { kind: 'team', role, plan: plan('free') }, now).offer).toBeNull();
    },
  );

  it('counts an ended paid plan as Free', () => {
    const ended = plan('pro', { endDate: '2026-11-30T00:00:00Z' });
    expect(workspacePlanView(person, { kind: 'personal', role: 'owner', plan: ended }, now)).toMatchObject({
      badge: null,
      offer: { label: 'Upgrade to Pro' },
    });
  });

  it("lifts an instance admin's own workspace only", () => {
    const admin = { isAdmin: true };
    expect(workspacePlanView(admin, { kind: 'personal', role: 'owner', plan: plan('free') }, now)).toEqual({
      badge: null,
      offer: null,
      owner: true,
    });
    expect(workspacePlanView(admin, { kind: 'team', role: 'owner', plan: plan('free') }, now).offer).toEqual({
      tier: 'pro',
      label: 'Upgrade to Pro',
    });
  });

  it('says unlimited access, with nothing to buy', () => {
    const unlimited = plan('free', { hasUnlimitedAccess: true });
    expect(workspacePlanView(person, { kind: 'team', role: 'owner', plan: unlimited }, now)).toEqual({
      badge: 'Unlimited access',
      offer: null,
      owner: true,
    });
  });

  it('says nothing before the workspace is known', () => {
    expect(workspacePlanView(person, undefined, now)).toEqual({ badge: null, offer: null, owner: false });
  });
});
