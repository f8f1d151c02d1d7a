import { isAdminRole, type Role } from '../../domain/roles.js';

/** What the login guard shows (spec/platform.md section 2, "Guard behaviour, in order"). Pure, unit-tested. */
export type GuardDecision =
  | { kind: 'spinner' }
  | { kind: 'workspace-not-found' }
  | { kind: 'workspace-inactive' }
  | { kind: 'workspace-suspended' }
  | { kind: 'external'; url: string }
  | { kind: 'login'; redirect: string }
  | { kind: 'app'; suspended: boolean };

export interface GuardInput {
  workspacePending: boolean;
  tokenPending: boolean;
  workspaceNotFound: boolean;
  workspace: { status: 'active' | 'inactive' | 'suspended'; login: string | null } | null;
  hasToken: boolean;
  /** The signed-in user's role, once known. */
  role: Role | null;
  /** The server refused to show the signed-in user: in a suspended workspace, someone who is not an admin. */
  userRefused?: boolean;
  /** The app is offline with a user seen before: show the shell from the local cache. */
  offlineUser: boolean;
  /** The current path and query string, saved for after login. */
  location: string;
}

export function decideGuard(input: GuardInput): GuardDecision {
  if (input.workspacePending || input.tokenPending) return { kind: 'spinner' };
  if (input.offlineUser) return { kind: 'app', suspended: false };
  if (input.workspaceNotFound || !input.workspace) return { kind: 'workspace-not-found' };
  const { status, login } = input.workspace;
  if (status === 'inactive') return { kind: 'workspace-inactive' };
  if (status === 'suspended' && input.hasToken) {
    if (input.role === null) return input.userRefused ? { kind: 'workspace-suspended' } : { kind: 'spinner' };
    if (!isAdminRole(input.role)) return { kind: 'workspace-suspended' };
  }
  if (login) return { kind: 'external', url: login };
  if (input.hasToken) return { kind: 'app', suspended: status === 'suspended' };
  return { kind: 'login', redirect: input.location };
}

/** Spec: in a suspended workspace only /billing is reachable. */
export function suspendedRedirect(pathname: string): string | null {
  return pathname === '/billing' || pathname.startsWith('/billing/') ? null : '/billing';
}

export const AUTH_REDIRECT_KEY = 'auth_redirect';
