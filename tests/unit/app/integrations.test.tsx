// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render as renderRaw, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SsoProvider } from '../../../src/contract/sso.js';
import type { ServiceChannel } from '../../../src/contract/slack.js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import AdminScreen from '../../../src/app/admin/admin-screen.js';
import LoginScreen from '../../../src/app/auth/login-screen.js';
import { AuthProvider } from '../../../src/app/session/auth-context.js';
import { SLACK_STATE_KEY } from '../../../src/app/admin/integrations-api.js';
import SlackWorkspaceCallback, {
  SLACK_LINKED,
  SLACK_STATE_MISMATCH,
} from '../../../src/app/admin/slack-workspace-callback.js';
import { CallbackScreen, type CallbackOutcome } from '../../../src/app/components/callback-screen.js';
import { LocalProvider } from '../../../src/app/local/local-provider.js';
import { ServiceChannels } from '../../../src/app/services/service-channels.js';
import { BreadcrumbBar, BreadcrumbProvider } from '../../../src/app/shell/breadcrumb.js';
import { SnackbarProvider } from '../../../src/app/components/snackbars.js';
import ConnectSlackCallback from '../../../src/app/users/connect-slack-callback.js';
import { localCode } from './local-code.js';
import { deleteLocalDb } from '../../../src/local/db.js';
import { makeService, makeUser, renderSignedIn, stubApi, violations, type Call, type Handler } from './app-kit.js';

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  await deleteLocalDb('acme', 'mia');
});

const admin = makeUser('mia', { role: 'admin' });

function render(url: string, routes: React.ReactNode) {
  return renderSignedIn(url, routes, (screens) => (
    <LocalProvider code={localCode}>
      <BreadcrumbProvider>
        <BreadcrumbBar />
        {screens}
      </BreadcrumbProvider>
    </LocalProvider>
  ));
}

const SP_CERT = '-----BEGIN CERTIFICATE-----\nMIIBsp\n-----END CERTIFICATE-----\n';

function provider(overrides: Partial<SsoProvider> = {}): SsoProvider {
  return {
    handle: 'okta',
    name: 'Okta',
    is_default: true,
    sso_enabled: true,
    slo_enabled: false,
    idp: { sso_url: 'https://idp.test/sso', slo_url: null, entity_id: 'https://idp.test', has_x509: true },
    sp: {
      acs_url: 'http://acme.localhost/api/sso/okta/acs',
      entity_id: 'http://acme.localhost/api/sso/okta',
      cert: SP_CERT,
    },
    thumbnail: null,
    login_url: 'http://acme.localhost/api/sso/okta/login',
    logout_url: 'http://acme.localhost/api/sso/okta/slo',
    ...overrides,
  };
}

/** A server holding SSO providers. */
function ssoApi(providers: SsoProvider[] = [], fail = false) {
  const server = new Map(providers.map((p) => [p.handle, p]));
  const handler: Handler = (call) => {
    if (call.path === '/api/sso-providers' && call.method === 'GET') return { status: 200, body: [...server.values()] };
    if (call.path === '/api/sso-providers' && call.method === 'POST') {
      if (fail) return { status: 409, body: { message: 'Taken' } };
      const body = call.body as { handle: string; name: string; is_default: boolean; sso_enabled: boolean };
      const created = provider({ ...body, idp: { sso_url: null, slo_url: null, entity_id: null, has_x509: false } });
      server.set(created.handle, created);
      return { status: 201, body: created };
    }
    const one = /^\/api\/sso-providers\/([^/]+)$/.exec(call.path);
    if (one) {
      const found = server.get(decodeURIComponent(one[1]!));
      if (!found) return { status: 404, body: { message: 'Not Found' } };
      if (call.method === 'GET') return { status: 200, body: found };
      if (call.method === 'PATCH') {
        if (fail) return { status: 400, body: { message: 'Bad' } };
        const body = call.body as Partial<SsoProvider> & { idp?: Record<string, unknown> };
        const next = {
          ...found,
          ...body,
          idp: body.idp ? { ...found.idp, ...body.idp, has_x509: found.idp.has_x509 || 'x509' in body.idp } : found.idp,
        } as SsoProvider;
        delete (next.idp as Record<string, unknown>).x509;
        server.set(found.handle, next);
        return { status: 200, body: next };
      }
    }
    return undefined;
  };
  return { calls: stubApi(admin, { handler }), server };
}

