// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTeam, makeUser, renderTeams, stubApi, type Call } from './teams-kit.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const me = makeUser('mia');
const createButton = () => screen.getByRole('button', { name: 'Create Team' }) as HTMLButtonElement;
const nameInput = () => screen.getByLabelText('Name') as HTMLInputElement;
const handleInput = () => screen.getByLabelText('Handle') as HTMLInputElement;

/** The handle check answers 404 (free) for every handle but `taken`. */
function handleCheck(taken: string[] = []) {
  return (call: Call) => {
    const match = /^\/api\/team\/(.+)$/.exec(call.path);
    if (call.method !== 'GET' || !match) return undefined;
    return taken.includes(match[1]!) ? { status: 200, body: makeTeam(match[1]!) } : { status: 404, body: {} };
  };
}

describe('create team', () => {
  it('fills the handle from the name until the handle is typed in', async () => {
    stubApi(me, { handler: handleCheck() });
    renderTeams('/teams/new');
    await screen.findByRole('heading', { name: 'Create Team' });

    fireEvent.change(nameInput(), { target: { value: 'Core Platform Team!' } });
    expect(handleInput().value).toBe('core-platform-team');

    fireEvent.change(handleInput(), { target: { value: 'Plat_form' } });
    expect(handleInput().value).toBe('platform');
    fireEvent.change(nameInput(), { target: { value: 'Something else' } });
    expect(handleInput().value).toBe('platform');
  });

  it('keeps Create Team disabled until name and handle are valid', async () => {
    stubApi(me, { handler: handleCheck() });
    renderTeams('/teams/new');
    await screen.findByRole('heading', { name: 'Create Team' });
    expect(createButton().disabled).toBe(true);

    fireEvent.change(nameInput(), { target: { value: 'Co' } });
    // 'co' is too short for a handle.
    expect(createButton().disabled).toBe(true);
    fireEvent.change(nameInput(), { target: { value: 'Core' } });
    expect(createButton().disabled).toBe(false);

    fireEvent.change(handleInput(), { target: { value: '' } });
    expect(createButton().disabled).toBe(true);
    fireEvent.blur(handleInput());
    expect(screen.getByText('This field is required')).toBeTruthy();
  });

  it("checks the handle on blur: a 404 reads 'Service handle is available', anything else 'taken'", async () => {
    const calls = stubApi(me, { handler: handleCheck(['core']) });
    renderTeams('/teams/new');
    await screen.findByRole('heading', { name: 'Create Team' });

    fireEvent.change(nameInput(), { target: { value: 'Payments' } });
    // Leaving the name checks the handle it filled.
    fireEvent.blur(nameInput());
    expect(await screen.findByText('Service handle is available')).toBeTruthy();
    expect(calls.filter((call) => call.path === '/api/team/payments')).toHaveLength(1);
    // The same handle is not asked again.
    fireEvent.blur(handleInput());
    expect(calls.filter((call) => call.path === '/api/team/payments')).toHaveLength(1);

    fireEvent.change(handleInput(), { target: { value: 'core' } });
    // A result for another handle is not shown for this one.
    expect(screen.queryByText('Service handle is available')).toBeNull();
    fireEvent.blur(handleInput());
    expect(await screen.findByText('Service handle is already taken')).toBeTruthy();
    expect(createButton().disabled).toBe(true);
    expect(handleInput().getAttribute('aria-invalid')).toBe('true');
  });

  it('reads a network failure of the check as taken', async () => {
    stubApi(me, {
      handler: (call) => {
        if (call.path === '/api/team/payments') throw new TypeError('Failed to fetch');
        return undefined;
      },
    });
    renderTeams('/teams/new');
    await screen.findByRole('heading', { name: 'Create Team' });
    fireEvent.change(nameInput(), { target: { value: 'Payments' } });
    fireEvent.blur(handleInput());
    expect(await screen.findByText('Service handle is already taken')).toBeTruthy();
  });

  it('creates the team with POST /teams and goes to /teams/{handle}', async () => {
    const calls = stubApi(me, {
      handler: (call) => {
        if (call.method === 'POST' && call.path === '/api/teams') {
          return { status: 201, body: makeTeam('payments', { name: 'Payments' }) };
        }
        if (call.path === '/api/teams/payments') return { status: 200, body: makeTeam('payments') };
        return handleCheck()(call);
      },
    });
    renderTeams('/teams/new');
    await screen.findByRole('heading', { name: 'Create Team' });
    fireEvent.change(nameInput(), { target: { value: ' Payments ' } });
    fireEvent.click(createButton());

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/teams/payments'));
    expect(calls.find((call) => call.method === 'POST' && call.path === '/api/teams')!.body).toEqual({
      name: 'Payments',
      handle: 'payments',
    });
  });

  it('marks the handle taken when the create answers 409', async () => {
    stubApi(me, {
      handler: (call) => {
        if (call.method === 'POST' && call.path === '/api/teams') return { status: 409, body: { message: 'Taken' } };
        return handleCheck()(call);
      },
    });
    renderTeams('/teams/new');
    await screen.findByRole('heading', { name: 'Create Team' });
    fireEvent.change(nameInput(), { target: { value: 'Payments' } });
    fireEvent.click(createButton());
    expect(await screen.findByText('Service handle is already taken')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/teams/new');
  });

  it('creates a sub-team with POST /teams/{id}/teams from /teams/{id}/teams/new', async () => {
    const calls = stubApi(me, {
      handler: (call) => {
        if (call.method === 'GET' && call.path === '/api/teams/core') return { status: 200, body: makeTeam('core') };
        if (call.method === 'POST' && call.path === '/api/teams/core/teams') {
          return { status: 201, body: makeTeam('core-api') };
        }
        if (call.path === '/api/teams/core-api') return { status: 200, body: makeTeam('core-api') };
        return handleCheck()(call);
      },
    });
    renderTeams('/teams/core/teams/new');
    expect(await screen.findByRole('heading', { name: 'Create Sub-team' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Core' }).getAttribute('href')).toBe('/teams/core');

    fireEvent.change(nameInput(), { target: { value: 'Core API' } });
    fireEvent.click(createButton());
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/teams/core-api'));
    expect(calls.find((call) => call.path === '/api/teams/core/teams')!.body).toEqual({
      name: 'Core API',
      handle: 'core-api',
    });
  });

  it("shows 'The team was not found' when the parent team is missing", async () => {
    stubApi(me);
    renderTeams('/teams/nope/teams/new');
    expect(await screen.findByText('The team was not found')).toBeTruthy();
  });
});

describe('a refused create', () => {
  it("shows the server's field errors next to the fields and its message below, without a toast", async () => {
    stubApi(me, {
      handler: (call) =>
        handleCheck()(call) ??
        (call.method === 'POST' && call.path === '/api/teams'
          ? { status: 400, body: { message: 'Invalid name', errors: { name: ['Name is too long'] } } }
          : undefined),
    });
    renderTeams('/teams/new');
    await screen.findByRole('heading', { name: 'Create Team' });
    fireEvent.change(nameInput(), { target: { value: 'Core' } });
    fireEvent.blur(nameInput());
    await screen.findByText('Service handle is available');
    fireEvent.click(createButton());
    expect(await screen.findByText('Name is too long')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Invalid name');
    expect(document.querySelector('.beacon-snackbar')).toBeNull();
  });
});
