// @vitest-environment jsdom
import { CLIENT_SCOPES } from '../../../src/domain/scopes.js';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Client } from '../../../src/contract/clients.js';
import { SECRET_HINT } from '../../../src/app/teams/team-clients.js';
import { makeTeam, makeUser, page, renderTeams, stubApi, violations, type Answer, type Call } from './teams-kit.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me = makeUser('mia');
const core = makeTeam('core', { is_admin: true, is_member: true });

function makeClient(handle: string, overrides: Partial<Client> = {}): Client {
  return {
    id: `client-${handle}`,
    handle,
    name: handle.charAt(0).toUpperCase() + handle.slice(1),
    description: `The ${handle} client`,
    scopes: ['beacon.service.read'],
    client_id: `cid-${handle}`,
    team: { id: core.id, handle: 'core' },
    disabled_reason: null,
    created_at: '2024-03-05T09:30:00.000Z',
    updated_at: '2024-03-05T09:30:00.000Z',
    ...overrides,
  };
}

/** The settings screen's calls, with `clients` listed and `extra` answering first. */
function clientsApi(clients: () => Client[], extra?: (call: Call) => Answer | undefined) {
  return (call: Call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    if (call.method !== 'GET') return undefined;
    if (call.path === '/api/teams/core') return { status: 200, body: core };
    if (call.path === '/api/teams/core/clients') return { status: 200, body: clients() };
    if (call.path === '/api/teams/core/runners') return { status: 200, body: [] };
    if (call.path === '/api/teams/core/services' || call.path === '/api/teams/core/teams') return page([]);
    return undefined;
  };
}

