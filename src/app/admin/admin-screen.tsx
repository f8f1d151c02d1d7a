import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Route, Routes } from 'react-router-dom';
import { isAdminRole } from '../../domain/roles.js';
import { NotFound } from '../components/status-screens.js';
import { useAuth } from '../session/auth-context.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { RemoteWorkspacesCard } from './remote-workspaces-card.js';

function CardTitle({ children }: { children: string }) {
  return <h2 className="text-xl font-semibold m-0">{children}</h2>;
}

/** Says why a card offers nothing yet, and names the control it describes for assistive technology. */
function NotYet({ id, children }: { id: string; children: string }) {
  return (
    <p id={id} className="m-0 text-600 text-sm flex align-items-center gap-2">
      <i className="pi pi-info-circle" aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}

/** Slack workspace links come with the Slack integration (DESIGN.md 11); until then the list is empty. */
function SlackWorkspacesCard() {
  return (
    <Card className="h-full" title={<CardTitle>Slack Workspaces</CardTitle>}>
      <div className="flex flex-column gap-3">
        <p className="m-0 text-600">No Slack accounts configured for this account</p>
        <NotYet id="admin-slack-note">Linking Slack workspaces comes with the Slack integration.</NotYet>
      </div>
    </Card>
  );
}

/** SAML single sign-on comes later (DESIGN.md 11): no provider exists and none can be added yet. */
function SsoProvidersCard() {
  return (
    <Card className="h-full" title={<CardTitle>SSO Providers</CardTitle>}>
      <div className="flex flex-column gap-3">
        <p className="m-0 text-600">No Providers exist for this account</p>
        <div>
          <Button type="button" label="Add Provider" icon="pi pi-plus" disabled aria-describedby="admin-sso-note" />
        </div>
        <NotYet id="admin-sso-note">Single sign-on is not available yet.</NotYet>
      </div>
    </Card>
  );
}

/** The export of every service's pages comes with the pages (DESIGN.md 10). */
function ExportPagesCard() {
  return (
    <Card className="h-full" title={<CardTitle>Export Workspace Pages</CardTitle>}>
      <div className="flex flex-column gap-3">
        <p className="m-0 text-700">Download the published pages and drafts of every service as one zip file.</p>
        <div>
          <Button
            type="button"
            label="Export Pages"
            icon="pi pi-download"
            disabled
            aria-describedby="admin-export-note"
          />
        </div>
        <NotYet id="admin-export-note">Export becomes available with service pages.</NotYet>
      </div>
    </Card>
  );
}

/** The /admin overview's four cards (spec/platform.md "Admin area"). */
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
          <ExportPagesCard />
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
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
