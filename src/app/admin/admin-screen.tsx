import { Route, Routes } from 'react-router-dom';
import { isAdminRole } from '../../domain/roles.js';
import { NotFound } from '../components/status-screens.js';
import { useAuth } from '../session/auth-context.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { AlertChannelsCard, AlertChannelScreen, AlertChannelsScreen } from '../alerts/index.js';
import { ExportWorkspacePagesCard } from '../pages/index.js';
import { ScorecardEditorScreen, ScorecardsCard } from '../scorecards/index.js';
import { CatalogCard, CatalogScreen } from './catalog-screen.js';
import { SlackWorkspacesCard, SsoProvidersCard } from './integration-cards.js';
import { RemoteWorkspacesCard } from './remote-workspaces-card.js';
import { SsoProviderScreen } from './sso-provider-screen.js';
import { StatusPageScreen, StatusPagesCard, StatusPagesScreen } from './status-pages-screen.js';

/**
 * The /admin overview's cards (spec/platform.md "Admin area"; status pages, docs/decisions.md#status-pages; alert
 * channels, docs/api.md "Alert channels").
 */
function AdminOverview() {
  useBreadcrumb({ name: 'Admin' });
  return (
    <div className="flex flex-column gap-3">
      <h1 className="text-2xl font-semibold m-0">Admin</h1>
      <div className="grid">
        <div className="col-12 lg:col-6">
          <SlackWorkspacesCard />
        </div>
        <div className="col-12 lg:col-6">
          <SsoProvidersCard />
        </div>
        <div className="col-12 lg:col-6">
          <RemoteWorkspacesCard />
        </div>
        <div className="col-12 lg:col-6">
          <ExportWorkspacePagesCard />
        </div>
        <div className="col-12 lg:col-6">
          <StatusPagesCard />
        </div>
        <div className="col-12 lg:col-6">
          <ScorecardsCard />
        </div>
        <div className="col-12 lg:col-6">
          <AlertChannelsCard />
        </div>
        <div className="col-12 lg:col-6">
          <CatalogCard />
        </div>
      </div>
    </div>
  );
}

/**
 * The admin area (spec/platform.md "Admin area"): owners and admins only; anyone else, and any path under
 * /admin not built yet, sees the not-found view.
 */
export default function AdminScreen() {
  const { state } = useAuth();
  if (!isAdminRole(state.user?.role ?? 'guest')) return <NotFound />;
  return (
    <Routes>
      <Route index element={<AdminOverview />} />
      <Route path="sso-providers/new" element={<SsoProviderScreen />} />
      <Route path="sso-providers/:handle" element={<SsoProviderScreen />} />
      <Route path="status-pages" element={<StatusPagesScreen />} />
      <Route path="status-pages/new" element={<StatusPageScreen />} />
      <Route path="status-pages/:page" element={<StatusPageScreen />} />
      <Route path="scorecards/new" element={<ScorecardEditorScreen />} />
      <Route path="scorecards/:handle" element={<ScorecardEditorScreen />} />
      <Route path="catalog" element={<CatalogScreen />} />
      <Route path="alert-channels" element={<AlertChannelsScreen />} />
      <Route path="alert-channels/new" element={<AlertChannelScreen />} />
      <Route path="alert-channels/:id" element={<AlertChannelScreen />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
