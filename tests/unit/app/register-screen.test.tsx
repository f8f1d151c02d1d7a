// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import RegisterScreen from '../../../src/app/auth/register-screen.js';
import { readAppConfig, workspaceOrigin } from '../../../src/app/config.js';
import { messages } from '../../../src/domain/validators.js';
import { renderScreen, stubApi } from './support.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const valueOf = (label: string) => screen.getByLabelText<HTMLInputElement>(label).value;
const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });

/** Renders the screen at /register?beta_code=K7Q2ZP and passes step one. */
async function toStepTwo(onRegistered: (url: string) => void = vi.fn()) {
  renderScreen(<RegisterScreen onRegistered={onRegistered} />, { url: '/register?beta_code=K7Q2ZP', auth: false });
  type('Email', ' Owner@Example.com ');
  fireEvent.click(button('Continue'));
  await screen.findByRole('heading', { name: 'Create workspace' });
}

describe('RegisterScreen, step one', () => {
  it('prefills the beta code from the query and sends the pair to POST /api/register', async () => {
    const calls = stubApi({
      'POST /api/register': { status: 200, body: { beta_key: 'K7Q2ZP', email: 'owner@example.com' } },
    });
    renderScreen(<RegisterScreen />, { url: '/register?beta_code=K7Q2ZP', auth: false });

    expect(valueOf('Beta Code')).toBe('K7Q2ZP');
    const submit = button('Continue');
    expect(submit.disabled).toBe(true);
    type('Email', 'not-an-email');
    fireEvent.blur(screen.getByLabelText('Email'));
    expect(screen.getByText(messages.invalidEmail)).toBeTruthy();
    expect(submit.disabled).toBe(true);

    type('Email', ' Owner@Example.com ');
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);
    await screen.findByRole('heading', { name: 'Create workspace' });
    expect(calls.find((call) => call.path === '/api/register')?.body).toEqual({
      beta_key: 'K7Q2ZP',
      email: 'Owner@Example.com',
    });
  });

  it('shows the server message when the pair is refused', async () => {
    stubApi({
      'POST /api/register': {
        status: 400,
        body: { message: 'This beta key is not valid for this email', errors: { beta_key: ['Invalid Beta Code'] } },
      },
    });
    renderScreen(<RegisterScreen />, { url: '/register?beta_code=K7Q2ZP', auth: false });
    type('Email', 'owner@example.com');
    fireEvent.click(button('Continue'));
    expect((await screen.findByRole('alert')).textContent).toContain('This beta key is not valid for this email');
    expect(screen.getByRole('heading', { name: 'Register' })).toBeTruthy();
  });
});

