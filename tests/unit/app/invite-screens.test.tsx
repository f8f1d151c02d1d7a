// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import AcceptInviteScreen from '../../../src/app/auth/accept-invite-screen.js';
import InviteUserScreen from '../../../src/app/users/invite-user-screen.js';
import { messages } from '../../../src/domain/validators.js';
import { renderScreen, stubApi } from './support.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const valueOf = (label: string) => screen.getByLabelText<HTMLInputElement>(label).value;
const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });

const joinAt = '/invite/inv-1?code=secret';

describe('AcceptInviteScreen', () => {
  it('fills the handle from the name while it is untouched and limits typing to lowercase letters and hyphen', () => {
    stubApi({});
    renderScreen(<AcceptInviteScreen />, { url: joinAt, path: '/invite/:id' });
    expect(screen.getByRole('heading', { name: 'Join Beacon' })).toBeTruthy();

    type('Name', 'Grace Brewster Hopper');
    expect(valueOf('Handle')).toBe('grace-brewster-hopper');

    type('Handle', 'Grace_42-H');
    expect(valueOf('Handle')).toBe('grace-h');
    type('Name', 'Grace');
    expect(valueOf('Handle')).toBe('grace-h');
  });

  it("says 'The handle is not valid' for a bad handle", () => {
    stubApi({});
    renderScreen(<AcceptInviteScreen />, { url: joinAt, path: '/invite/:id' });
    type('Name', 'Al');
    // Leaving the name checks the handle it filled in.
    fireEvent.blur(screen.getByLabelText('Name'));
    expect(screen.getByText(messages.joinHandleNotValid)).toBeTruthy();

    type('Handle', '-grace');
    expect(screen.getByText('The handle is not valid')).toBeTruthy();
    type('Password', 'weak');
    fireEvent.blur(screen.getByLabelText('Password'));
    expect(screen.getByText(messages.passwordNotStrong)).toBeTruthy();
    expect(button('Join').disabled).toBe(true);
  });

  it('posts the invite and the user, then goes to /login with a notice', async () => {
    const calls = stubApi({ 'POST /api/users': { status: 201, body: {} } });
    renderScreen(<AcceptInviteScreen />, { url: joinAt, path: '/invite/:id' });
    type('Name', 'Grace Hopper');
    type('Password', 'Str0ng-pass');
    fireEvent.click(button('Join'));

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(screen.getByText('Your account is ready, you can log in now')).toBeTruthy();
    expect(calls.find((call) => call.path === '/api/users')?.body).toEqual({
      workspace: 'acme',
      invite: { id: 'inv-1', code: 'secret' },
      user: { name: 'Grace Hopper', handle: 'grace-hopper', password: 'Str0ng-pass' },
    });
  });

  it('shows the generic failure text', async () => {
    stubApi({ 'POST /api/users': { status: 409, body: { message: 'Handle is already taken' } } });
    renderScreen(<AcceptInviteScreen />, { url: joinAt, path: '/invite/:id' });
    type('Name', 'Grace Hopper');
    type('Password', 'Str0ng-pass');
    fireEvent.click(button('Join'));
    expect((await screen.findByRole('alert')).textContent).toContain('There was an error when submitting your data');
  });
});

describe('InviteUserScreen', () => {
  const render = () => renderScreen(<InviteUserScreen />, { url: '/users/invite' });

  it('invites the email, says so and clears the field', async () => {
    const calls = stubApi({
      'POST /api/invites': (body) => ({
        status: 201,
        body: { id: 'i1', email: (body as { email: string }).email, last_sent: '2024-01-01T00:00:00.000Z' },
      }),
    });
    render();
    expect(screen.getByText('Enter an email to invite a user to this workspace')).toBeTruthy();
    type('Email', 'new@example.com');
    fireEvent.click(button('Invite User'));

    expect(await screen.findByText('Successfully invited "new@example.com"')).toBeTruthy();
    expect(valueOf('Email')).toBe('');
    expect(calls.find((call) => call.path === '/api/invites')?.body).toEqual({ email: 'new@example.com' });
  });

  it("shows the server's email error on a 409", async () => {
    stubApi({
      'POST /api/invites': {
        status: 409,
        body: { message: 'Already invited', errors: { email: ['new@example.com has already been invited'] } },
      },
    });
    render();
    type('Email', 'new@example.com');
    fireEvent.click(button('Invite User'));
    expect((await screen.findAllByText('new@example.com has already been invited')).length).toBeGreaterThan(0);
    expect(screen.queryByText('Unable to send your invite')).toBeNull();
    expect(valueOf('Email')).toBe('new@example.com');
  });

  it("says 'Unable to send your invite' otherwise, e.g. a non-admin's 403", async () => {
    stubApi({ 'POST /api/invites': { status: 403, body: { message: 'Only owners and admins can invite users' } } });
    render();
    type('Email', 'new@example.com');
    fireEvent.click(button('Invite User'));
    expect((await screen.findAllByText('Unable to send your invite')).length).toBeGreaterThan(0);
    await waitFor(() => expect(button('Invite User').disabled).toBe(false));
  });
});
