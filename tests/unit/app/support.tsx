import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { vi } from 'vitest';
import { AuthProvider } from '../../../src/app/session/auth-context.js';
import { SnackbarProvider } from '../../../src/app/components/snackbars.js';
import { LocationProbe, respond, workspace } from './app-kit.js';

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

export type Answer = { status: number; body?: unknown };

/**
 * Stubs fetch with answers by "METHOD /path". The AuthProvider's start-up calls get a workspace and no
 * session unless a test answers them itself. Returns the calls made, bodies parsed.
 */
export function stubApi(answers: Record<string, Answer | ((body: unknown) => Answer)>): Call[] {
  const calls: Call[] = [];
  const all: Record<string, Answer | ((body: unknown) => Answer)> = {
    'GET /api/workspace': { status: 200, body: workspace },
    'POST /api/token': { status: 401, body: { message: 'No session' } },
    ...answers,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const path = new URL(input, 'http://localhost').pathname;
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, path, body });
      const answer = all[`${method} ${path}`];
      if (!answer) return respond({ status: 404, body: { message: 'Not Found' } });
      const { status, body: responseBody } = typeof answer === 'function' ? answer(body) : answer;
      return respond({ status, body: responseBody ?? {} });
    }),
  );
  return calls;
}

/**
 * Renders a screen at `url` (matched by `path`) inside a router and the snackbars, and with `auth` inside the
 * real AuthProvider of workspace "acme".
 */
export function renderScreen(
  screen: ReactNode,
  { url, path = '*', auth = true }: { url: string; path?: string; auth?: boolean },
) {
  const routes = (
    <Routes>
      <Route path={path} element={screen} />
      <Route path="/login" element={<p>Login screen</p>} />
    </Routes>
  );
  return render(
    <SnackbarProvider>
      <MemoryRouter initialEntries={[url]}>
        {auth ? <AuthProvider domain="acme">{routes}</AuthProvider> : routes}
        <LocationProbe />
      </MemoryRouter>
    </SnackbarProvider>,
  );
}
