import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { AuthProvider, useAuth } from './auth/auth-context.js';
import { FullPageSpinner, NotFound, Spinner } from './components/status-screens.js';
import { LocalProvider } from './local/local-provider.js';
import { LoginGuard } from './routing/login-guard.js';
import { Shell } from './shell/shell.js';

const LoginScreen = lazy(() => import('./auth/login-screen.js'));
const RegisterScreen = lazy(() => import('./auth/register-screen.js'));
const ForgotPasswordScreen = lazy(() => import('./auth/forgot-password-screen.js'));
const ResetPasswordScreen = lazy(() => import('./auth/reset-password-screen.js'));
const AcceptInviteScreen = lazy(() => import('./auth/accept-invite-screen.js'));
const HomeScreen = lazy(() => import('./home/home-screen.js'));
const UsersScreen = lazy(() => import('./users/users-screen.js'));
const InviteUserScreen = lazy(() => import('./users/invite-user-screen.js'));
const ProfileScreen = lazy(() => import('./users/profile-screen.js'));
const ServicesScreen = lazy(() => import('./services/services-screen.js'));
const CreateServiceScreen = lazy(() => import('./services/create-service-screen.js'));
const ServiceScreen = lazy(() => import('./services/service-screen.js'));
const TeamsScreen = lazy(() => import('./teams/teams-screen.js'));
const CreateTeamScreen = lazy(() => import('./teams/create-team-screen.js'));
const TeamScreen = lazy(() => import('./teams/team-screen.js'));

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
    <AuthProvider domain={domain}>
      <LocalProvider>
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
