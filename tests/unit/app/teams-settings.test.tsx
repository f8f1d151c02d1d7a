// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Team } from '../../../src/contract/catalogue.js';
import { makeTeam, makeUser, page, renderTeams, stubApi, type Answer, type Call } from './teams-kit.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me = makeUser('mia');
const core = makeTeam('core', { is_admin: true, is_member: true, description: 'Runs the core' });

/** The team, and the totals of its services and sub-teams. */
function settingsApi(
  team: Team,
  totals: { services: number; teams: number },
  extra?: (call: Call) => Answer | undefined,
) {
  return (call: Call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    if (call.method !== 'GET') return undefined;
    if (call.path === '/api/teams/core') return { status: 200, body: team };
    if (call.path === '/api/teams/core/services') return page([], totals.services);
    if (call.path === '/api/teams/core/teams') return page([], totals.teams);
    if (call.path === '/api/search/teams') return page([]);
    return undefined;
  };
}

const deleteButton = () => screen.getByRole('button', { name: 'Delete Team' }) as HTMLButtonElement;

describe('team settings', () => {
  it('shows the Team Logo, Name, Description and Delete Team cards with the breadcrumb Setting', async () => {
    stubApi(me, { handler: settingsApi(core, { services: 0, teams: 0 }) });
    renderTeams('/teams/core/settings');
    for (const name of ['Team Logo', 'Name', 'Description', 'Delete Team']) {
      expect(await screen.findByRole('heading', { name })).toBeTruthy();
    }
    expect(screen.getByText('The name of your team.')).toBeTruthy();
    expect(screen.getByText('A quick description of your team.')).toBeTruthy();
    expect((screen.getByLabelText('Description') as HTMLTextAreaElement).rows).toBe(4);
    expect(screen.getByText('Deleting a team is permanent and cannot be undone.')).toBeTruthy();
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('Setting')).toBeTruthy();
  });

  it('shows a managed team’s name and description with where to change them, and no delete button', async () => {
    const managed = {
      ...core,
      managed_by: { source: 'platform-repo', source_id: 's1', path: 'teams.yaml', line: 3, settings: [] },
    };
    stubApi(me, { handler: settingsApi(managed, { services: 0, teams: 0 }) });
    renderTeams('/teams/core/settings');
    expect(await screen.findByRole('heading', { name: 'Name and description' })).toBeTruthy();
    expect(screen.getAllByText('Managed in platform-repo').length).toBeGreaterThan(0);
    expect(screen.getAllByText('teams.yaml:3').length).toBeGreaterThan(0);
    expect(screen.queryByLabelText('Description')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Team' })).toBeNull();
    expect(screen.getByText('teams.yaml')).toBeTruthy();
  });

  it.each([
    { services: 2, teams: 0 },
    { services: 0, teams: 1 },
  ])('disables Delete Team with the spec text when the count is above 0 (%o)', async (totals) => {
    const calls = stubApi(me, { handler: settingsApi(core, totals) });
    renderTeams('/teams/core/settings');
    expect(await screen.findByText('You cannot delete a team with services or subteams.')).toBeTruthy();
    expect(deleteButton().disabled).toBe(true);
    const counts = calls.filter((call) => call.query.get('limit') === '1').map((call) => call.path);
    expect(counts.sort()).toEqual(['/api/teams/core/services', '/api/teams/core/teams']);
  });

  it("deletes an empty team after confirming, says 'Team Deleted' and goes to /teams", async () => {
    const calls = stubApi(me, {
      handler: settingsApi(core, { services: 0, teams: 0 }, (call) =>
        call.method === 'DELETE' && call.path === '/api/teams/core' ? { status: 204 } : undefined,
      ),
    });
    renderTeams('/teams/core/settings');
    await waitFor(() => expect(deleteButton().disabled).toBe(false));
    expect(screen.queryByText('You cannot delete a team with services or subteams.')).toBeNull();
    fireEvent.click(deleteButton());
    const dialog = await screen.findByRole('dialog', { name: 'Delete Team' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Team Deleted')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/teams'));
    expect(calls.some((call) => call.method === 'DELETE' && call.path === '/api/teams/core')).toBe(true);
  });

  it('says the spec error and stays when the delete is refused', async () => {
    stubApi(me, {
      handler: settingsApi(core, { services: 0, teams: 0 }, (call) =>
        call.method === 'DELETE' ? { status: 409, body: { message: 'Not empty' } } : undefined,
      ),
    });
    renderTeams('/teams/core/settings');
    await waitFor(() => expect(deleteButton().disabled).toBe(false));
    fireEvent.click(deleteButton());
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete Team' })).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('There was an error while deleted the team')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/teams/core/settings');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete Team' })).toBeNull());
  });

  it("shows Save only once a field changed and says 'Team Updated' after saving", async () => {
    const calls = stubApi(me, {
      handler: settingsApi(core, { services: 0, teams: 0 }, (call) =>
        call.method === 'PATCH' && call.path === '/api/teams/core'
          ? { status: 200, body: { ...core, name: 'Core Platform' } }
          : undefined,
      ),
    });
    renderTeams('/teams/core/settings');
    const name = (await screen.findByLabelText('Name')) as HTMLInputElement;
    expect(name.value).toBe('Core');
    expect(screen.queryByRole('button', { name: 'Save Name' })).toBeNull();

    fireEvent.change(name, { target: { value: '' } });
    expect((screen.getByRole('button', { name: 'Save Name' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(name, { target: { value: 'Core Platform' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Name' }));

    expect(await screen.findByText('Team Updated')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')!.body).toEqual({ name: 'Core Platform' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Core Platform' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save Name' })).toBeNull();
  });

  it('uploads a logo as the multipart field icon', async () => {
    const calls = stubApi(me, {
      handler: settingsApi(core, { services: 0, teams: 0 }, (call) =>
        call.method === 'POST' && call.path === '/api/teams/core/icon'
          ? { status: 200, body: { ...core, thumbnail_url: 'https://img.example/core.png' } }
          : undefined,
      ),
    });
    renderTeams('/teams/core/settings');
    await screen.findByRole('button', { name: 'Upload Logo' });
    const file = new File(['png'], 'logo.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText('Team logo image'), { target: { files: [file] } });

    expect(await screen.findByText('Team Updated')).toBeTruthy();
    const body = calls.find((call) => call.path === '/api/teams/core/icon')!.body as FormData;
    expect((body.get('icon') as File).name).toBe('logo.png');
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Clear Logo' }) as HTMLButtonElement).disabled).toBe(false),
    );
  });

  it('clears the description to null and clears the logo', async () => {
    const withLogo = { ...core, thumbnail_url: 'https://img.example/core.png' };
    const calls = stubApi(me, {
      handler: settingsApi(withLogo, { services: 0, teams: 0 }, (call) => {
        if (call.method === 'PATCH') return { status: 200, body: { ...withLogo, description: null } };
        if (call.method === 'DELETE' && call.path === '/api/teams/core/icon') {
          return { status: 200, body: { ...withLogo, thumbnail_url: null } };
        }
        return undefined;
      }),
    });
    renderTeams('/teams/core/settings');
    fireEvent.change(await screen.findByLabelText('Description'), { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Description' }));
    await waitFor(() => expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ description: null }));

    fireEvent.click(screen.getByRole('button', { name: 'Clear Logo' }));
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Clear Logo' }) as HTMLButtonElement).disabled).toBe(true),
    );
    expect(screen.getAllByText('Team Updated').length).toBeGreaterThan(0);
  });
});

describe('team policies', () => {
  async function pick(label: string, option: string) {
    fireEvent.click(screen.getByLabelText(label, { selector: 'input' }).closest('.p-dropdown')!);
    const listbox = await screen.findByRole('listbox', { hidden: true });
    fireEvent.click(within(listbox).getByRole('option', { name: option, hidden: true }));
  }

  it('shows the policies and saves each change at once with a toast', async () => {
    let policies = { default_visibility: 'workspace', members_create_services: false };
    const calls = stubApi(me, {
      handler: settingsApi(core, { services: 0, teams: 0 }, (call) => {
        if (call.path !== '/api/teams/core/policies') return undefined;
        if (call.method === 'PATCH') policies = { ...policies, ...(call.body as object) };
        return { status: 200, body: policies };
      }),
    });
    renderTeams('/teams/core/settings');
    expect(await screen.findByRole('heading', { name: 'Policies' })).toBeTruthy();
    await screen.findByLabelText('Default visibility', { selector: 'input' });

    await pick('Default visibility', 'Owner team');
    expect(await screen.findByText('Team Policies Updated')).toBeTruthy();
    await pick('Who can create services', 'Team admins and members');
    await waitFor(() => expect(policies).toEqual({ default_visibility: 'owner', members_create_services: true }));
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
      { default_visibility: 'owner' },
      { members_create_services: true },
    ]);
  });
});
