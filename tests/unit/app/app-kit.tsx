import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Routes, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import type { User } from '../../../src/contract/accounts.js';
import type { Service, Team } from '../../../src/contract/catalogue.js';
import { AuthProvider, useAuth } from '../../../src/app/session/auth-context.js';
import { SnackbarProvider } from '../../../src/app/components/snackbars.js';

/** What the stubbed server saw. */
export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (call: Call) => Answer | undefined;

/** A workspace as GET /api/workspace answers it. */
export const workspace = { id: 'w1', name: 'Acme', domain: 'acme', status: 'active', login: null };

export function makeUser(handle: string, overrides: Partial<User> = {}): User {
  return {
    id: `id-${handle}`,
    handle,
    name: handle.charAt(0).toUpperCase() + handle.slice(1),
    email: `${handle}@acme.test`,
    bio: null,
    profile: null,
    description: null,
    thumbnail_url: null,
    last_login: null,
    role: 'member',
    super_admin: false,
    ...overrides,
  };
}

export function makeTeam(handle: string, overrides: Partial<Team> = {}): Team {
  return {
    id: `team-${handle}`,
    handle,
    name: handle.charAt(0).toUpperCase() + handle.slice(1),
    description: null,
    thumbnail_url: null,
    parent: null,
    is_admin: false,
    is_member: false,
    can_create_services: false,
    members: [],
    member_count: 0,
    managed_by: null,
    ...overrides,
  };
}

export function makeService(handle: string, overrides: Partial<Service> = {}): Service {
  return {
    id: `service-${handle}`,
    handle,
    name: handle.charAt(0).toUpperCase() + handle.slice(1),
    description: null,
    thumbnail_url: null,
    links: [],
    visibility: 'workspace',
    stage: 'live',
    health: 'good',
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-01-01T00:00:00.000Z',
    starred_count: 0,
    starred: false,
    owner: { id: 'team-core', handle: 'core', name: 'Core', thumbnail_url: null },
    permissions: { edit: false },
    managed_by: null,
    ...overrides,
  };
}

/** A token whose payload names the signed-in user the way the server does (`user:{workspace}:{handle}`). */
export function tokenFor(handle: string): string {
  const payload = Buffer.from(JSON.stringify({ sub: `user:acme:${handle}` })).toString('base64url');
  return `header.${payload}.sig`;
}

/** A JSON response; 204 and a missing body have none. */
export function respond({ status, body, headers = {} }: Answer): Response {
  return new Response(status === 204 || body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/**
 * Stubs fetch: the workspace, a session token for `viewer`, GET /api/users/{handle} for the viewer and for
 * `users`, then `handler` for anything else (it wins when it answers); every other call is a 404.
 */
export function stubApi(viewer: User, { users = [], handler }: { users?: User[]; handler?: Handler } = {}): Call[] {
  const calls: Call[] = [];
  const known = new Map([viewer, ...users].flatMap((user) => [[user.handle, user] as const, [user.id, user] as const]));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://acme.localhost');
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
      const call: Call = { method, path: url.pathname, query: url.searchParams, body };
      calls.push(call);
      const answer = handler?.(call);
      if (answer) return respond(answer);
      if (method === 'GET' && call.path === '/api/workspace') return respond({ status: 200, body: workspace });
      if (method === 'POST' && call.path === '/api/token') {
        return respond({
          status: 200,
          body: { access_token: tokenFor(viewer.handle), token_type: 'Bearer', expires_in: 900 },
        });
      }
      const user = /^\/api\/users\/([^/]+)$/.exec(call.path);
      if (method === 'GET' && user) {
        const found = known.get(decodeURIComponent(user[1]!));
        if (found) return respond({ status: 200, body: found });
      }
      return respond({ status: 404, body: { message: 'Not Found' } });
    }),
  );
  return calls;
}

/** A list answer with its `total` header. */
export function page(items: unknown[], total = items.length): Answer {
  return { status: 200, body: items, headers: { total: String(total) } };
}

/** Shows the current path so a test can see a navigation happen. */
export function LocationProbe() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

/** Screens render once the signed-in user is known, as they would after the app's start-up. */
function WhenSignedIn({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  return state.user ? children : <p>Signing in</p>;
}

/**
 * Renders `routes` (<Route> elements) at `url` inside the router, the snackbars and the real AuthProvider of
 * workspace "acme", once signed in, with the location probe; `providers` wraps them in what the screens need.
 */
export function renderSignedIn(
  url: string,
  routes: ReactNode,
  providers: (screens: ReactNode) => ReactNode = (screens) => screens,
) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <SnackbarProvider>
        <AuthProvider domain="acme">
          {providers(
            <>
              <WhenSignedIn>
                <Routes>{routes}</Routes>
              </WhenSignedIn>
              <LocationProbe />
            </>,
          )}
        </AuthProvider>
      </SnackbarProvider>
    </MemoryRouter>,
  );
}

/** Violations axe finds; jsdom has no layout (no contrast) and the shell's <main> is not rendered here. */
export async function violations(): Promise<string[]> {
  // Loaded on first use, so only the accessibility tests pay for it.
  const { default: axe } = await import('axe-core');
  const result = await axe.run(document.body, {
    rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
  });
  return result.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`,
  );
}
