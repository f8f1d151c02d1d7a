import 'fake-indexeddb/auto';
import { Route } from 'react-router-dom';
import { LocalProvider } from '../../../src/app/local/local-provider.js';
import ProfileScreen from '../../../src/app/users/profile-screen.js';
import UsersScreen from '../../../src/app/users/users-screen.js';
import { localCode } from './local-code.js';
import { deleteLocalDb } from '../../../src/local/db.js';
import { renderSignedIn } from './app-kit.js';

export { makeUser, page, stubApi, violations, type Answer, type Call, type Handler } from './app-kit.js';

/** Drops the local database of "mia" of workspace "acme" (what one test saw must not show in the next). */
export async function resetLocalDb(): Promise<void> {
  await deleteLocalDb('acme', 'mia');
}

/**
 * Renders the users routes at `url` with the real AuthProvider of workspace "acme" and the real LocalProvider
 * (its query client, Dexie on fake-indexeddb, the outbox the mutes go through).
 */
export function renderUsers(url: string) {
  return renderSignedIn(
    url,
    <>
      <Route path="/users" element={<UsersScreen />} />
      <Route path="/users/:id/*" element={<ProfileScreen />} />
    </>,
    (screens) => <LocalProvider code={localCode}>{screens}</LocalProvider>,
  );
}
