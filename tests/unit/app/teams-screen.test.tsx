// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Team } from '../../../src/contract/catalogue.js';
import { makeService, makeTeam, makeUser, page, renderTeams, stubApi, type Answer, type Call } from './teams-kit.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me = makeUser('mia');
const core = makeTeam('core', { description: 'Runs the core', is_member: true });
const adminCore = { ...core, is_admin: true, can_create_services: true };
const api = makeTeam('api', { parent: { id: core.id, handle: 'core', name: 'Core', thumbnail_url: null } });

/** Answers GET /api/teams/{handle} for `teams`, their services and sub-teams; `extra` first. */
function teamsApi(teams: Team[], extra?: (call: Call) => Answer | undefined) {
  const byHandle = new Map(teams.map((team) => [team.handle, team]));
  return (call: Call) => {
    const answer = extra?.(call);
    if (answer) return answer;
    const match = /^\/api\/teams\/([^/]+)(?:\/(services|teams))?$/.exec(call.path);
    if (call.method !== 'GET' || !match) return undefined;
    const team = byHandle.get(match[1]!);
    if (!team) return undefined;
    if (match[2] === 'services')
      return page([makeService('search', { description: 'Finds things', health: 'warning' })]);
    if (match[2] === 'teams') return page(match[1] === 'core' ? [api] : []);
    return { status: 200, body: team };
  };
}

function tabs() {
  return screen.getAllByRole('menuitem').map((item) => item.textContent);
}

describe('team screen', () => {
  it("shows a spinner, then the header; 'The team was not found' for a missing team", async () => {
    stubApi(me, { handler: teamsApi([core]) });
    renderTeams('/teams/core');
    expect(await screen.findByRole('progressbar', { name: 'Loading team' })).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Core' })).toBeTruthy();
    cleanup();

    stubApi(me, { handler: teamsApi([core]) });
    renderTeams('/teams/nope');
    expect(await screen.findByText('The team was not found')).toBeTruthy();
  });

  it('hides the Settings tab and route from someone who is not a team admin', async () => {
    stubApi(me, { handler: teamsApi([core]) });
    renderTeams('/teams/core/settings');
    await screen.findByRole('heading', { level: 1, name: 'Core' });
    expect(tabs()).toEqual(['Overview', 'Health', 'Services', 'Members', 'Scorecards']);
    expect(screen.getByText('404 Not Found')).toBeTruthy();
    cleanup();

    stubApi(me, {
      handler: teamsApi([adminCore], (call) => (call.path.endsWith('/services') ? page([], 0) : undefined)),
    });
    renderTeams('/teams/core/settings');
    await screen.findByRole('heading', { level: 1, name: 'Core' });
    expect(tabs()).toEqual(['Overview', 'Health', 'Services', 'Members', 'Scorecards', 'Settings']);
    expect(await screen.findByRole('heading', { name: 'Team Logo' })).toBeTruthy();
  });

  it('shows not-found for an unknown section and moves between tabs', async () => {
    stubApi(me, { handler: teamsApi([core]) });
    renderTeams('/teams/core/nothing-here');
    expect(await screen.findByText('No pages found')).toBeTruthy();

    fireEvent.click(screen.getByRole('menuitem', { name: 'Health' }));
    expect(screen.getByTestId('location').textContent).toBe('/teams/core/health');
    expect(await screen.findByText('No Data Available')).toBeTruthy();
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('Health')).toBeTruthy();

    fireEvent.click(screen.getByRole('menuitem', { name: 'Overview' }));
    expect(screen.getByTestId('location').textContent).toBe('/teams/core');
  });

  it("shows the description card and 'No Events' when the feed fails; no breadcrumb on the overview", async () => {
    stubApi(me, { handler: teamsApi([core]) });
    renderTeams('/teams/core');
    expect(await screen.findByRole('heading', { name: 'Description' })).toBeTruthy();
    expect(screen.getByText('Runs the core')).toBeTruthy();
    expect(await screen.findByText('No Events')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).toBeNull();
    cleanup();

    stubApi(me, { handler: teamsApi([makeTeam('core')]) });
    renderTeams('/teams/core');
    await screen.findByText('No Events');
    expect(screen.queryByRole('heading', { name: 'Description' })).toBeNull();
  });

  it('shows feed events from the public feed', async () => {
    const event = {
      id: 'e1',
      title: 'Search is degraded',
      created_at: new Date().toISOString(),
      agent_name: 'Beacon',
      profile: { type: 'service', handle: 'search', name: 'Search', thumbnail_url: null },
    };
    stubApi(me, {
      handler: teamsApi([core], (call) =>
        call.path === '/api/teams/core/public-feed' ? { status: 200, body: [event] } : undefined,
      ),
    });
    renderTeams('/teams/core');
    expect(await screen.findByText('Search is degraded')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View Service' }).getAttribute('href')).toBe('/services/search');
  });

  it('lists services and sub-teams; Create Service and Create Sub-team only for team admins', async () => {
    const calls = stubApi(me, { handler: teamsApi([core]) });
    renderTeams('/teams/core/services');
    const link = await screen.findByRole('link', { name: 'Search' });
    expect(link.getAttribute('href')).toBe('/services/search');
    const row = within(link.closest('tr')!);
    expect(row.getByText('Finds things')).toBeTruthy();
    expect(row.getByText('Workspace')).toBeTruthy();
    expect(row.getByText('Warning')).toBeTruthy();
    expect((await screen.findByRole('link', { name: 'Api' })).getAttribute('href')).toBe('/teams/api');
    expect(screen.queryByRole('button', { name: 'Create Service' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create Sub-team' })).toBeNull();
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('Services')).toBeTruthy();
    const services = calls.find((call) => call.path === '/api/teams/core/services')!;
    expect([services.query.get('cursor'), services.query.get('limit')]).toEqual(['0', '20']);
    cleanup();

    stubApi(me, { handler: teamsApi([adminCore]) });
    renderTeams('/teams/core/services');
    fireEvent.click(await screen.findByRole('button', { name: 'Create Service' }));
    expect(screen.getByTestId('location').textContent).toBe('/teams/core/services/new');
  });

  it("says 'No Services' and 'No Sub-teams' for an empty team, and admins go to Create Sub-team", async () => {
    stubApi(me, {
      handler: teamsApi([adminCore], (call) =>
        call.path === '/api/teams/core/services' || call.path === '/api/teams/core/teams' ? page([]) : undefined,
      ),
    });
    renderTeams('/teams/core/services');
    expect(await screen.findByText('No Services')).toBeTruthy();
    expect(await screen.findByText('No Sub-teams')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create Sub-team' }));
    expect(screen.getByTestId('location').textContent).toBe('/teams/core/teams/new');
  });

  it('reloads when the id changes (following a sub-team link)', async () => {
    stubApi(me, { handler: teamsApi([core, api]) });
    renderTeams('/teams/core/services');
    fireEvent.click(await screen.findByRole('link', { name: 'Api' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Api' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Core' }).getAttribute('href')).toBe('/teams/core');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/teams/api'));
  });
});