const card = (title: string) => screen.getByRole('heading', { name: title }).closest('.p-card') as HTMLElement;
const group = (title: string) => screen.getByRole('group', { name: title }) as HTMLFieldSetElement;
const adminRoutes = <Route path="/admin/*" element={<AdminScreen />} />;

describe('SSO provider page', () => {
  it('creates a provider: only General Settings is open, Create shows once valid, then the page is the new one', async () => {
    const { calls } = ssoApi();
    render('/admin/sso-providers/new', adminRoutes);
    const handle = (await screen.findByLabelText('Handle')) as HTMLInputElement;
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'General Settings',
      'SAML Settings',
      'Identity Provider Settings',
      'Authentication Settings',
    ]);
    expect(within(await screen.findByRole('navigation', { name: 'Breadcrumb' })).getByText('Admin')).toBeTruthy();
    expect(group('General Settings').disabled).toBe(false);
    for (const title of ['SAML Settings', 'Identity Provider Settings', 'Authentication Settings']) {
      expect(group(title).disabled).toBe(true);
    }
    const create = () => within(card('General Settings')).getByRole('button', { name: 'Create' }) as HTMLButtonElement;
    expect(create().disabled).toBe(true);
    // Typing keeps lower-case letters, digits and hyphens; a trailing hyphen is still not a handle.
    fireEvent.change(handle, { target: { value: 'Okta!-' } });
    expect(handle.value).toBe('okta-');
    expect(screen.getByText('Lower-case letters, digits and single hyphens')).toBeTruthy();
    fireEvent.change(handle, { target: { value: 'okta' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Okta' } });
    expect(handle.value).toBe('okta');
    expect(create().disabled).toBe(false);
    expect(await violations()).toEqual([]);
    fireEvent.click(create());

    expect(await screen.findByText('SSO Provider was created')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/admin/sso-providers/okta'));
    expect(calls.find((call) => call.method === 'POST' && call.path !== '/api/token')?.body).toEqual({
      handle: 'okta',
      name: 'Okta',
      is_default: false,
      sso_enabled: true,
    });
    // Created: the handle is locked, the other cards open, nothing to save.
    await waitFor(() => expect((screen.getByLabelText('Handle') as HTMLInputElement).disabled).toBe(true));
    expect(group('SAML Settings').disabled).toBe(false);
    expect(screen.queryByRole('button', { name: /^(Save|Create)$/ })).toBeNull();
  });

  it('fills the handle from the name while the handle is empty, and stops once the user edits the handle', async () => {
    const { calls } = ssoApi();
    render('/admin/sso-providers/new', adminRoutes);
    const handle = (await screen.findByLabelText('Handle')) as HTMLInputElement;
    const name = screen.getByLabelText('Name') as HTMLInputElement;
    fireEvent.change(name, { target: { value: 'Okta Workforce' } });
    expect(handle.value).toBe('okta-workforce');
    fireEvent.change(name, { target: { value: 'Okta  Workforce (EU)' } });
    expect(handle.value).toBe('okta-workforce-eu');

    // Edited, the handle is the user's: the name no longer changes it.
    fireEvent.change(handle, { target: { value: 'okta-eu' } });
    fireEvent.change(name, { target: { value: 'Okta Europe' } });
    expect(handle.value).toBe('okta-eu');

    // Emptied by the user, it follows the name again from the name's next change.
    fireEvent.change(handle, { target: { value: '' } });
    expect(handle.value).toBe('');
    fireEvent.change(name, { target: { value: 'Okta Europe 2' } });
    expect(handle.value).toBe('okta-europe-2');

    fireEvent.click(within(card('General Settings')).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('SSO Provider was created')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST' && call.path === '/api/sso-providers')?.body).toMatchObject({
      handle: 'okta-europe-2',
      name: 'Okta Europe 2',
    });
  });

  it('edits a provider: Save only when dirty, no handle sent, the certificate behind Update Certificate merged into idp', async () => {
    const { calls } = ssoApi([provider()]);
    render('/admin/sso-providers/okta', adminRoutes);
    const name = (await screen.findByLabelText('Name')) as HTMLInputElement;
    expect(name.value).toBe('Okta');
    expect((screen.getByLabelText('Handle') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('ACS URL') as HTMLInputElement).value).toBe('http://acme.localhost/api/sso/okta/acs');
    // The service provider's signing certificate, to give the identity provider.
    expect((screen.getByLabelText('Signing certificate') as HTMLTextAreaElement).value).toBe(SP_CERT);
    expect((screen.getByLabelText('Login URL') as HTMLInputElement).value).toBe(
      'http://acme.localhost/api/sso/okta/login',
    );
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();

    fireEvent.change(name, { target: { value: 'Okta SSO' } });
    fireEvent.click(within(card('General Settings')).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('SSO Provider was updated')).toBeTruthy();
    const patch = calls.filter((call) => call.method === 'PATCH');
    expect(patch[0]?.body).toEqual({ name: 'Okta SSO', is_default: true, sso_enabled: true });

    // The certificate field hides behind Update Certificate while one exists.
    const idp = card('Identity Provider Settings');
    expect(within(idp).queryByLabelText('Certificate')).toBeNull();
    fireEvent.click(within(idp).getByRole('button', { name: 'Update Certificate' }));
    fireEvent.change(within(idp).getByLabelText('Certificate'), { target: { value: 'MIIC-cert' } });
    fireEvent.change(within(idp).getByLabelText('SLO URL'), { target: { value: 'not a url' } });
    expect(within(idp).getByText('Not a valid URL')).toBeTruthy();
    expect((within(idp).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(idp).getByLabelText('SLO URL'), { target: { value: 'https://idp.test/slo' } });
    fireEvent.click(within(idp).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'PATCH')).toHaveLength(2));
    expect(calls.filter((call) => call.method === 'PATCH')[1]?.body).toEqual({
      idp: {
        sso_url: 'https://idp.test/sso',
        slo_url: 'https://idp.test/slo',
        entity_id: 'https://idp.test',
        x509: 'MIIC-cert',
      },
    });
    await waitFor(() =>
      expect(within(card('Identity Provider Settings')).queryByRole('button', { name: 'Save' })).toBeNull(),
    );
    expect(await violations()).toEqual([]);
  });

  it("says 'There was an error while updating your SSO Provider' when a save fails, and keeps the draft", async () => {
    ssoApi([provider()], true);
    render('/admin/sso-providers/okta', adminRoutes);
    fireEvent.click(await screen.findByLabelText('Single logout enabled'));
    fireEvent.click(within(card('SAML Settings')).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('There was an error while updating your SSO Provider')).toBeTruthy();
    expect(within(card('SAML Settings')).getByRole('button', { name: 'Save' })).toBeTruthy();
  });

  it('lists providers on /admin, each linking to its page', async () => {
    ssoApi([provider()]);
    render('/admin', adminRoutes);
    const list = await screen.findByRole('list', { name: 'SSO providers' });
    expect(within(list).getByRole('link', { name: 'Okta' }).getAttribute('href')).toBe('/admin/sso-providers/okta');
  });
});

