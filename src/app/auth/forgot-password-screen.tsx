import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { passwordOperations } from '../../contract/operations/passwords.js';
import { isEmail, isRequired, messages } from '../../domain/validators.js';
import { TextField, useShownErrors } from '../components/form.js';
import { useAuth } from '../session/auth-context.js';
import { AuthCard } from './auth-card.js';

const SUCCESS = 'We emailed you a link to reset your password!';
const FAILURE = 'There was an issue while trying to reset your password';

type Status = 'idle' | 'submitting' | 'success' | 'error';

/** Forgot password (spec): mails a reset link for this workspace. */
export default function ForgotPasswordScreen() {
  const { api, domain } = useAuth();
  const [email, setEmail] = useState('');
  const [status, setStatus] = useState<Status>('idle');
  const form = useShownErrors({
    email: !isRequired(email) ? messages.required : !isEmail(email.trim()) ? messages.invalidEmail : null,
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    form.attempt();
    if (!form.valid || status === 'submitting') return;
    setStatus('submitting');
    try {
      await api.call(passwordOperations.forgotPassword, { body: { workspace: domain, email: email.trim() } });
      setStatus('success');
    } catch {
      setStatus('error');
    }
  }

  return (
    <AuthCard title="Forgot password" subtitle="Enter your email and we will send you a link to choose a new password.">
      <form onSubmit={submit} className="flex flex-column gap-3" noValidate>
        {status === 'success' && <Message severity="success" text={SUCCESS} className="w-full justify-content-start" />}
        {status === 'error' && <Message severity="error" text={FAILURE} className="w-full justify-content-start" />}
        {/* Once the link is on its way there is nothing left to fill in. */}
        {status !== 'success' && (
          <>
            <TextField
              id="forgot-email"
              label="Email"
              type="email"
              autoComplete="email"
              value={email}
              onChange={setEmail}
              onBlur={() => form.touch('email')}
              error={form.shown('email')}
            />
            <Button
              type="submit"
              label="Submit"
              disabled={!form.valid || status === 'submitting'}
              loading={status === 'submitting'}
            />
          </>
        )}
        <Link to="/login" className="text-center">
          Return to Login
        </Link>
      </form>
    </AuthCard>
  );
}
