import { useState, type FormEvent } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { inviteOperations } from '../../contract/operations/invites.js';
import { isHandle, isRequired, isStrongPassword, messages } from '../../domain/validators.js';
import { requiredThen } from './auth-checks.js';
import { handleTyping, useShownErrors, useSlugField } from '../components/form.js';
import { useSnackbar } from '../components/snackbars.js';
import { useAuth } from '../session/auth-context.js';
import { AccountFields } from './account-fields.js';
import { AuthForm, AuthMessage, AuthSubmit, useAuthSubmit } from './auth-form.js';

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
  const send = useAuthSubmit();
  const form = useShownErrors({
    name: isRequired(name) ? null : messages.required,
    handle: requiredThen(handle.value, isHandle, messages.joinHandleNotValid),
    password: requiredThen(password, isStrongPassword, messages.passwordNotStrong),
  });

  function submit(event: FormEvent) {
    form.attempt();
    return send.run(
      event,
      form.valid,
      async () => {
        await api.call(inviteOperations.joinWorkspace, {
          body: {
            workspace: domain,
            invite: { id, code },
            user: { name: name.trim(), handle: handle.value, password },
          },
        });
        enqueue(JOINED, 'success');
        navigate('/login', { replace: true });
      },
      () => FAILURE,
    );
  }

  return (
    <AuthForm
      title="Join Beacon"
      subtitle={state.workspace ? `You were invited to ${state.workspace.name}.` : undefined}
      onSubmit={submit}
    >
      {send.error && <AuthMessage text={send.error} />}
      <AccountFields
        prefix="join"
        name={name}
        handle={handle}
        password={password}
        form={form}
        onName={send.change(setName)}
        onHandle={send.change(handle.edit)}
        onPassword={send.change(setPassword)}
      />
      <AuthSubmit label="Join" disabled={!form.valid || send.submitting} pending={send.submitting} />
    </AuthForm>
  );
}