describe('Slack workspaces', () => {
  const configured = {
    configured: true,
    install_url: 'https://slack.test/oauth/v2/authorize?client_id=c&scope=chat%3Awrite',
    connect_url: 'https://slack.test/oauth/v2/authorize?client_id=c&user_scope=identity.basic',
  };

  function slackApi(linked: Array<{ id: string; team: string; user: string }> = []) {
    const handler: Handler = (call) => {
      if (call.path === '/api/slack/settings') return { status: 200, body: configured };
      if (call.path === '/api/slack-workspaces' && call.method === 'GET') return { status: 200, body: linked };
      if (call.path === '/api/slack-workspaces' && call.method === 'POST') {
        return { status: 201, body: { id: 's1', team: 'Acme Slack', user: 'mia' } };
      }
      if (call.path === '/api/sso-providers') return { status: 200, body: [] };
      if (call.path === '/api/remotes') return { status: 200, body: [] };
      return undefined;
    };
    return stubApi(admin, { handler });
  }

  it('lists team and user, and the add link carries a random state kept for the return', async () => {
    slackApi([{ id: 's1', team: 'Acme Slack', user: 'Mia' }]);
    render('/admin', adminRoutes);
    const list = await screen.findByRole('list', { name: 'Slack workspaces' });
    expect(list.textContent).toContain('Acme Slack');
    expect(list.textContent).toContain('Mia');
    const add = (await screen.findByRole('link', { name: 'Add to Slack' })) as HTMLAnchorElement;
    add.addEventListener('click', (event) => event.preventDefault());
    fireEvent.click(add);
    const state = new URL(add.href).searchParams.get('state');
    expect(state).toMatch(/^[0-9a-f]{32}$/);
    expect(sessionStorage.getItem(SLACK_STATE_KEY)).toBe(state);
  });

  const callbackRoutes = (
    <>
      <Route path="/callbacks/slack-workspaces" element={<SlackWorkspaceCallback />} />
      <Route path="/admin" element={<p>Admin overview</p>} />
    </>
  );

  it('posts the code when the state matches, then goes to /admin with a toast', async () => {
    const calls = slackApi();
    sessionStorage.setItem(SLACK_STATE_KEY, 'abc');
    render('/callbacks/slack-workspaces?code=code-1&state=abc', callbackRoutes);
    expect(await screen.findByText(SLACK_LINKED)).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/admin'));
    expect(calls.find((call: Call) => call.method === 'POST' && call.path === '/api/slack-workspaces')?.body).toEqual({
      token: 'code-1',
    });
    expect(sessionStorage.getItem(SLACK_STATE_KEY)).toBeNull();
  });

  it('refuses a return whose state is not the one sent, posting nothing', async () => {
    const calls = slackApi();
    sessionStorage.setItem(SLACK_STATE_KEY, 'abc');
    render('/callbacks/slack-workspaces?code=code-1&state=forged', callbackRoutes);
    expect(await screen.findByText(SLACK_STATE_MISMATCH)).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/admin'));
    expect(calls.some((call: Call) => call.method === 'POST' && call.path === '/api/slack-workspaces')).toBe(false);
  });
});

