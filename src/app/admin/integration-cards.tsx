import { useQuery } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { Link } from 'react-router-dom';
import { useApi } from '../session/use-api.js';
import { LinkButton } from '../components/link-button.js';
import { Spinner } from '../components/status-screens.js';
import {
  getSlackSettingsQueryOptions,
  getSlackWorkspacesQueryOptions,
  getSsoProvidersQueryOptions,
  slackInstallHref,
} from './integrations-api.js';

const title = (text: string) => <h2 className="text-xl font-semibold m-0">{text}</h2>;

function LoadFailed({ what }: { what: string }) {
  return (
    <p className="m-0 p-error" role="alert">
      {what} could not be loaded
    </p>
  );
}

/** The Slack Workspaces card: the linked Slack workspaces (team, and who linked it) and a link to add one. */
export function SlackWorkspacesCard() {
  const api = useApi();
  const settings = useQuery(getSlackSettingsQueryOptions(api));
  const list = useQuery(getSlackWorkspacesQueryOptions(api));
  const workspaces = list.data ?? [];
  return (
    <Card className="h-full" title={title('Slack Workspaces')}>
      <div className="flex flex-column gap-3">
        {list.isPending ? (
          <Spinner label="Loading Slack workspaces" />
        ) : list.data === undefined ? (
          <LoadFailed what="Slack workspaces" />
        ) : workspaces.length === 0 ? (
          <p className="m-0 text-600">No Slack accounts configured for this account</p>
        ) : (
          <ul className="list-none p-0 m-0" aria-label="Slack workspaces">
            {workspaces.map((workspace) => (
              <li key={workspace.id} className="flex align-items-center gap-2 py-2 border-bottom-1 surface-border">
                <i className="pi pi-slack text-600" aria-hidden="true" />
                <span className="flex-1 font-semibold overflow-hidden text-overflow-ellipsis">{workspace.team}</span>
                <span className="text-600 text-sm overflow-hidden text-overflow-ellipsis">{`Linked by ${workspace.user}`}</span>
              </li>
            ))}
          </ul>
        )}
        {settings.data?.configured && settings.data.install_url ? (
          <div>
            <a
              className="p-button p-component no-underline"
              href={settings.data.install_url}
              onClick={(event) => {
                event.currentTarget.href = slackInstallHref(settings.data.install_url!);
              }}
            >
              <span className="p-button-icon p-button-icon-left pi pi-plus" aria-hidden="true" />
              <span className="p-button-label">Add to Slack</span>
            </a>
          </div>
        ) : settings.data ? (
          <p className="m-0 text-600 text-sm flex align-items-center gap-2">
            <i className="pi pi-info-circle" aria-hidden="true" />
            <span>Slack is not configured on this server.</span>
          </p>
        ) : null}
      </div>
    </Card>
  );
}

/** The SSO Providers card: the SAML identity providers, each linking to its page, and Add Provider. */
export function SsoProvidersCard() {
  const api = useApi();
  const list = useQuery(getSsoProvidersQueryOptions(api));
  const providers = list.data ?? [];
  return (
    <Card className="h-full" title={title('SSO Providers')}>
      <div className="flex flex-column gap-3">
        {list.isPending ? (
          <Spinner label="Loading SSO providers" />
        ) : list.data === undefined ? (
          <LoadFailed what="SSO providers" />
        ) : providers.length === 0 ? (
          <p className="m-0 text-600">No Providers exist for this account</p>
        ) : (
          <ul className="list-none p-0 m-0" aria-label="SSO providers">
            {providers.map((provider) => (
              <li key={provider.handle} className="flex align-items-center gap-2 py-2 border-bottom-1 surface-border">
                <i className="pi pi-key text-600" aria-hidden="true" />
                <Link
                  to={`/admin/sso-providers/${encodeURIComponent(provider.handle)}`}
                  className="flex-1 font-semibold overflow-hidden text-overflow-ellipsis"
                >
                  {provider.name}
                </Link>
                {provider.is_default && <span className="text-600 text-sm">Default</span>}
                {!provider.sso_enabled && <span className="text-600 text-sm">Disabled</span>}
              </li>
            ))}
          </ul>
        )}
        <div>
          <LinkButton to="/admin/sso-providers/new" label="Add Provider" icon="pi pi-plus" />
        </div>
      </div>
    </Card>
  );
}
