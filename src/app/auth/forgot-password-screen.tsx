import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { passwordOperations } from '../../contract/operations/passwords.js';
import { messages } from '../../domain/validators.js';
import { isSentEmail, requiredThen } from './auth-checks.js';
import { useShownErrors } from '../components/form.js';
import { useAuth } from '../session/auth-context.js';
import { AuthForm, AuthMessage, AuthSubmit, EmailField, useAuthSubmit } from './auth-form.js';

const SUCCESS = 'We emailed you a link to reset your password!';
const FAILURE = 'There was an issue while trying to reset your password';

/** Forgot password (spec): mails a reset link for this workspace. */
export default function ForgotPasswordScreen() {
  const { api, domain } = useAuth();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const send = useAuthSubmit();
  const form = useShownErrors({
    email: requiredThen(email, isSentEmail, messages.invalidEmail),
  });

  function submit(event: FormEvent) {
    form.attempt();
    return send.run(
      event,
      form.valid,
      async () => {
        await api.call(passwordOperations.forgotPassword, { body: { workspace: domain, email: email.trim() } });
        setSent(true);
      },
      () => FAILURE,
    );
  }

  return (
    <AuthForm
      title="Forgot password"
      subtitle="Enter your email and we will send you a link to choose a new password."
      onSubmit={submit}
    >
      {sent && <AuthMessage severity="success" text={SUCCESS} />}
      {send.error && <AuthMessage text={send.error} />}
      {/* Once the link is on its way there is nothing left to fill in. */}
      {!sent && (
        <>
          {/* A failure stays said while the email is corrected: it is about the last try. */}
          <EmailField id="forgot-email" value={email} onChange={setEmail} form={form} field="email" />
          <AuthSubmit label="Submit" disabled={!form.valid || send.submitting} pending={send.submitting} />
        </>
      )}
      <Link to="/login" className="text-center">
        Return to Login
      </Link>
    </AuthForm>
  );
}
