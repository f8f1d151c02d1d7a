// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Team } from '../../../src/contract/catalogue.js';
import type { Runner } from '../../../src/contract/clients.js';
import { lastSyncLabel } from '../../../src/app/teams/team-runners.js';
import { makeTeam, makeUser, page, renderTeams, stubApi, violations, type Answer, type Call } from './teams-kit.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me = makeUser('mia');
const core = makeTeam('core', { is_admin: true, is_member: true });

function makeRunner(handle: string, overrides: Partial<Runner> = {}): Runner {
  return {
    id: `runner-${handle}`,
    handle,
    name: handle.toUpperCase(),
    description: `Runner ${handle}`,
    sync_status: 'never',
    last_sync: null,
    team: { id: core.id, handle: 'core' },
    ...overrides,
  };
}

function runnersApi(team: Team, runners: () => Runner[], extra?: (call: Call) => Answer | undefined) {
  return (call: Call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    if (call.method !== 'GET') return undefined;
    if (call.path === '/api/teams/core') return { status: 200, body: team };
    if (call.path === '/api/teams/core/runners') return { status: 200, body: runners() };
    if (call.path === '/api/teams/core/clients') return { status: 200, body: [] };
    if (call.path === '/api/teams/core/services' || call.path === '/api/teams/core/teams') return page([]);
    return undefined;
  };
}

const table = async () => screen.findByRole('table', { name: 'Runners' });

async function openAction(name: string, item: string) {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  fireEvent.click(await screen.findByText(item));
}

