import 'primereact/resources/themes/lara-light-indigo/theme.css';
import 'primereact/resources/primereact.min.css';
import 'primeicons/primeicons.css';
import 'primeflex/primeflex.min.css';
import './styles.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { PrimeReactProvider } from 'primereact/api';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { appKindOf } from '../domain/hosts.js';
import { FullPageSpinner } from './components/status-screens.js';
import { readAppConfig } from './config.js';
import { UpdatePrompt } from './pwa/update-prompt.js';
import { startSession } from './session/auth-context.js';
import { SnackbarProvider } from './components/snackbars.js';
import { preloadScreen, WorkspaceApp } from './workspace-app.js';

const config = readAppConfig();
// At start-up the product chooses between the root application and the workspace application by host.
const kind = appKindOf(window.location.hostname, config.baseDomain, config.signupHost);
// The session's first requests and the current screen's code start now, not once React has rendered.
if (kind.kind === 'workspace') {
  startSession(kind.workspace);
  preloadScreen(window.location.pathname, kind.workspace);
}
// Only the root and sign-up hosts show these: a workspace's pages do without their code.
const RootApp = lazy(() => import('./root-app.js').then((module) => ({ default: module.RootApp })));
const SignupApp = lazy(() => import('./root-app.js').then((module) => ({ default: module.SignupApp })));
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* PrimeReact's overlays (menus, panels) read their settings from this context: without it they throw on resize. */}
    <PrimeReactProvider>
      <QueryClientProvider client={queryClient}>
        <SnackbarProvider>
          <BrowserRouter>
            {kind.kind === 'workspace' ? (
              <WorkspaceApp domain={kind.workspace} />
            ) : (
              <Suspense fallback={<FullPageSpinner />}>{kind.kind === 'signup' ? <SignupApp /> : <RootApp />}</Suspense>
            )}
          </BrowserRouter>
          <UpdatePrompt />
        </SnackbarProvider>
      </QueryClientProvider>
    </PrimeReactProvider>
  </StrictMode>,
);
