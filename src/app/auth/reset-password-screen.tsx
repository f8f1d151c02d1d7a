import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { passwordOperations } from '../../contract/operations/passwords.js';
import { isRequired, isStrongPassword, messages } from '../../domain/validators.js';
import { errorMessage, TextField, useShownErrors } from '../components/form.js';
import { useSnackbar } from '../components/snackbars.js';
import { useAuth } from '../session/auth-context.js';
import { AuthCard } from './auth-card.js';

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
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const form = useShownErrors({
    password: !isRequired(password)
      ? messages.required
      : !isStrongPassword(password)
        ? messages.passwordNotStrong
        : null,
    confirm: !isRequired(confirm) ? messages.required : confirm !== password ? messages.confirmPasswordMismatch : null,
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.attempt();
    if (!form.valid || !key || submitting) return;
    setSubmitting(true);
    setError(null);
    try {
      const answer = await api.call(passwordOperations.resetPassword, { body: { key, password } });
      enqueue(answer?.message || DONE, 'success');
      navigate('/login', { replace: true });
    } catch (failure) {
      setError(errorMessage(failure, SERVER_ERROR));
      setSubmitting(false);
    }
  }

  const change = (set: (value: string) => void) => (value: string) => {
    set(value);
    setError(null);
  };

  return (
    <AuthCard title="Reset password" subtitle="Choose a new password for your account.">
      <form onSubmit={submit} className="flex flex-column gap-3" noValidate>
        {!key && <Message severity="error" text={MISSING_KEY} className="w-full justify-content-start" />}
        {error && <Message severity="error" text={error} className="w-full justify-content-start" />}
        <TextField
          id="reset-password"
          label="Password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={change(setPassword)}
          onBlur={() => form.touch('password')}
          error={form.shown('password')}
        />
        <TextField
          id="reset-confirm-password"
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={change(setConfirm)}
          onBlur={() => form.touch('confirm')}
          error={form.shown('confirm')}
        />
        <Button
          type="submit"
          label="Reset Password"
          disabled={!form.valid || !key || submitting}
          loading={submitting}
        />
      </form>
    </AuthCard>
  );
}