const clientsCard = async () =>
  (await screen.findByRole('heading', { name: 'Clients' })).closest('.p-card') as HTMLElement;
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('team clients card', () => {
  it('lists the clients, or says there are none', async () => {
    stubApi(me, { handler: clientsApi(() => [makeClient('deployer'), makeClient('indexer')]) });
    renderTeams('/teams/core/settings');
    const card = await clientsCard();
    expect(await within(card).findByText('Deployer')).toBeTruthy();
    expect(within(card).getByText('The indexer client')).toBeTruthy();
    cleanup();

    stubApi(me, { handler: clientsApi(() => []) });
    renderTeams('/teams/core/settings');
    expect(await within(await clientsCard()).findByText('No Clients')).toBeTruthy();
  });

  it("creates a client: Save only when valid, 'Team Client Created', the secret once with Copy", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    let clients: Client[] = [];
    const created = makeClient('deploy-bot', {
      name: 'Deploy Bot',
      description: 'Deploys',
      scopes: ['beacon.service.read', 'beacon.runner.manage'],
    });
    const calls = stubApi(me, {
      handler: clientsApi(
        () => clients,
        (call) => {
          if (call.method === 'POST' && call.path === '/api/teams/core/clients') {
            clients = [created];
            return { status: 201, body: { ...created, client_secret: 's3cret-value' } };
          }
          return undefined;
        },
      ),
    });
    renderTeams('/teams/core/settings');
    await within(await clientsCard()).findByText('No Clients');
    fireEvent.click(button('Add'));

    const save = button('Save');
    expect(save.disabled).toBe(true);
    fireEvent.change(within(await clientsCard()).getByLabelText('Name'), { target: { value: 'Deploy Bot' } });
    fireEvent.change(within(await clientsCard()).getByLabelText('Name'), { target: { value: '' } });
    expect(screen.getByText('Name is required')).toBeTruthy();
    fireEvent.change(within(await clientsCard()).getByLabelText('Name'), { target: { value: 'Deploy Bot' } });
    fireEvent.change(within(await clientsCard()).getByLabelText('Description'), { target: { value: 'Deploys' } });
    expect(button('Save').disabled).toBe(true);
    // Every scope is offered.
    expect(screen.getAllByRole('checkbox')).toHaveLength(CLIENT_SCOPES.length);
    fireEvent.click(screen.getByLabelText('beacon.service.read'));
    fireEvent.click(screen.getByLabelText('beacon.runner.manage'));
    expect(button('Save').disabled).toBe(false);
    fireEvent.click(button('Save'));

    expect(await screen.findByText('Team Client Created')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST' && call.path === '/api/teams/core/clients')!.body).toEqual({
      name: 'Deploy Bot',
      description: 'Deploys',
      scopes: ['beacon.service.read', 'beacon.runner.manage'],
    });
    expect(await screen.findByText('s3cret-value')).toBeTruthy();
    expect(screen.getByText(SECRET_HINT)).toBeTruthy();
    expect(screen.getByText('cid-deploy-bot')).toBeTruthy();
    // While the secret shows there is no Generate New Secret; Save waits for a change.
    expect(screen.queryByRole('button', { name: 'Generate New Secret' })).toBeNull();
    expect(button('Save').disabled).toBe(true);

    fireEvent.click(button('Copy'));
    expect(writeText).toHaveBeenCalledWith('s3cret-value');
    expect(button('Copied')).toBeTruthy();
    await waitFor(() => expect(button('Copy')).toBeTruthy(), { timeout: 2000 });

    // Done goes back to the list, which now has the client; the secret is gone for good.
    fireEvent.click(button('Done'));
    expect(await within(await clientsCard()).findByText('Deploy Bot')).toBeTruthy();
    expect(screen.queryByText('s3cret-value')).toBeNull();
  });

  it("edits a client ('Team Client Updated') and generates a new secret ('Team Client Secret Updated')", async () => {
    const deployer = makeClient('deployer');
    const calls = stubApi(me, {
      handler: clientsApi(
        () => [deployer],
        (call) => {
          if (call.method === 'PATCH' && call.path === '/api/teams/core/clients/deployer') {
            return { status: 200, body: { ...deployer, ...(call.body as object) } };
          }
          if (call.method === 'POST' && call.path === '/api/teams/core/clients/deployer/actions/update-secret') {
            return { status: 200, body: { ...deployer, client_secret: 'n3w-secret' } };
          }
          return undefined;
        },
      ),
    });
    renderTeams('/teams/core/settings');
    await within(await clientsCard()).findByText('Deployer');
    fireEvent.click(screen.getByRole('button', { name: 'Edit Deployer' }));

    expect((within(await clientsCard()).getByLabelText('Name') as HTMLInputElement).value).toBe('Deployer');
    expect((screen.getByLabelText('beacon.service.read') as HTMLInputElement).checked).toBe(true);
    expect(button('Save').disabled).toBe(true);
    expect(await violations()).toEqual([]);
    fireEvent.click(screen.getByLabelText('beacon.service.read'));
    expect(screen.getByText('Pick at least one scope')).toBeTruthy();
    expect(button('Save').disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('beacon.team.read'));
    fireEvent.change(within(await clientsCard()).getByLabelText('Description'), {
      target: { value: 'Deploys everything' },
    });
    fireEvent.click(button('Save'));

    expect(await screen.findByText('Team Client Updated')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')!.body).toEqual({
      name: 'Deployer',
      description: 'Deploys everything',
      scopes: ['beacon.team.read'],
    });
    fireEvent.click(button('Generate New Secret'));
    expect(await screen.findByText('Team Client Secret Updated')).toBeTruthy();
    expect(await screen.findByText('n3w-secret')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Generate New Secret' })).toBeNull();
  });

  it("removes a client with 'Team Client Removed'", async () => {
    let clients = [makeClient('deployer')];
    const calls = stubApi(me, {
      handler: clientsApi(
        () => clients,
        (call) => {
          if (call.method === 'DELETE' && call.path === '/api/teams/core/clients/deployer') {
            clients = [];
            return { status: 204 };
          }
          return undefined;
        },
      ),
    });
    renderTeams('/teams/core/settings');
    await within(await clientsCard()).findByText('Deployer');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Deployer' }));
    expect(await screen.findByText('Team Client Removed')).toBeTruthy();
    expect(await within(await clientsCard()).findByText('No Clients')).toBeTruthy();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(true);
  });
});
