// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ForgotPasswordScreen from '../../../src/app/auth/forgot-password-screen.js';
import ResetPasswordScreen from '../../../src/app/auth/reset-password-screen.js';
import { messages } from '../../../src/domain/validators.js';
import { renderScreen, stubApi } from './support.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });

describe('ForgotPasswordScreen', () => {
  it('posts the workspace and email, then says the link is on its way', async () => {
    const calls = stubApi({ 'POST /api/forgot-password': { status: 200, body: { message: 'ok' } } });
    renderScreen(<ForgotPasswordScreen />, { url: '/forgot-password' });

    expect(screen.getByRole('link', { name: 'Return to Login' }).getAttribute('href')).toBe('/login');
    expect(button('Submit').disabled).toBe(true);
    type('Email', 'ada@example.com ');
    fireEvent.click(button('Submit'));
    expect(button('Submit').disabled).toBe(true);

    expect((await screen.findByRole('alert')).textContent).toContain('We emailed you a link to reset your password!');
    expect(calls.find((call) => call.path === '/api/forgot-password')?.body).toEqual({
      workspace: 'acme',
      email: 'ada@example.com',
    });
  });

  it('says so when the request fails', async () => {
    stubApi({ 'POST /api/forgot-password': { status: 429, body: { message: 'Too Many Requests' } } });
    renderScreen(<ForgotPasswordScreen />, { url: '/forgot-password' });
    type('Email', 'ada@example.com');
    fireEvent.click(button('Submit'));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'There was an issue while trying to reset your password',
    );
    expect(button('Submit').disabled).toBe(false);
  });
});

describe('ResetPasswordScreen', () => {
  it('asks for a strong password and a matching confirmation', () => {
    stubApi({});
    renderScreen(<ResetPasswordScreen />, { url: '/reset-password?key=abc' });

    type('Password', 'weak');
    fireEvent.blur(screen.getByLabelText('Password'));
    expect(screen.getByText(messages.passwordNotStrong)).toBeTruthy();

    type('Password', 'Str0ng-pass');
    type('Confirm Password', 'Str0ng-pas');
    fireEvent.blur(screen.getByLabelText('Confirm Password'));
    expect(screen.getByText(messages.confirmPasswordMismatch)).toBeTruthy();
    expect(button('Reset Password').disabled).toBe(true);

    type('Confirm Password', 'Str0ng-pass');
    expect(screen.queryByText(messages.confirmPasswordMismatch)).toBeNull();
    expect(button('Reset Password').disabled).toBe(false);
  });

  it('sends the key and password and goes to /login with a notice', async () => {
    const calls = stubApi({
      'POST /api/reset-password': { status: 200, body: { message: 'Your password has been reset' } },
    });
    renderScreen(<ResetPasswordScreen />, { url: '/reset-password?key=abc' });
    type('Password', 'Str0ng-pass');
    type('Confirm Password', 'Str0ng-pass');
    fireEvent.click(button('Reset Password'));

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(screen.getByText('Your password has been reset')).toBeTruthy();
    expect(calls.find((call) => call.path === '/api/reset-password')?.body).toEqual({
      key: 'abc',
      password: 'Str0ng-pass',
    });
  });

  it('shows the server message, or Server Error when there is none', async () => {
    stubApi({
      'POST /api/reset-password': { status: 400, body: { message: 'This reset link is invalid or has expired' } },
    });
    renderScreen(<ResetPasswordScreen />, { url: '/reset-password?key=abc' });
    type('Password', 'Str0ng-pass');
    type('Confirm Password', 'Str0ng-pass');
    fireEvent.click(button('Reset Password'));
    expect((await screen.findByRole('alert')).textContent).toContain('This reset link is invalid or has expired');
    cleanup();

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderScreen(<ResetPasswordScreen />, { url: '/reset-password?key=abc' });
    type('Password', 'Str0ng-pass');
    type('Confirm Password', 'Str0ng-pass');
    fireEvent.click(button('Reset Password'));
    expect((await screen.findByRole('alert')).textContent).toContain('Server Error');
  });

  it('does not submit without a key', () => {
    stubApi({});
    renderScreen(<ResetPasswordScreen />, { url: '/reset-password' });
    type('Password', 'Str0ng-pass');
    type('Confirm Password', 'Str0ng-pass');
    expect(screen.getByRole('alert').textContent).toContain('This reset link is invalid or has expired');
    expect(button('Reset Password').disabled).toBe(true);
  });
});