describe('team runners', () => {
  it('the Runners page shows Name, Description, Handle, Status and Last Sync, breadcrumb Runners', async () => {
    const synced = '2024-03-05T09:30:00.000Z';
    stubApi(me, {
      handler: runnersApi(core, () => [
        makeRunner('dc-one', { sync_status: 'ok', last_sync: synced }),
        makeRunner('dc-two', { sync_status: 'error', last_sync: synced }),
        makeRunner('lab'),
      ]),
    });
    renderTeams('/teams/core/runners');
    const grid = await table();
    const headers = within(grid)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers.slice(0, 5)).toEqual(['Name', 'Description', 'Handle', 'Status', 'Last Sync']);
    const rows = within(grid).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('DC-ONE')).toBeTruthy();
    expect(within(rows[0]!).getByText('dc-one')).toBeTruthy();
    expect(within(rows[0]!).getByText('OK')).toBeTruthy();
    expect(within(rows[0]!).getByText(lastSyncLabel(synced))).toBeTruthy();
    expect(within(rows[1]!).getByText('Error')).toBeTruthy();
    expect(within(rows[2]!).getByText('Never synced')).toBeTruthy();
    expect(within(rows[2]!).getByText('-')).toBeTruthy();
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('Runners')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add Runner' })).toBeTruthy();
    expect(await violations()).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Add Runner' }));
    await screen.findByRole('dialog', { name: 'Add Runner' });
    expect(await violations()).toEqual([]);
  });

  it("says 'No Runners'; members who are not admins get no Add Runner and no actions", async () => {
    const member = makeTeam('core', { is_admin: false, is_member: true });
    stubApi(me, { handler: runnersApi(member, () => []) });
    renderTeams('/teams/core/runners');
    expect(await screen.findByText('No Runners')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Runner' })).toBeNull();
    cleanup();

    stubApi(me, { handler: runnersApi(member, () => [makeRunner('lab')]) });
    renderTeams('/teams/core/runners');
    await within(await table()).findByText('LAB');
    expect(screen.queryByRole('button', { name: 'Actions for LAB' })).toBeNull();
  });

  it("adds a runner in the 'Add Runner' dialog: 'Team Runner Created', then the dialog closes", async () => {
    let runners: Runner[] = [];
    const calls = stubApi(me, {
      handler: runnersApi(
        core,
        () => runners,
        (call) => {
          if (call.method === 'POST' && call.path === '/api/teams/core/runners') {
            runners = [makeRunner('dc-one', { name: 'DC One', description: 'First DC' })];
            return { status: 201, body: runners[0] };
          }
          return undefined;
        },
      ),
    });
    renderTeams('/teams/core/runners');
    await screen.findByText('No Runners');
    fireEvent.click(screen.getByRole('button', { name: 'Add Runner' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Runner' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('Name is required')).toBeTruthy();
    expect(within(dialog).getByText('Description is required')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'DC One' } });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'First DC' } });
    fireEvent.change(within(dialog).getByLabelText('Handle'), { target: { value: 'DC One' } });
    expect((within(dialog).getByLabelText('Handle') as HTMLInputElement).value).toBe('dcone');
    fireEvent.change(within(dialog).getByLabelText('Handle'), { target: { value: 'dc-one' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(await screen.findByText('Team Runner Created')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST' && call.path === '/api/teams/core/runners')!.body).toEqual({
      name: 'DC One',
      description: 'First DC',
      handle: 'dc-one',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Runner' })).toBeNull());
    expect(await within(await table()).findByText('DC One')).toBeTruthy();
  });

  it("edits a runner in the 'Edit Runner' dialog: 'Team Runner Updated'", async () => {
    let runners = [makeRunner('lab', { name: 'Lab', description: 'The lab' })];
    const calls = stubApi(me, {
      handler: runnersApi(
        core,
        () => runners,
        (call) => {
          if (call.method === 'PUT' && call.path === '/api/teams/core/runners/lab') {
            runners = [{ ...runners[0]!, ...(call.body as object) }];
            return { status: 200, body: runners[0] };
          }
          return undefined;
        },
      ),
    });
    renderTeams('/teams/core/runners');
    await within(await table()).findByText('Lab');
    await openAction('Lab', 'Edit Runner');
    const dialog = await screen.findByRole('dialog', { name: 'Edit Runner' });
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Lab');
    expect(within(dialog).queryByLabelText('Handle')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'The big lab' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Team Runner Updated')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({ name: 'Lab', description: 'The big lab' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Runner' })).toBeNull());
    expect(await within(await table()).findByText('The big lab')).toBeTruthy();
  });

  it("deletes a runner ('Team Runner Removed'), or says 'Runner is currently linked to a healthcheck'", async () => {
    let runners = [makeRunner('lab', { name: 'Lab' }), makeRunner('busy', { name: 'Busy' })];
    stubApi(me, {
      handler: runnersApi(
        core,
        () => runners,
        (call) => {
          if (call.method === 'DELETE' && call.path === '/api/teams/core/runners/lab') {
            runners = runners.filter((runner) => runner.handle !== 'lab');
            return { status: 204 };
          }
          if (call.method === 'DELETE' && call.path === '/api/teams/core/runners/busy') {
            return { status: 409, body: { message: 'Runner is currently linked to a healthcheck' } };
          }
          return undefined;
        },
      ),
    });
    renderTeams('/teams/core/runners');
    await within(await table()).findByText('Lab');
    await openAction('Lab', 'Delete Runner');
    expect(await screen.findByText('Team Runner Removed')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Runners' })).queryByText('Lab')).toBeNull());

    await openAction('Busy', 'Delete Runner');
    expect(await screen.findByText('Runner is currently linked to a healthcheck')).toBeTruthy();
    expect(within(await table()).getByText('Busy')).toBeTruthy();
  });

  it('team Settings has a Runners card with the table and a link to the Runners page', async () => {
    stubApi(me, { handler: runnersApi(core, () => [makeRunner('lab', { name: 'Lab' })]) });
    renderTeams('/teams/core/settings');
    const card = (await screen.findByRole('heading', { name: 'Runners' })).closest('.p-card') as HTMLElement;
    expect(await within(card).findByText('Lab')).toBeTruthy();
    fireEvent.click(within(card).getByRole('link', { name: 'Open the Runners page' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/teams/core/runners'));
  });
});