describe('chat connect', () => {
  const routes = (
    <>
      <Route path="/callbacks/connect-to-slack" element={<ConnectSlackCallback />} />
      <Route path="/" element={<p>Home</p>} />
    </>
  );

  it('shows in progress until the post is answered, then complete', async () => {
    let finish: (outcome: CallbackOutcome) => void = () => undefined;
    const run = () => new Promise<CallbackOutcome>((resolve) => (finish = resolve));
    renderRaw(
      <MemoryRouter initialEntries={['/callbacks/connect-to-slack?token=t']}>
        <SnackbarProvider>
          <Routes>
            <Route path="/callbacks/*" element={<CallbackScreen title="Connecting to Slack" run={run} to="/" />} />
            <Route path="/" element={<p>Home</p>} />
          </Routes>
        </SnackbarProvider>
      </MemoryRouter>,
    );
    expect(screen.getByText('In progress…')).toBeTruthy();
    expect(screen.getByRole('main').getAttribute('aria-busy')).toBe('true');
    finish({ ok: true, message: 'Connected to Slack successfully' });
    expect(await screen.findByText('Connected to Slack successfully')).toBeTruthy();
    expect(await screen.findByText('Home')).toBeTruthy();
  });

  it('posts the token for the signed-in user, then says so and goes home', async () => {
    const calls = stubApi(admin, {
      handler: (call) => (call.path === '/api/users/mia/actions/connect-to-slack' ? { status: 204 } : undefined),
    });
    render('/callbacks/connect-to-slack?token=code-9', routes);
    expect(await screen.findByText('Connected to Slack successfully')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(calls.find((call) => call.method === 'POST' && call.path !== '/api/token')?.body).toEqual({
      token: 'code-9',
    });
  });

  it("says 'There was an error while connecting to Slack' when refused (code read too)", async () => {
    const calls = stubApi(admin, {
      handler: (call) =>
        call.path === '/api/users/mia/actions/connect-to-slack' ? { status: 400, body: { message: 'bad' } } : undefined,
    });
    render('/callbacks/connect-to-slack?code=code-3', routes);
    expect(await screen.findByText('There was an error while connecting to Slack')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(calls.find((call) => call.method === 'POST' && call.path !== '/api/token')?.body).toEqual({
      token: 'code-3',
    });
  });
});

describe('Channels panel', () => {
  const service = makeService('payments');

  function channelsApi(initial: ServiceChannel[] = []) {
    let channels = [...initial];
    const handler: Handler = (call) => {
      if (call.path === '/api/services/payments/channels' && call.method === 'GET') {
        return { status: 200, body: channels };
      }
      if (call.path === '/api/services/payments/channels' && call.method === 'POST') {
        const { channel } = call.body as { channel: string };
        const created: ServiceChannel = { id: 'c1', provider: 'slack', slack_channel: { id: channel } };
        channels = [created];
        return { status: 201, body: created };
      }
      if (call.path === '/api/services/payments/channels/slack' && call.method === 'PATCH') {
        const { channel } = call.body as { channel: string };
        channels = [{ id: 'c1', provider: 'slack', slack_channel: { id: channel } }];
        return { status: 200, body: channels[0] };
      }
      if (call.path === '/api/services/payments/channels/slack' && call.method === 'DELETE') {
        channels = [];
        return { status: 204 };
      }
      return undefined;
    };
    return stubApi(admin, { handler });
  }

  const routes = <Route path="*" element={<ServiceChannels service={service} />} />;

  it("adds a channel: 'No Channels', the form validates on change, Save only when changed and valid", async () => {
    const calls = channelsApi();
    render('/services/payments/settings', routes);
    expect(await screen.findByText('No Channels')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add Channel' }));
    const input = screen.getByLabelText('Slack Channel ID');
    const save = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save().disabled).toBe(true);
    expect(screen.queryByText('Slack channel id is required')).toBeNull();
    fireEvent.change(input, { target: { value: 'bad id!' } });
    expect(screen.getByText('Not a Slack channel id')).toBeTruthy();
    fireEvent.change(input, { target: { value: '' } });
    expect(screen.getByText('Slack channel id is required')).toBeTruthy();
    expect(save().disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'C0123' } });
    expect(save().disabled).toBe(false);
    expect(await violations()).toEqual([]);
    fireEvent.click(save());
    expect(await screen.findByText('Service Channel Added')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST' && call.path !== '/api/token')?.body).toEqual({
      provider: 'slack',
      channel: 'C0123',
    });
    expect(await screen.findByText('#C0123')).toBeTruthy();
    expect(screen.getByText('Slack')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Channel' })).toBeNull();
  });

  it('edits and deletes the channel with their toasts', async () => {
    const calls = channelsApi([{ id: 'c1', provider: 'slack', slack_channel: { id: 'C0123' } }]);
    render('/services/payments/settings', routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit #C0123' }));
    const input = screen.getByLabelText('Slack Channel ID') as HTMLInputElement;
    expect(input.value).toBe('C0123');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'C999' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Service Channel Updated')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ channel: 'C999' });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete #C999' }));
    expect(await screen.findByText('Service Channel Removed')).toBeTruthy();
    expect(await screen.findByText('No Channels')).toBeTruthy();
  });

  it('shows a channel its catalogue file sets with where to change it, and no Edit or Delete', async () => {
    channelsApi([{ id: 'c1', provider: 'slack', slack_channel: { id: 'C0123' } }]);
    const managed = {
      ...service,
      managed_by: { source: 'repo', source_id: 's1', path: 'catalog-info.yaml', line: 4, settings: ['slack_channel'] },
    } as typeof service;
    render('/services/payments/settings', <Route path="*" element={<ServiceChannels service={managed} />} />);
    expect(await screen.findByText('#C0123')).toBeTruthy();
    expect(screen.getByText('Managed in repo')).toBeTruthy();
    expect(screen.getByText('catalog-info.yaml:4')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit #C0123' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete #C0123' })).toBeNull();
  });
});

