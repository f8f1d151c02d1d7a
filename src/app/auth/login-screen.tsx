import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { samlOperations } from '../../contract/operations/sso.js';
import { isEmail, isRequired, messages } from '../../domain/validators.js';
import { keys } from '../api/query-keys.js';
import { TextField } from '../components/form.js';
import { AUTH_REDIRECT_KEY } from '../routing/guard.js';
import { useAuth } from '../session/auth-context.js';
import { AuthForm, AuthMessage, AuthSubmit, useAuthSubmit } from './auth-form.js';

/** Takes (and clears) the path saved before the login redirect. */
function takeRedirect(): string {
  const target = storedRedirect();
  localStorage.removeItem(AUTH_REDIRECT_KEY);
  return target;
}

/** The path saved before the login redirect (a path of this app only), or /. */
function storedRedirect(): string {
  const target = localStorage.getItem(AUTH_REDIRECT_KEY);
  return target && target.startsWith('/') && !target.startsWith('//') ? target : '/';
}

/** 'Log in with {name}': the identity provider's login, coming back to the stored post-login target. */
export function ssoLoginHref(loginUrl: string, redirect: string): string {
  const url = new URL(loginUrl, window.location.origin);
  url.searchParams.set('redirect', redirect);
  return url.toString();
}

export const WORKSPACE_CREATED = 'Your workspace is ready. Log in to start.';

export default function LoginScreen() {
  const { state, login, api } = useAuth();
  const sso = useQuery({
    queryKey: keys.ssoLoginOption(),
    queryFn: () => api.call(samlOperations.getSsoLoginOption),
    retry: false,
  });
  const ssoOption = sso.data ?? null;
  const navigate = useNavigate();
  // After registration the new workspace's login says so, with the owner's email filled in.
  const [params] = useSearchParams();
  const registered = params.get('registered') === '1';
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const send = useAuthSubmit();
  const { submitting, error } = send;
  // The ACS sends a refused single sign-on back here with its reason.
  const ssoError = params.get('sso_error');

  useEffect(() => {
    if (state.token) navigate(takeRedirect(), { replace: true });
  }, [state.token, navigate]);

  const valid = isRequired(email) && isEmail(email.trim()) && isRequired(password);

  const submit = (event: FormEvent) =>
    send.run(
      event,
      valid,
      () => login(email.trim(), password),
      () => messages.loginFailed,
    );

  return (
    <LoginView
      title={state.workspace ? `Log in to ${state.workspace.name}` : 'Log in'}
      email={email}
      password={password}
      onEmail={send.change(setEmail)}
      onPassword={send.change(setPassword)}
      onSubmit={submit}
      canSubmit={valid && !submitting}
      submitting={submitting}
      notices={[
        ...(registered && !error ? [{ severity: 'success' as const, text: WORKSPACE_CREATED }] : []),
        ...(error ? [{ severity: 'error' as const, text: error }] : []),
        ...(ssoError && !error ? [{ severity: 'error' as const, text: ssoError }] : []),
      ]}
      sso={ssoOption ? { name: ssoOption.name, href: ssoLoginHref(ssoOption.login_url, storedRedirect()) } : null}
    />
  );
}

export interface LoginViewProps {
  title: string;
  email: string;
  password: string;
  onEmail(value: string): void;
  onPassword(value: string): void;
  onSubmit(event: FormEvent): void;
  canSubmit: boolean;
  submitting: boolean;
  notices: ReadonlyArray<{ severity: 'success' | 'error'; text: string }>;
  sso: { name: string; href: string } | null;
}

/**
 * The login card as it looks, without its state: the screen renders it, and the build renders it once to HTML
 * (scripts/prerender-login.tsx) so a cold /login paints before the app's script has run.
 */
export function LoginView(props: LoginViewProps) {
  const { notices, sso } = props;
  return (
    <AuthForm title={props.title} onSubmit={props.onSubmit}>
      {notices.map((notice) => (
        <AuthMessage key={notice.text} severity={notice.severity} text={notice.text} />
      ))}
      <TextField
        id="login-email"
        label="Email"
        type="email"
        autoComplete="email"
        value={props.email}
        onChange={props.onEmail}
      />
      <TextField
        id="login-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={props.password}
        onChange={props.onPassword}
      />
      <AuthSubmit label="Log In" disabled={!props.canSubmit} pending={props.submitting} />
      {sso && (
        <a className="p-button p-component p-button-outlined justify-content-center no-underline" href={sso.href}>
          <span className="p-button-icon p-button-icon-left pi pi-sign-in" aria-hidden="true" />
          <span className="p-button-label flex-grow-0">{`Log in with ${sso.name}`}</span>
        </a>
      )}
      <Link to="/forgot-password" className="text-center">
        Forgot password?
      </Link>
    </AuthForm>
  );
}
