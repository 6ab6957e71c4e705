import { i18n } from '@lingui/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceActivity } from '../../../../src/workspaces/workspace.schema';
import { activitySentence } from './activity-text';

// The feed's words are said in the screens' language: English here, as the app starts.
beforeAll(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

const entry = (
  action: string,
  targetLabel: string | null,
  details: Record<string, unknown> | null = null,
): WorkspaceActivity => ({
  id: 1,
  actor: { id: 7, username: 'ada' },
  action,
  targetType: action.split('.')[0] ?? 'workspace',
  targetId: '3',
  targetLabel,
  details,
  createdAt: '2026-11-30T09:00:00.000Z',
});

describe('activitySentence', () => {
  it.each([
    [entry('workspace.created', 'Marketing'), 'ada created the workspace “Marketing”'],
    [
      entry('workspace.renamed', 'Sales', { from: 'Marketing', to: 'Sales' }),
      'ada renamed the workspace from “Marketing” to “Sales”',
    ],
    [entry('workspace.transferred', 'bob', { from: 'ada', to: 'bob' }), 'ada transferred ownership to bob'],
    [entry('code.created', 'Menu'), 'ada created the QR code “Menu”'],
    [entry('code.changed', 'Menu'), 'ada changed the QR code “Menu”'],
    [entry('code.restored', 'Menu'), 'ada restored the QR code “Menu”'],
    [entry('code.deleted', 'Menu'), 'ada deleted the QR code “Menu”'],
    [entry('code.moved-in', 'Menu'), 'ada moved the QR code “Menu” into this workspace'],
    [
      entry('code.moved-in', 'Menu', { from: 'Personal' }),
      'ada moved the QR code “Menu” into this workspace from Personal',
    ],
    [entry('code.moved-out', 'Menu', { to: 'Sales' }), 'ada moved the QR code “Menu” to Sales'],
    [entry('code.moved-out', 'Menu'), 'ada moved the QR code “Menu” out of this workspace'],
    [entry('member.invited', 'bob', { role: 'editor' }), 'ada invited bob as editor'],
    [entry('member.joined', 'ada', { role: 'viewer' }), 'ada joined the workspace as viewer'],
    [
      entry('member.role-changed', 'bob', { from: 'viewer', to: 'editor' }),
      'ada changed the role of bob from viewer to editor',
    ],
    [entry('member.removed', 'bob', { role: 'viewer' }), 'ada removed bob'],
    [entry('member.left', 'ada', { role: 'admin' }), 'ada left the workspace'],
    [entry('folder.created', 'Print'), 'ada created the folder “Print”'],
    [
      entry('folder.renamed', 'Posters', { from: 'Print', to: 'Posters' }),
      'ada renamed the folder “Print” to “Posters”',
    ],
    [entry('folder.deleted', 'Print'), 'ada deleted the folder “Print”'],
    [entry('forwarding.updated', 'Plausible'), 'ada set scans to be forwarded to Plausible'],
    [entry('forwarding.removed', 'Matomo'), 'ada stopped forwarding scans to Matomo'],
    [entry('token.created', 'CI'), 'ada token created CI'],
  ])('%#: %s', (activity, sentence) => expect(activitySentence(activity)).toBe(sentence));
});
