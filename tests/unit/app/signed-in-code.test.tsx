// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider, useAuth } from '../../../src/app/session/auth-context.js';
import { makeUser, stubApi } from './app-kit.js';

/** A `prepareSignedIn` that resolves when the test says so (the local layer's chunk arriving). */
function pendingCode() {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  return { prepareSignedIn: vi.fn(() => arrived), arrive };
}

function SessionProbe() {
  const { state, login } = useAuth();
  return (
    <>
      <p>{state.workspacePending || state.tokenPending ? 'pending' : (state.username ?? 'signed out')}</p>
      <button type="button" onClick={() => void login('ann@acme.test', 'secret')}>
        Log in
      </button>
    </>
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the session and the signed-in code (the local layer, not on the sign-in screens)', () => {
  it('shows the user of a session found at start only once the code is there', async () => {
    const calls = stubApi(makeUser('ann'));
    const code = pendingCode();
    render(
      <AuthProvider domain="acme" prepareSignedIn={code.prepareSignedIn}>
        <SessionProbe />
      </AuthProvider>,
    );
    await waitFor(() => expect(code.prepareSignedIn).toHaveBeenCalled());
    expect(calls.some((call) => call.path === '/api/token')).toBe(true);
    expect(screen.getByText('pending')).toBeTruthy();
    act(() => code.arrive());
    expect(await screen.findByText('ann')).toBeTruthy();
  });

  it('downloads the code while a login checks the password, and signs in once both are done', async () => {
    let session = false;
    const calls = stubApi(makeUser('ann'), {
      handler: (call) => {
        if (call.path === '/api/session') {
          session = true;
          return { status: 204 };
        }
        if (call.path === '/api/token' && !session) return { status: 401, body: { message: 'No session' } };
        return undefined;
      },
    });
    const code = pendingCode();
    render(
      <AuthProvider domain="acme" prepareSignedIn={code.prepareSignedIn}>
        <SessionProbe />
      </AuthProvider>,
    );
    expect(await screen.findByText('signed out')).toBeTruthy();
    expect(code.prepareSignedIn).not.toHaveBeenCalled();
    act(() => screen.getByRole('button', { name: 'Log in' }).click());
    await waitFor(() => expect(code.prepareSignedIn).toHaveBeenCalled());
    // The password was right and the session's token came back: still no user without the code.
    await waitFor(() => expect(calls.filter((call) => call.path === '/api/token')).toHaveLength(2));
    await act(() => Promise.resolve());
    expect(session).toBe(true);
    expect(screen.getByText('signed out')).toBeTruthy();
    act(() => code.arrive());
    expect(await screen.findByText('ann')).toBeTruthy();
  });
});