describe('login screen with single sign-on', () => {
  function renderLogin(url: string, option: { name: string; login_url: string } | null) {
    const calls = stubApi(admin, {
      handler: (call) => {
        if (call.path === '/api/token') return { status: 401, body: { message: 'No session' } };
        if (call.path === '/api/sso/login-option') return { status: 200, body: option };
        return undefined;
      },
    });
    renderRaw(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={[url]}>
          <SnackbarProvider>
            <AuthProvider domain="acme">
              <Routes>
                <Route path="/login" element={<LoginScreen />} />
              </Routes>
            </AuthProvider>
          </SnackbarProvider>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    return calls;
  }

  it("offers 'Log in with {name}', going to its login URL with the stored post-login target", async () => {
    localStorage.setItem('auth_redirect', '/services/payments');
    renderLogin('/login', { name: 'Okta', login_url: 'http://acme.localhost/api/sso/okta/login' });
    const link = (await screen.findByRole('link', { name: 'Log in with Okta' })) as HTMLAnchorElement;
    const href = new URL(link.href);
    expect(`${href.origin}${href.pathname}`).toBe('http://acme.localhost/api/sso/okta/login');
    expect(href.searchParams.get('redirect')).toBe('/services/payments');
    expect(await violations()).toEqual([]);
    localStorage.clear();
  });

  it('offers no single sign-on without a provider, and shows the sso_error of a refused one', async () => {
    renderLogin('/login?sso_error=The%20SAML%20response%20was%20refused', null);
    expect(await screen.findByText('The SAML response was refused')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Log In' })).toBeTruthy());
    expect(screen.queryByRole('link', { name: /^Log in with/ })).toBeNull();
  });
});
