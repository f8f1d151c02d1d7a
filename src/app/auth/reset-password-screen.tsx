import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { passwordOperations } from '../../contract/operations/passwords.js';
import { isRequired, isStrongPassword, messages } from '../../domain/validators.js';
import { requiredThen } from './auth-checks.js';
import { errorMessage, useShownErrors } from '../components/form.js';
import { useSnackbar } from '../components/snackbars.js';
import { useAuth } from '../session/auth-context.js';
import { AuthForm, AuthMessage, AuthSubmit, NewPasswordField, useAuthSubmit } from './auth-form.js';

const SERVER_ERROR = 'Server Error';
const DONE = 'Your password has been reset';
// The server's text for a bad key; a link without one cannot work, so it is said up front.
const MISSING_KEY = 'This reset link is invalid or has expired';

/** Reset password (spec): a new password for the key of a mailed link, then on to /login. */
export default function ResetPasswordScreen() {
  const { api } = useAuth();
  const { enqueue } = useSnackbar();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const key = params.get('key') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const send = useAuthSubmit();
  const form = useShownErrors({
    password: requiredThen(password, isStrongPassword, messages.passwordNotStrong),
    confirm: !isRequired(confirm) ? messages.required : confirm !== password ? messages.confirmPasswordMismatch : null,
  });

  function submit(event: FormEvent) {
    form.attempt();
    return send.run(
      event,
      form.valid && key !== '',
      async () => {
        const answer = await api.call(passwordOperations.resetPassword, { body: { key, password } });
        enqueue(answer?.message || DONE, 'success');
        navigate('/login', { replace: true });
      },
      (failure) => errorMessage(failure, SERVER_ERROR),
    );
  }

  return (
    <AuthForm title="Reset password" subtitle="Choose a new password for your account." onSubmit={submit}>
      {!key && <AuthMessage text={MISSING_KEY} />}
      {send.error && <AuthMessage text={send.error} />}
      <NewPasswordField
        id="reset-password"
        value={password}
        onChange={send.change(setPassword)}
        form={form}
        field="password"
      />
      <NewPasswordField
        id="reset-confirm-password"
        label="Confirm Password"
        value={confirm}
        onChange={send.change(setConfirm)}
        form={form}
        field="confirm"
      />
      <AuthSubmit label="Reset Password" disabled={!form.valid || !key || send.submitting} pending={send.submitting} />
    </AuthForm>
  );
}
