import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { BodyOf, OperationOutput } from '../../contract/operation.js';
import { registrationOperations } from '../../contract/operations/registration.js';
import {
  isBetaCode,
  isHandle,
  isRequired,
  isStrongPassword,
  messages,
  workspaceDomainError,
} from '../../domain/validators.js';
import { ApiError, createApiClient } from '../api/client.js';
import { errorMessage, handleTyping, TextField, useShownErrors, useSlugField } from '../components/form.js';
import { readAppConfig, workspaceOrigin } from '../config.js';
import { AccountFields } from './account-fields.js';
import { isSentEmail, requiredThen } from './auth-checks.js';
import { AuthForm, AuthMessage, AuthSubmit, EmailField, useAuthSubmit } from './auth-form.js';

type BetaChecked = OperationOutput<typeof registrationOperations.checkBetaKey>;

// Also shown on the root host, where there is no AuthProvider: calls go out without a token.
const api = createApiClient({ getToken: () => null, refreshToken: async () => null });

const SERVER_ERROR = 'Server Error';
const EMAIL_HINT = 'Use the email your beta key was sent to.';

export interface RegisterScreenProps {
  /** Where the browser goes once the workspace exists (tests pass their own). */
  onRegistered?: (url: string) => void;
}

/** Registration (spec "Register (two steps)"): check the beta key, then create the workspace and its owner. */
export default function RegisterScreen({ onRegistered = (url) => window.location.assign(url) }: RegisterScreenProps) {
  const [params] = useSearchParams();
  const [checked, setChecked] = useState<BetaChecked | null>(null);
  return checked ? (
    <CreateWorkspaceStep checked={checked} onRegistered={onRegistered} />
  ) : (
    <BetaKeyStep initialCode={params.get('beta_code') ?? ''} onChecked={setChecked} />
  );
}

function BetaKeyStep({ initialCode, onChecked }: { initialCode: string; onChecked(checked: BetaChecked): void }) {
  const [email, setEmail] = useState('');
  const [code, setCode] = useState(initialCode);
  const send = useAuthSubmit();
  const form = useShownErrors({
    email: requiredThen(email, isSentEmail, messages.invalidEmail),
    code: isRequired(code) ? null : messages.required,
  });

  function submit(event: FormEvent) {
    form.attempt();
    // Success keeps submitting on: this step is replaced by the next one.
    return send.run(
      event,
      form.valid,
      async () => {
        const body = { beta_key: code.trim(), email: email.trim() };
        onChecked(await api.call(registrationOperations.checkBetaKey, { body }));
      },
      (failure) => errorMessage(failure, SERVER_ERROR),
    );
  }

  return (
    <AuthForm title="Register" subtitle="Enter your email and the beta code you received." onSubmit={submit}>
      {send.error && <AuthMessage text={send.error} />}
      <EmailField id="register-email" value={email} onChange={send.change(setEmail)} form={form} field="email" />
      <TextField
        id="register-beta-code"
        label="Beta Code"
        autoComplete="off"
        value={code}
        onChange={send.change(setCode)}
        onBlur={() => form.touch('code')}
        error={form.shown('code')}
      />
      <AuthSubmit label="Continue" disabled={!form.valid || send.submitting} pending={send.submitting} />
    </AuthForm>
  );
}

function domainError(domain: string): string | null {
  return isRequired(domain) ? workspaceDomainError(domain) : messages.required;
}

function CreateWorkspaceStep({ checked, onRegistered }: { checked: BetaChecked; onRegistered(url: string): void }) {
  const config = readAppConfig();
  const [email, setEmail] = useState(checked.email);
  const [name, setName] = useState('');
  const handle = useSlugField(name, handleTyping);
  const [password, setPassword] = useState('');
  const [workspaceName, setWorkspaceName] = useState('');
  const domain = useSlugField(workspaceName, handleTyping);
  const [betaCode, setBetaCode] = useState(checked.beta_key);
  const send = useAuthSubmit();

  const form = useShownErrors({
    email: requiredThen(email, isSentEmail, messages.emailNotValid),
    name: isRequired(name) ? null : messages.required,
    handle: requiredThen(handle.value, isHandle, messages.handleNotValid),
    password: requiredThen(password, isStrongPassword, messages.passwordNotStrongLong),
    workspaceName: isRequired(workspaceName) ? null : messages.required,
    domain: domainError(domain.value),
    betaCode: requiredThen(betaCode, (value) => isBetaCode(value.trim()), messages.invalidBetaCode),
  });

  function submit(event: FormEvent) {
    form.attempt();
    return send.run(
      event,
      form.valid,
      async () => {
        const body: BodyOf<typeof registrationOperations.registerWorkspace> = {
          beta_key: betaCode.trim(),
          owner: { email: email.trim(), name: name.trim(), handle: handle.value, password },
          workspace: { name: workspaceName.trim(), domain: domain.value },
        };
        const registered = await api.call(registrationOperations.registerWorkspace, { body });
        // Submitting stays on while the browser leaves for the new workspace.
        const login = new URLSearchParams({ registered: '1', email: email.trim() });
        onRegistered(`${workspaceOrigin(registered.domain, config)}/login?${login}`);
      },
      (failure) => (failure instanceof ApiError ? failure.firstError() : SERVER_ERROR),
    );
  }

  return (
    <AuthForm title="Create workspace" subtitle="Set up your account and your workspace." onSubmit={submit}>
      {send.error && <AuthMessage text={send.error} />}
      <fieldset className="flex flex-column gap-3 border-none p-0 m-0">
        <legend className="font-semibold mb-2">Your account</legend>
        <EmailField
          id="register-owner-email"
          value={email}
          onChange={send.change(setEmail)}
          form={form}
          field="email"
          hint={EMAIL_HINT}
        />
        <AccountFields
          prefix="register-owner"
          name={name}
          handle={handle}
          password={password}
          form={form}
          onName={send.change(setName)}
          onHandle={send.change(handle.edit)}
          onPassword={send.change(setPassword)}
        />
      </fieldset>
      <fieldset className="flex flex-column gap-3 border-none p-0 m-0">
        <legend className="font-semibold mb-2">Your workspace</legend>
        <TextField
          id="register-workspace-name"
          label="Workspace Name"
          autoComplete="organization"
          value={workspaceName}
          onChange={send.change((value) => {
            setWorkspaceName(value);
            domain.sourceChanged();
          })}
          onBlur={() => (domain.edited ? form.touch('workspaceName') : form.touch('workspaceName', 'domain'))}
          error={form.shown('workspaceName')}
        />
        <TextField
          id="register-workspace-domain"
          label="Workspace Domain"
          autoComplete="off"
          value={domain.value}
          onChange={send.change(domain.edit)}
          onBlur={() => form.touch('domain')}
          hint={`Your workspace will be at ${domain.value || 'your-domain'}.${config.baseDomain}`}
          error={form.shown('domain')}
        />
        <TextField
          id="register-beta-code-confirm"
          label="Beta Code"
          autoComplete="off"
          value={betaCode}
          onChange={send.change(setBetaCode)}
          onBlur={() => form.touch('betaCode')}
          error={form.shown('betaCode')}
        />
      </fieldset>
      <AuthSubmit label="Create Workspace" disabled={!form.valid || send.submitting} pending={send.submitting} />
    </AuthForm>
  );
}
