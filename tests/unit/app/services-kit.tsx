import 'fake-indexeddb/auto';
import type { ReactNode } from 'react';
import { Route } from 'react-router-dom';
import { vi } from 'vitest';
import type { Service, Team } from '../../../src/contract/catalogue.js';
import HomeScreen from '../../../src/app/home/home-screen.js';
import { LocalProvider } from '../../../src/app/local/local-provider.js';
import { localCode } from './local-code.js';
import CreateServiceScreen from '../../../src/app/services/create-service-screen.js';
import ServiceScreen from '../../../src/app/service-page.js';
import ServicesScreen from '../../../src/app/services/services-screen.js';
import { BreadcrumbBar, BreadcrumbProvider } from '../../../src/app/shell/breadcrumb.js';
import { deleteLocalDb, openLocalDb, type LocalDb } from '../../../src/local/db.js';
import { makeService as baseService, makeTeam as baseTeam, renderSignedIn } from './app-kit.js';

export { makeUser, page, stubApi, violations, type Answer, type Call, type Handler } from './app-kit.js';

/** A team the signed-in user administers (the catalogue screens' usual case). */
export function makeTeam(handle: string, overrides: Partial<Team> = {}): Team {
  return baseTeam(handle, {
    is_admin: true,
    is_member: true,
    can_create_services: true,
    member_count: 1,
    ...overrides,
  });
}

/** A service in development; ids as `svc-{handle}`. */
export function makeService(handle: string, overrides: Partial<Service> = {}): Service {
  return baseService(handle, { id: `svc-${handle}`, stage: 'development', ...overrides });
}

/** The local database the app opens for the signed-in user "mia" of workspace "acme". */
export function localDb(): LocalDb {
  return openLocalDb('acme', 'mia');
}

export async function resetLocalDb(): Promise<void> {
  await deleteLocalDb('acme', 'mia');
}

/** Makes `navigator.onLine` answer `online` (the outbox sync skips its replays while offline). */
export function setOnline(online: boolean): void {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
}

/** Makes the matching calls fail without an answer, as fetch does offline. */
export function failNetworkFor(match: (method: string, path: string) => boolean): void {
  const inner = globalThis.fetch;
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit = {}) => {
      const path = new URL(input, 'http://acme.localhost').pathname;
      if (match(init.method ?? 'GET', path)) return Promise.reject(new TypeError('Failed to fetch'));
      return inner(input, init);
    }),
  );
}

/**
 * Renders the catalogue routes at `url` the way the app does: the real AuthProvider of workspace "acme", the
 * real LocalProvider (Dexie on fake-indexeddb, the query client, the outbox sync), snackbars and breadcrumb.
 * `extra` is shown at /extra (e.g. a single card).
 */
export function renderApp(url: string, { extra, aside }: { extra?: ReactNode; aside?: ReactNode } = {}) {
  return renderSignedIn(
    url,
    <>
      <Route path="/" element={<HomeScreen />} />
      <Route path="/services" element={<ServicesScreen />} />
      <Route path="/services/new" element={<CreateServiceScreen />} />
      <Route path="/teams/:id/services/new" element={<CreateServiceScreen />} />
      <Route path="/services/:id/*" element={<ServiceScreen />} />
      <Route path="/extra" element={extra ?? null} />
    </>,
    (screens) => (
      <LocalProvider code={localCode}>
        <BreadcrumbProvider>
          {aside}
          <BreadcrumbBar />
          {screens}
        </BreadcrumbProvider>
      </LocalProvider>
    ),
  );
}
