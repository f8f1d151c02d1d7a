import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { useState, type FormEvent, type ReactNode } from 'react';
import { TextField } from '../components/form.js';
import { AuthCard } from './auth-card.js';

/**
 * The parts every account screen's form is made of (log in, register, forgot and reset password, join), so they
 * look and behave alike: the card with its form, a message above the fields, the submit button, a new password.
 */

/** The account screen's card holding its form (the browser's own checks off: the screen says what is wrong). */
export function AuthForm({
  title,
  subtitle,
  onSubmit,
  children,
}: {
  title: string;
  subtitle?: string | undefined;
  onSubmit(event: FormEvent): void;
  children: ReactNode;
}) {
  return (
    <AuthCard title={title} subtitle={subtitle}>
      <form onSubmit={onSubmit} className="flex flex-column gap-3" noValidate>
        {children}
      </form>
    </AuthCard>
  );
}

/** A message at the top of the form: why a submit failed (the default), or that it worked. */
export function AuthMessage({ text, severity = 'error' }: { text: string; severity?: 'success' | 'error' }) {
  return <Message severity={severity} text={text} className="w-full justify-content-start" />;
}

/** The form's submit button, busy while the call runs. */
export function AuthSubmit({ label, disabled, pending }: { label: string; disabled: boolean; pending: boolean }) {
  return <Button type="submit" label={label} disabled={disabled} loading={pending} />;
}

/**
 * A submit that runs one call at a time. `submitting` stays on after a success (the screen then leaves or moves on);
 * a failure's text is `error` until the next submit or an edit through `change`.
 */
export function useAuthSubmit() {
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  /** For the form's onSubmit: runs `call` when `ready` (the fields valid) and no call is under way. */
  async function run(
    event: FormEvent,
    ready: boolean,
    call: () => Promise<unknown>,
    failed: (error: unknown) => string,
  ) {
    event.preventDefault();
    if (!ready || submitting) return;
    setSubmitting(true);
    setError(null);
    try {
      await call();
    } catch (failure) {
      setError(failed(failure));
      setSubmitting(false);
    }
  }

  /** A field's change that also clears the last failure: the next attempt gets a fresh answer. */
  const change = (set: (value: string) => void) => (value: string) => {
    set(value);
    setError(null);
  };

  return { submitting, error, run, change };
}

/** What the email and new password fields take: their value, and the form's shown errors (useShownErrors). */
interface ShownFieldProps<F extends string> {
  id: string;
  value: string;
  onChange(value: string): void;
  form: { shown(field: F): string | null; touch(...fields: F[]): void };
  field: F;
}

/** A field's error shows once the field was left or a submit tried. */
const shownError = <F extends string>({ form, field }: ShownFieldProps<F>) => ({
  onBlur: () => form.touch(field),
  error: form.shown(field),
});

/** An email (registering, forgot password); `hint` says which one. */
export function EmailField<F extends string>(props: ShownFieldProps<F> & { hint?: string }) {
  return (
    <TextField
      id={props.id}
      label="Email"
      type="email"
      autoComplete="email"
      value={props.value}
      onChange={props.onChange}
      hint={props.hint}
      {...shownError(props)}
    />
  );
}

/** A new password (registering, joining, resetting). */
export function NewPasswordField<F extends string>(props: ShownFieldProps<F> & { label?: string }) {
  return (
    <TextField
      id={props.id}
      label={props.label ?? 'Password'}
      type="password"
      autoComplete="new-password"
      value={props.value}
      onChange={props.onChange}
      {...shownError(props)}
    />
  );
}
