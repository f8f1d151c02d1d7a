import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, type ComponentType } from 'react';
import { matchRoutes, Navigate, Route, Routes } from 'react-router-dom';
import type { ApiClient } from './api/client.js';
import LoginScreen from './auth/login-screen.js';
import { AuthProvider, lastSeenHandle, useAuth } from './session/auth-context.js';
import { FullPageSpinner, NotFound, Spinner } from './components/status-screens.js';
import { LocalProvider, localCodeLoader } from './local/local-provider.js';
import { LoginGuard } from './routing/login-guard.js';

type Module<P> = { default: ComponentType<P> };

/**
 * React.lazy over `load`, with `preload` to start it early. Once the module is there, the component renders at
 * once: the factory then answers with a thenable that resolves synchronously, so React does not suspend (and
 * then hold the screen back by its 300 ms throttle on revealing suspended content).
 */
function preloadable<P extends object>(load: () => Promise<Module<P>>) {
  let loaded: Module<P> | undefined;
  const preload = () => load().then((module) => (loaded = module));
  const now = (module: Module<P>) => ({ then: (resolve: (value: Module<P>) => void) => resolve(module) });
  const Component = lazy(() => (loaded ? (now(loaded) as unknown as Promise<Module<P>>) : preload()));
  return { Component, preload };
}

/** Every screen's paths (those of the routes below) and code, for preloadScreen. */
const screens: Array<{ path: string; load: () => Promise<unknown>; inShell: boolean }> = [
  // The first screen of every signed-out visit is part of the entry: as a chunk of its own it cost a round trip
  // more, and nine small responses whose headers weighed most of its code. Nothing to load, outside the shell.
  { path: '/login', load: () => Promise.resolve(), inShell: false },
];

function screen<P extends object>(paths: string[], load: () => Promise<Module<P>>, inShell = true) {
  const { Component, preload } = preloadable(load);
  for (const path of paths) screens.push({ path, load: preload, inShell });
  return Component;
}

// The shell (with its notifications bell) is not needed by the sign-in screens, so /login does not download it;
// nor the local layer (Dexie, the outbox) and the write kinds, which only a signed-in user needs.
const localCode = localCodeLoader(() => import('./write-kinds.js').then((module) => module.WRITE_KINDS));
const shell = preloadable(() => import('./app-shell.js').then((module) => ({ default: module.AppShell })));
const Shell = shell.Component;
const RegisterScreen = screen(['/register'], () => import('./auth/register-screen.js'), false);
const ForgotPasswordScreen = screen(['/forgot-password'], () => import('./auth/forgot-password-screen.js'), false);
const ResetPasswordScreen = screen(['/reset-password'], () => import('./auth/reset-password-screen.js'), false);
const AcceptInviteScreen = screen(['/invite/:id'], () => import('./auth/accept-invite-screen.js'), false);
const HomeScreen = screen(['/'], () => import('./home/home-screen.js'));
const UsersScreen = screen(['/users'], () => import('./users/users-screen.js'));
const InviteUserScreen = screen(['/users/invite'], () => import('./users/invite-user-screen.js'));
const ProfileScreen = screen(['/users/:id/*'], () => import('./users/profile-screen.js'));
const ServicesScreen = screen(['/services'], () => import('./services/services-screen.js'));
const CreateServiceScreen = screen(
  ['/services/new', '/teams/:id/services/new'],
  () => import('./services/create-service-screen.js'),
);
const ServiceScreen = screen(['/services/:id/*'], () => import('./service-page.js'));
const TeamsScreen = screen(['/teams'], () => import('./teams/teams-screen.js'));
const CreateTeamScreen = screen(['/teams/new', '/teams/:id/teams/new'], () => import('./teams/create-team-screen.js'));
const TeamScreen = screen(['/teams/:id/*'], () => import('./teams/team-screen.js'));
const ScorecardsScreen = screen(['/scorecards'], () => import('./scorecards/scorecards-screen.js'));
const AlertsScreen = screen(['/alerts'], () => import('./alerts/alerts-screen.js'));
const AlertScreen = screen(['/alerts/:id'], () => import('./alerts/alert-screen.js'));
const ScorecardScreen = screen(['/scorecards/:handle'], () => import('./scorecards/scorecard-screen.js'));
const AdminScreen = screen(['/admin', '/admin/*'], () => import('./admin/admin-screen.js'));
const BillingScreen = screen(['/billing', '/billing/*'], () => import('./billing/billing-screen.js'));
const SlackWorkspaceCallback = screen(
  ['/callbacks/slack-workspaces'],
  () => import('./admin/slack-workspace-callback.js'),
  false,
);
const ConnectSlackCallback = screen(
  ['/callbacks/connect-to-slack'],
  () => import('./users/connect-slack-callback.js'),
  false,
);

/**
 * Starts downloading the code of the screen at `pathname` (and the shell and local layer around it) at once,
 * while the session is being resolved, rather than after it; React.lazy then finds the module loaded.
 */
