import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Route } from 'react-router-dom';
import ProfileScreen from '../../../src/app/users/profile-screen.js';
import UsersScreen from '../../../src/app/users/users-screen.js';
import { renderSignedIn } from './app-kit.js';

export { makeUser, page, stubApi, violations, type Answer, type Call, type Handler } from './app-kit.js';

/** Renders the users routes at `url` with the real AuthProvider of workspace "acme". */
export function renderUsers(url: string) {
  const client = new QueryClient();
  const result = renderSignedIn(
    url,
    <>
      <Route path="/users" element={<UsersScreen />} />
      <Route path="/users/:id/*" element={<ProfileScreen />} />
    </>,
    (screens) => <QueryClientProvider client={client}>{screens}</QueryClientProvider>,
  );
  return { ...result, client };
}
