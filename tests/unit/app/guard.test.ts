import { describe, expect, it } from 'vitest';
import { decideGuard, suspendedRedirect, type GuardInput } from '../../../src/app/routing/guard.js';

const ready: GuardInput = {
  workspacePending: false,
  tokenPending: false,
  workspaceNotFound: false,
  workspace: { status: 'active', login: null },
  hasToken: true,
  role: 'member',
  offlineUser: false,
  location: '/users?q=ann',
};

describe('decideGuard, in the spec order', () => {
  it('1. spins while the workspace or the token is pending', () => {
    expect(decideGuard({ ...ready, workspacePending: true })).toEqual({ kind: 'spinner' });
    expect(decideGuard({ ...ready, tokenPending: true, workspaceNotFound: true })).toEqual({ kind: 'spinner' });
  });

  it('2. shows Workspace Not Found', () => {
    expect(decideGuard({ ...ready, workspaceNotFound: true, workspace: null })).toEqual({
      kind: 'workspace-not-found',
    });
  });

  it('3. shows Workspace Inactive, even to admins', () => {
    expect(decideGuard({ ...ready, role: 'owner', workspace: { status: 'inactive', login: null } })).toEqual({
      kind: 'workspace-inactive',
    });
  });

  it('4. lets admins and owners into a suspended workspace, and no one else', () => {
    const suspended = { status: 'suspended' as const, login: null };
    expect(decideGuard({ ...ready, role: 'admin', workspace: suspended })).toEqual({ kind: 'app', suspended: true });
    expect(decideGuard({ ...ready, role: 'owner', workspace: suspended })).toEqual({ kind: 'app', suspended: true });
    expect(decideGuard({ ...ready, role: 'member', workspace: suspended })).toEqual({ kind: 'workspace-suspended' });
    expect(decideGuard({ ...ready, role: null, workspace: suspended })).toEqual({ kind: 'spinner' });
    // The server refuses to show a member of a suspended workspace their own user: that is the answer.
    expect(decideGuard({ ...ready, role: null, userRefused: true, workspace: suspended })).toEqual({
      kind: 'workspace-suspended',
    });
    // Without a token the admin must be able to reach the login.
    expect(decideGuard({ ...ready, hasToken: false, role: null, workspace: suspended })).toEqual({
      kind: 'login',
      redirect: '/users?q=ann',
    });
  });

  it('5. sends the browser to the login address on the sign-up host', () => {
    expect(decideGuard({ ...ready, workspace: { status: 'active', login: 'https://signup.example/acme' } })).toEqual({
      kind: 'external',
      url: 'https://signup.example/acme',
    });
  });

  it('6 and 7. shows the app with a token, else goes to /login saving path and query', () => {
    expect(decideGuard(ready)).toEqual({ kind: 'app', suspended: false });
    expect(decideGuard({ ...ready, hasToken: false, role: null })).toEqual({ kind: 'login', redirect: '/users?q=ann' });
  });

  it('shows the last-seen shell when offline with a known user', () => {
    expect(
      decideGuard({ ...ready, workspace: null, workspaceNotFound: false, hasToken: false, offlineUser: true }),
    ).toEqual({ kind: 'app', suspended: false });
  });
});

describe('suspendedRedirect', () => {
  it('keeps /billing and its sub-pages, sends everything else there', () => {
    expect(suspendedRedirect('/billing')).toBeNull();
    expect(suspendedRedirect('/billing/invoices')).toBeNull();
    expect(suspendedRedirect('/')).toBe('/billing');
    expect(suspendedRedirect('/billingx')).toBe('/billing');
  });
});