export function preloadScreen(pathname: string, domain: string): void {
  const match = matchRoutes(screens, pathname)?.at(-1)?.route;
  if (match) void match.load();
  if (match?.inShell !== false) {
    void shell.preload();
    // The local database of the user last seen here opens while the session's token is asked for: the screen's
    // first query then reads what was last seen without waiting for IndexedDB to open (LocalProvider takes the
    // same instance; should another user sign in, theirs opens then).
    const handle = lastSeenHandle(domain);
    localCode
      .load()
      .then((code) => handle && code.layer.openLocalDb(domain, handle))
      .catch(() => undefined);
  }
}

/**
 * The data of the screen the app was opened on, asked for as soon as there is a token, while the screen's code
 * is still loading (its query then finds the answer under way), rather than once the screen has rendered. Only
 * the first screen, and only screens whose first query does not depend on the URL's query string.
 */
const screenData: Array<{ path: string; prefetch: (client: QueryClient, api: ApiClient) => Promise<unknown> }> = [
  {
    path: '/services',
    prefetch: (client, api) =>
      import('./services/service-api.js').then(({ firstServicesPage, getServicesSearchQueryOptions }) =>
        client.prefetchQuery(getServicesSearchQueryOptions(api, firstServicesPage())),
      ),
  },
];

let firstScreenPrefetched = false;

function prefetchFirstScreen(client: QueryClient, api: ApiClient): void {
  if (firstScreenPrefetched) return;
  firstScreenPrefetched = true;
  if (window.location.search) return;
  const match = matchRoutes(screenData, window.location.pathname)?.at(-1)?.route;
  if (match) void match.prefetch(client, api).catch(() => undefined);
}

/** /profile goes to the signed-in user's own profile. */
function OwnProfile() {
  const { state } = useAuth();
  return <Navigate to={`/users/${state.user?.handle ?? state.username ?? ''}`} replace />;
}

function MainArea() {
  return (
    <LoginGuard>
      {(suspended) => (
        <Routes>
          {/* Slack's OAuth redirects: full-screen, signed in, outside the shell. */}
          <Route path="/callbacks/slack-workspaces" element={<SlackWorkspaceCallback />} />
          <Route path="/callbacks/connect-to-slack" element={<ConnectSlackCallback />} />
          <Route element={<Shell suspended={suspended} />}>
            <Route
              path="*"
              element={
                <Suspense fallback={<Spinner />}>
                  <Routes>
                    <Route path="/" element={<HomeScreen />} />
                    <Route path="/profile" element={<OwnProfile />} />
                    <Route path="/users" element={<UsersScreen />} />
                    <Route path="/users/invite" element={<InviteUserScreen />} />
                    <Route path="/users/:id/*" element={<ProfileScreen />} />
                    <Route path="/services" element={<ServicesScreen />} />
                    <Route path="/services/new" element={<CreateServiceScreen />} />
                    <Route path="/services/:id/*" element={<ServiceScreen />} />
                    <Route path="/teams" element={<TeamsScreen />} />
                    <Route path="/teams/new" element={<CreateTeamScreen />} />
                    <Route path="/teams/:id/teams/new" element={<CreateTeamScreen />} />
                    <Route path="/teams/:id/services/new" element={<CreateServiceScreen />} />
                    <Route path="/teams/:id/*" element={<TeamScreen />} />
                    <Route path="/scorecards" element={<ScorecardsScreen />} />
                    <Route path="/scorecards/:handle" element={<ScorecardScreen />} />
                    <Route path="/alerts" element={<AlertsScreen />} />
                    <Route path="/alerts/:id" element={<AlertScreen />} />
                    <Route path="/admin/*" element={<AdminScreen />} />
                    <Route path="/billing/*" element={<BillingScreen />} />
                    <Route path="*" element={<NotFound />} />
                  </Routes>
                </Suspense>
              }
            />
          </Route>
        </Routes>
      )}
    </LoginGuard>
  );
}

/** The application of a workspace subdomain (spec/platform.md section 2). */
export function WorkspaceApp({ domain }: { domain: string }) {
  return (
    <AuthProvider domain={domain} prepareSignedIn={localCode.load}>
      <LocalProvider code={localCode} onSignedIn={prefetchFirstScreen}>
        <Suspense fallback={<FullPageSpinner />}>
          <Routes>
            <Route path="/register" element={<RegisterScreen />} />
            <Route path="/forgot-password" element={<ForgotPasswordScreen />} />
            <Route path="/login" element={<LoginScreen />} />
            <Route path="/invite/:id" element={<AcceptInviteScreen />} />
            <Route path="/reset-password" element={<ResetPasswordScreen />} />
            <Route path="*" element={<MainArea />} />
          </Routes>
        </Suspense>
      </LocalProvider>
    </AuthProvider>
  );
}
