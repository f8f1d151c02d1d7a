import { QueryClientProvider } from '@tanstack/react-query';
import { Route } from 'react-router-dom';
import { createQueryClient } from '../../../src/app/api/query-client.js';
import type { Member } from '../../../src/contract/catalogue.js';
import type { User } from '../../../src/contract/accounts.js';
import { BreadcrumbBar, BreadcrumbProvider } from '../../../src/app/shell/breadcrumb.js';
import CreateTeamScreen from '../../../src/app/teams/create-team-screen.js';
import TeamScreen from '../../../src/app/teams/team-screen.js';
import TeamsScreen from '../../../src/app/teams/teams-screen.js';
import { renderSignedIn } from './app-kit.js';

export {
  makeService,
  makeTeam,
  makeUser,
  page,
  stubApi,
  violations,
  type Answer,
  type Call,
  type Handler,
} from './app-kit.js';

export function makeMember(user: User, role: Member['role'] = 'member'): Member {
  const { id, handle, name, thumbnail_url, description } = user;
  return { user: { id, handle, name, thumbnail_url, description }, role };
}

/** Renders the teams routes (as the lead wires them) at `url`, with the breadcrumb bar and the real AuthProvider. */
export function renderTeams(url: string) {
  const client = createQueryClient();
  const result = renderSignedIn(
    url,
    <>
      <Route path="/teams" element={<TeamsScreen />} />
      <Route path="/teams/new" element={<CreateTeamScreen />} />
      <Route path="/teams/:id/teams/new" element={<CreateTeamScreen />} />
      <Route path="/teams/:id/services/new" element={<p>Create Service screen</p>} />
      <Route path="/teams/:id/*" element={<TeamScreen />} />
    </>,
    (screens) => (
      <QueryClientProvider client={client}>
        <BreadcrumbProvider>
          <BreadcrumbBar />
          {screens}
        </BreadcrumbProvider>
      </QueryClientProvider>
    ),
  );
  return { ...result, client };
}
