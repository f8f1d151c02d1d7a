import { Button } from 'primereact/button';
import { useState, type FormEvent } from 'react';
import { inviteOperations } from '../../contract/operations/invites.js';
import { ApiError } from '../api/client.js';
import { useApi } from '../session/use-api.js';
import { TextField } from '../components/form.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { useSnackbar } from '../components/snackbars.js';

const FAILURE = 'Unable to send your invite';

/** Spec: a 409 with an email error (already a member, already invited) says so; anything else is generic. */
function failureText(error: unknown): string {
  return (error instanceof ApiError && error.status === 409 && error.body.errors?.email?.[0]) || FAILURE;
}

/**
 * Invite user (/users/invite). Only owners and admins get the menu entry; anyone reaching the route still
 * sees the form and the server's 403 ends as the generic failure.
 */
export default function InviteUserScreen() {
  const api = useApi();
  const { enqueue } = useSnackbar();
  const [email, setEmail] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useBreadcrumb({ name: 'Users', to: '/users', crumbs: [{ label: 'Invite User' }] });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    // Spec: no client rule for this email; the server judges it.
    setPending(true);
    setError(null);
    try {
      const sent = await api.call(inviteOperations.inviteUser, { body: { email: email.trim() } });
      enqueue(`Successfully invited "${sent.email}"`, 'success');
      setEmail('');
    } catch (failure) {
      const text = failureText(failure);
      setError(text);
      enqueue(text, 'error');
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="surface-card border-round shadow-1 p-4 mx-auto" style={{ maxWidth: 560 }}>
      <h1 className="text-2xl font-semibold mt-0 mb-2">Invite User</h1>
      <p className="text-700 mt-0 mb-4">Enter an email to invite a user to this workspace</p>
      <form onSubmit={submit} className="flex flex-column gap-3" noValidate>
        <TextField
          id="invite-email"
          label="Email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(value) => {
            setEmail(value);
            setError(null);
          }}
          // Snackbars leave after a while; the field keeps the reason until the next edit.
          error={error}
        />
        <Button type="submit" label="Invite User" className="align-self-start" disabled={pending} loading={pending} />
      </form>
    </section>
  );
}
