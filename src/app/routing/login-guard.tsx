import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAuth } from '../session/auth-context.js';
import { CONTACT_ADMIN, FullPageSpinner, MessageCard } from '../components/status-screens.js';
import { AUTH_REDIRECT_KEY, decideGuard } from './guard.js';

/** Spec section 2's guard, in order; `children` receives whether the workspace is suspended. */
export function LoginGuard({ children }: { children: (suspended: boolean) => ReactNode }) {
  const { state } = useAuth();
  const location = useLocation();
  const decision = decideGuard({
    workspacePending: state.workspacePending,
    tokenPending: state.tokenPending,
    workspaceNotFound: state.workspaceNotFound,
    workspace: state.workspace,
    hasToken: state.token !== null,
    role: state.user?.role ?? null,
    userRefused: state.userRefused,
    offlineUser: state.offline && state.username !== null,
    location: `${location.pathname}${location.search}`,
  });

  useEffect(() => {
    if (decision.kind === 'login') localStorage.setItem(AUTH_REDIRECT_KEY, decision.redirect);
    if (decision.kind === 'external') window.location.assign(decision.url);
  }, [decision]);

  switch (decision.kind) {
    case 'spinner':
    case 'external':
      return <FullPageSpinner />;
    case 'workspace-not-found':
      return <MessageCard title="Workspace Not Found" icon="pi-question-circle" />;
    case 'workspace-inactive':
      return (
        <MessageCard title="Workspace Inactive" icon="pi-lock">
          {CONTACT_ADMIN}
        </MessageCard>
      );
    case 'workspace-suspended':
      return (
        <MessageCard title="Workspace Suspended" icon="pi-ban">
          {CONTACT_ADMIN}
        </MessageCard>
      );
    case 'login':
      return <Navigate to="/login" replace />;
    case 'app':
      return <>{children(decision.suspended)}</>;
  }
}
