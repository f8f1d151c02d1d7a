import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import type { User, Workspace } from '../../contract/accounts.js';
import { sessionOperations } from '../../contract/operations/session.js';
import { userOperations } from '../../contract/operations/users.js';
import { workspaceOperations } from '../../contract/operations/workspace.js';
import { ApiError, createApiClient, type ApiClient } from '../api/client.js';
import { usernameFromToken } from './token.js';

/** Auth state of spec/platform.md section 3 and its transitions (section 4). */
export interface AuthState {
  workspace: Workspace | null;
  workspacePending: boolean;
  workspaceNotFound: boolean;
  token: string | null;
  tokenPending: boolean;
  username: string | null;
  user: User | null;
  /** The server refused to show the signed-in user (a member of a suspended workspace). */
  userRefused: boolean;
  error: boolean;
  /** The network is unreachable; what was seen last is shown. */
  offline: boolean;
}

type Action =
  | { type: 'workspace'; workspace: Workspace }
  | { type: 'workspace-not-found' }
  | { type: 'offline'; workspace: Workspace | null; username: string | null; user: User | null }
  | { type: 'token'; token: string }
  | { type: 'token-failed'; error: boolean }
  | { type: 'user'; user: User }
  | { type: 'user-refused' }
  | { type: 'logged-out' };

export const initialAuthState: AuthState = {
  workspace: null,
  workspacePending: true,
  workspaceNotFound: false,
  token: null,
  tokenPending: true,
  username: null,
  user: null,
  userRefused: false,
  error: false,
  offline: false,
};

export function authReducer(state: AuthState, action: Action): AuthState {
  switch (action.type) {
    case 'workspace':
      return {
        ...state,
        workspace: action.workspace,
        workspacePending: false,
        workspaceNotFound: false,
        offline: false,
      };
    case 'workspace-not-found':
      return { ...state, workspace: null, workspacePending: false, workspaceNotFound: true, tokenPending: false };
    case 'offline':
      return {
        ...state,
        workspace: action.workspace,
        workspacePending: false,
        tokenPending: false,
        username: action.username,
        user: action.user,
        offline: true,
      };
    case 'token':
      return {
        ...state,
        token: action.token,
        username: usernameFromToken(action.token),
        tokenPending: false,
        error: false,
      };
    case 'token-failed':
      return { ...state, token: null, tokenPending: false, error: action.error, user: null };
    case 'user':
      return { ...state, user: action.user, userRefused: false };
    case 'user-refused':
      return { ...state, userRefused: true };
    case 'logged-out':
      return { ...state, token: null, username: null, user: null, userRefused: false, tokenPending: false };
  }
}

export interface Auth {
  state: AuthState;
  api: ApiClient;
  /** The workspace label of this host. */
  domain: string;
  login(email: string, password: string): Promise<void>;
  logout(): Promise<void>;
  reloadUser(): Promise<void>;
}

/** The server would not show the signed-in user: a member of a suspended workspace (403 'Workspace Suspended'). */
function isRefused(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}

const AuthContext = createContext<Auth | null>(null);

const LAST_SEEN_KEY = 'beacon.last-seen';

interface LastSeen {
  workspace: Workspace;
  username: string | null;
  user: User | null;
}

function readLastSeen(domain: string): LastSeen | null {
  try {
    const value = localStorage.getItem(`${LAST_SEEN_KEY}.${domain}`);
    return value ? (JSON.parse(value) as LastSeen) : null;
  } catch {
    return null;
  }
}

/** The handle of the user last seen signed in to `domain` on this device (their local database's name), if any. */
export function lastSeenHandle(domain: string): string | null {
  const seen = readLastSeen(domain);
  return seen?.user?.handle ?? seen?.username ?? null;
}

function writeLastSeen(domain: string, seen: LastSeen | null): void {
  try {
    if (seen) localStorage.setItem(`${LAST_SEEN_KEY}.${domain}`, JSON.stringify(seen));
    else localStorage.removeItem(`${LAST_SEEN_KEY}.${domain}`);
  } catch {
    // Private mode: nothing is remembered.
  }
}

/** A network failure (fetch rejects), as opposed to an answer from the server. */
function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}

// The token call goes without a token (the session cookie is the credential) and never refreshes itself.
const bare = createApiClient({ getToken: () => null, refreshToken: async () => null });

