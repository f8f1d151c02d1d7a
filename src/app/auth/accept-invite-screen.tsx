import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { inviteOperations } from '../../contract/operations/invites.js';
import { isHandle, isRequired, isStrongPassword, messages } from '../../domain/validators.js';
import { handleTyping, useShownErrors, useSlugField } from '../components/form.js';
import { useSnackbar } from '../components/snackbars.js';
import { useAuth } from '../session/auth-context.js';
import { AccountFields } from './account-fields.js';
import { AuthCard } from './auth-card.js';

const FAILURE = 'There was an error when submitting your data';
const JOINED = 'Your account is ready, you can log in now';

// Spec: typing in the join form's handle is limited to lowercase letters and hyphen.
const joinHandleTyping = (value: string) => handleTyping(value, { digits: false });

/** Accept invitation (/invite/{id}?code=): the invited person picks a name, handle and password. */
export default function AcceptInviteScreen() {
  const { api, domain, state } = useAuth();
  const { enqueue } = useSnackbar();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const [name, setName] = useState('');
  const handle = useSlugField(name, joinHandleTyping);
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState(false);
  const form = useShownErrors({
    name: isRequired(name) ? null : messages.required,
    handle: !isRequired(handle.value)
      ? messages.required
      : !isHandle(handle.value)
        ? messages.joinHandleNotValid
        : null,
    password: !isRequired(password)
      ? messages.required
      : !isStrongPassword(password)
        ? messages.passwordNotStrong
        : null,
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.attempt();
    if (!form.valid || submitting) return;
    setSubmitting(true);
    setError(false);
    try {
      await api.call(inviteOperations.joinWorkspace, {
        body: { workspace: domain, invite: { id, code }, user: { name: name.trim(), handle: handle.value, password } },
      });
      enqueue(JOINED, 'success');
      navigate('/login', { replace: true });
    } catch {
      setError(true);
      setSubmitting(false);
    }
  }

  const change = (set: (value: string) => void) => (value: string) => {
    set(value);
    setError(false);
  };

  return (
    <AuthCard
      title="Join Beacon"
      subtitle={state.workspace ? `You were invited to ${state.workspace.name}.` : undefined}
    >
      <form onSubmit={submit} className="flex flex-column gap-3" noValidate>
        {error && <Message severity="error" text={FAILURE} className="w-full justify-content-start" />}
        <AccountFields
          prefix="join"
          name={name}
          handle={handle}
          password={password}
          form={form}
          onName={change(setName)}
          onHandle={change(handle.edit)}
          onPassword={change(setPassword)}
        />
        <Button type="submit" label="Join" disabled={!form.valid || submitting} loading={submitting} />
      </form>
    </AuthCard>
  );
}