describe('RegisterScreen, step two', () => {
  it('prefills the email and beta code from step one and fills handle and domain by slug until edited', async () => {
    stubApi({ 'POST /api/register': { status: 200, body: { beta_key: 'K7Q2ZP', email: 'owner@example.com' } } });
    await toStepTwo();

    expect(valueOf('Email')).toBe('owner@example.com');
    expect(valueOf('Beta Code')).toBe('K7Q2ZP');

    type('Name', 'Ada  Lovelace!');
    expect(valueOf('Handle')).toBe('ada-lovelace');
    type('Workspace Name', 'Acme Widgets, Inc.');
    expect(valueOf('Workspace Domain')).toBe('acme-widgets-inc');

    // Typed by hand: capitals are lowered, other characters dropped, and the name no longer drives it.
    type('Handle', 'Ada_99');
    expect(valueOf('Handle')).toBe('ada99');
    type('Name', 'Someone Else');
    expect(valueOf('Handle')).toBe('ada99');

    // Emptied by hand, it follows the name again from the next change.
    type('Handle', '');
    type('Name', 'Grace Hopper');
    expect(valueOf('Handle')).toBe('grace-hopper');
  });

  it('shows the spec texts for invalid fields once they were left', async () => {
    stubApi({ 'POST /api/register': { status: 200, body: { beta_key: 'K7Q2ZP', email: 'owner@example.com' } } });
    await toStepTwo();

    type('Email', 'nope');
    fireEvent.blur(screen.getByLabelText('Email'));
    expect(screen.getByText(messages.emailNotValid)).toBeTruthy();
    expect(screen.getByText('Use the email your beta key was sent to.')).toBeTruthy();

    type('Handle', 'a--b');
    fireEvent.blur(screen.getByLabelText('Handle'));
    expect(screen.getByText(messages.handleNotValid)).toBeTruthy();

    type('Password', 'weakpass');
    fireEvent.blur(screen.getByLabelText('Password'));
    expect(screen.getByText(messages.passwordNotStrongLong)).toBeTruthy();

    type('Workspace Domain', 'ab');
    fireEvent.blur(screen.getByLabelText('Workspace Domain'));
    expect(screen.getByText(messages.domainTooShort)).toBeTruthy();

    type('Beta Code', 'K7Q2Z');
    fireEvent.blur(screen.getByLabelText('Beta Code'));
    expect(screen.getByText(messages.invalidBetaCode)).toBeTruthy();

    expect(button('Create Workspace').disabled).toBe(true);
  });

  function fillValid() {
    type('Name', 'Ada Lovelace');
    type('Password', 'Str0ng-pass');
    type('Workspace Name', 'Acme');
  }

  it('shows the first server field error on a 409', async () => {
    stubApi({
      'POST /api/register': { status: 200, body: { beta_key: 'K7Q2ZP', email: 'owner@example.com' } },
      'POST /api/registration/register-workspace': {
        status: 409,
        body: {
          message: 'Conflict',
          errors: { 'workspace.domain': ['This domain is already taken'], beta_key: ['Second error'] },
        },
      },
    });
    const onRegistered = vi.fn();
    await toStepTwo(onRegistered);
    fillValid();
    fireEvent.click(button('Create Workspace'));

    expect((await screen.findByRole('alert')).textContent).toContain('This domain is already taken');
    expect(onRegistered).not.toHaveBeenCalled();
    expect(button('Create Workspace').disabled).toBe(false);
  });

  it('falls back to the message when the server names no field', async () => {
    stubApi({
      'POST /api/register': { status: 200, body: { beta_key: 'K7Q2ZP', email: 'owner@example.com' } },
      'POST /api/registration/register-workspace': {
        status: 400,
        body: { message: 'This beta key has already been used' },
      },
    });
    await toStepTwo();
    fillValid();
    fireEvent.click(button('Create Workspace'));
    expect((await screen.findByRole('alert')).textContent).toContain('This beta key has already been used');
  });

  it('creates the workspace and sends the browser to the login of its own subdomain', async () => {
    const calls = stubApi({
      'POST /api/register': { status: 200, body: { beta_key: 'K7Q2ZP', email: 'owner@example.com' } },
      'POST /api/registration/register-workspace': {
        status: 201,
        body: { domain: 'acme', workspace: { id: 'w1', name: 'Acme', domain: 'acme', status: 'active', login: null } },
      },
    });
    const onRegistered = vi.fn();
    await toStepTwo(onRegistered);
    fillValid();
    const submit = button('Create Workspace');
    fireEvent.click(submit);

    await waitFor(() => expect(onRegistered).toHaveBeenCalledTimes(1));
    // The login of its own subdomain, told that the workspace was created and given the owner's email.
    expect(onRegistered).toHaveBeenCalledWith(
      `${workspaceOrigin('acme', readAppConfig())}/login?registered=1&email=owner%40example.com`,
    );
    expect(onRegistered.mock.calls[0]?.[0]).toMatch(/^http:\/\/acme\.localhost(:\d+)?\/login\?/);
    expect(submit.disabled).toBe(true);
    expect(calls.find((call) => call.path === '/api/registration/register-workspace')?.body).toEqual({
      beta_key: 'K7Q2ZP',
      owner: { email: 'owner@example.com', name: 'Ada Lovelace', handle: 'ada-lovelace', password: 'Str0ng-pass' },
      workspace: { name: 'Acme', domain: 'acme' },
    });
  });
});