/** A token from the session cookie, null when the server refuses one; rejects when the network fails. */
async function requestSessionToken(domain: string): Promise<string | null> {
  try {
    const body = { grant_type: 'session' as const, workspace: domain };
    return (await bare.call(sessionOperations.issueToken, { body }, { retryOn401: false })).access_token;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** The token's user, asked for with that token (fresh, so no refresh on 401); null for a token without one. */
async function requestUser(token: string): Promise<User | null> {
  const username = usernameFromToken(token);
  if (!username) return null;
  const headers = { authorization: `Bearer ${token}` };
  return bare.call(userOperations.getUser, { params: { username } }, { headers, retryOn401: false });
}

interface StartRequests {
  domain: string;
  workspace: Promise<Workspace>;
  token: Promise<string | null>;
  /** Asked for the moment the token is there, not once React has rendered. */
  user: Promise<User | null>;
}

function startRequests(domain: string): StartRequests {
  const token = requestSessionToken(domain);
  const requests = {
    domain,
    workspace: bare.call(workspaceOperations.getWorkspace),
    token,
    user: token.then((value) => (value ? requestUser(value) : null)),
  };
  // Handled where the provider awaits them.
  requests.workspace.catch(() => undefined);
  requests.user.catch(() => undefined);
  return requests;
}

let started: StartRequests | null = null;

/**
 * Asks for the workspace, a token and then the user at once, before React renders (main.tsx); the provider
 * takes these requests instead of starting its own.
 */
export function startSession(domain: string): void {
  started = startRequests(domain);
}

function takeStartRequests(domain: string): StartRequests {
  const taken = started?.domain === domain ? started : null;
  started = null;
  return taken ?? startRequests(domain);
}

/**
 * The session of workspace `domain`. `prepareSignedIn` loads what the app needs before it shows a user (the local
 * layer's code, which the sign-in screens do without): a user or a token is set only once it resolved. Should it
 * fail (offline, not cached yet), the session goes on without it.
 */
export function AuthProvider({
  domain,
  prepareSignedIn,
  children,
}: {
  domain: string;
  prepareSignedIn?: () => Promise<unknown>;
  children: ReactNode;
}) {
  const [state, dispatch] = useReducer(authReducer, initialAuthState);
  const tokenRef = useRef<string | null>(null);
  tokenRef.current = state.token;
  const refreshing = useRef<Promise<string | null> | null>(null);

  const requestToken = useCallback(() => requestSessionToken(domain), [domain]);
  const prepared = useCallback(
    () => (prepareSignedIn ? prepareSignedIn().catch(() => undefined) : Promise.resolve()),
    [prepareSignedIn],
  );

  const api = useMemo(
    () =>
      createApiClient({
        getToken: () => tokenRef.current,
        // Concurrent 401s share one refresh.
        refreshToken: () =>
          (refreshing.current ??= requestToken()
            .then(async (token) => {
              if (token) await prepared();
              tokenRef.current = token;
              dispatch(token ? { type: 'token', token } : { type: 'token-failed', error: false });
              return token;
            })
            .finally(() => {
              refreshing.current = null;
            })),
      }),
    [requestToken, prepared],
  );

  const showUser = useCallback(
    (token: string, workspace: Workspace, user: User) => {
      dispatch({ type: 'user', user });
      writeLastSeen(domain, { workspace, username: usernameFromToken(token), user });
    },
    [domain],
  );

  const loadUser = useCallback(
    async (token: string, workspace: Workspace) => {
      const username = usernameFromToken(token);
      if (!username) return;
      showUser(token, workspace, await api.call(userOperations.getUser, { params: { username } }));
    },
    [api, showUser],
  );

  const acceptToken = useCallback(
    async (token: string, workspace: Workspace) => {
      tokenRef.current = token;
      dispatch({ type: 'token', token });
      await loadUser(token, workspace).catch((error: unknown) => {
        if (isRefused(error)) dispatch({ type: 'user-refused' });
      });
    },
    [loadUser],
  );

  // Start: the workspace and a token from the session cookie are asked for at once, and the user as soon as
  // the token is there; the answers are applied in that order (a failed workspace call decides alone).
  useEffect(() => {
    let cancelled = false;
    const start = takeStartRequests(domain);
    const tokenRequest = start.token.catch(() => null);
    const userRequest = start.user.catch((error: unknown) => (isRefused(error) ? ('refused' as const) : null));
    (async () => {
      let workspace: Workspace;
      try {
        workspace = await start.workspace;
      } catch (error) {
        if (cancelled) return;
        const seen = readLastSeen(domain);
        if (isNetworkError(error) && seen) {
          if (seen.username) await prepared();
          if (cancelled) return;
          dispatch({ type: 'offline', workspace: seen.workspace, username: seen.username, user: seen.user });
        } else dispatch({ type: 'workspace-not-found' });
        return;
      }
      if (cancelled) return;
      dispatch({ type: 'workspace', workspace });
      const token = await tokenRequest;
      if (cancelled) return;
      if (!token) {
        dispatch({ type: 'token-failed', error: false });
        return;
      }
      await prepared();
      if (cancelled) return;
      tokenRef.current = token;
      dispatch({ type: 'token', token });
      const user = await userRequest;
      if (cancelled) return;
      if (user === 'refused') dispatch({ type: 'user-refused' });
      else if (user) showUser(token, workspace, user);
    })();
    return () => {
      cancelled = true;
    };
  }, [domain, showUser, prepared]);

  const login = useCallback(
    async (email: string, password: string) => {
      const body = { workspace: domain, login: email, password };
      // The signed-in code downloads while the password is checked.
      const ready = prepared();
      await api.call(sessionOperations.createSession, { body }, { retryOn401: false });
      const token = await requestToken();
      if (!token) throw new ApiError(401, { message: 'Login/password did not match' });
      const workspace = state.workspace ?? (await api.call(workspaceOperations.getWorkspace));
      await ready;
      await acceptToken(token, workspace);
    },
    [api, domain, requestToken, acceptToken, prepared, state.workspace],
  );

  const logout = useCallback(async () => {
    await api
      .call(sessionOperations.deleteSession, { body: { workspace: domain } }, { retryOn401: false })
      .catch(() => undefined);
    tokenRef.current = null;
    writeLastSeen(domain, null);
    dispatch({ type: 'logged-out' });
  }, [api, domain]);

  const reloadUser = useCallback(async () => {
    if (state.token && state.workspace) await loadUser(state.token, state.workspace);
  }, [loadUser, state.token, state.workspace]);

  const value = useMemo<Auth>(
    () => ({ state, api, domain, login, logout, reloadUser }),
    [state, api, domain, login, logout, reloadUser],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}
