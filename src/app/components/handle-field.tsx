import { useCallback, useRef, useState } from 'react';
import { isHandle } from '../../domain/validators.js';
import { serviceOperations } from '../../contract/operations/services.js';
import { teamOperations } from '../../contract/operations/teams.js';
import { ApiError, type ApiClient } from '../api/client.js';
import { useAuth } from '../session/auth-context.js';
import { TextField } from './form.js';

/** Spec platform 5: the texts of the handle check, the same for services and teams. */
export const HANDLE_TAKEN = 'Service handle is already taken';
export const HANDLE_AVAILABLE = 'Service handle is available';

export type HandleKind = 'team' | 'service';

/** Spec platform 4: unknown, available or taken; `checking` while the call runs. */
export type HandleStatus = 'unknown' | 'checking' | 'available' | 'taken';

export interface HandleAvailability {
  /** The status of the handle as it is now: a result for another (older) handle reads `unknown`. */
  status: HandleStatus;
  /** Checks the current handle (on blur); an invalid or already checked handle is not sent. */
  check(): void;
  /** Marks the current handle taken, e.g. after a create answered 409. */
  markTaken(): void;
}

/** Spec platform 7: GET /team/{handle} and GET /services/{handle}; any answer but 404 means taken. */
function lookUpHandle(api: ApiClient, kind: HandleKind, handle: string): Promise<unknown> {
  return kind === 'team'
    ? api.call(teamOperations.checkTeamHandle, { params: { handle } })
    : api.call(serviceOperations.getService, { params: { service: handle } });
}

interface Checked {
  kind: HandleKind;
  handle: string;
  status: HandleStatus;
}

/** A 404 means available; any other outcome, an answer or a network failure, means taken (spec platform 5). */
export function useHandleAvailability(kind: HandleKind, handle: string): HandleAvailability {
  const { api } = useAuth();
  const [checked, setChecked] = useState<Checked | null>(null);
  // The last handle sent: a slower answer for an earlier handle must not overwrite it.
  const latest = useRef<string | null>(null);
  const current = checked?.kind === kind && checked.handle === handle ? checked : null;

  const check = useCallback(() => {
    if (!isHandle(handle) || current) return;
    const key = `${kind}:${handle}`;
    latest.current = key;
    setChecked({ kind, handle, status: 'checking' });
    lookUpHandle(api, kind, handle)
      .then(
        (): HandleStatus => 'taken',
        (error: unknown): HandleStatus => (error instanceof ApiError && error.status === 404 ? 'available' : 'taken'),
      )
      .then((status) => {
        if (latest.current === key) setChecked({ kind, handle, status });
      });
  }, [api, kind, handle, current]);

  const markTaken = useCallback(() => {
    latest.current = null;
    setChecked({ kind, handle, status: 'taken' });
  }, [kind, handle]);

  return { status: current?.status ?? 'unknown', check, markTaken };
}

export interface HandleFieldProps {
  id: string;
  label?: string;
  value: string;
  onChange(value: string): void;
  onBlur?(): void;
  /** A validation error to show now; it wins over the availability text. */
  error?: string | null;
  availability: HandleAvailability;
  disabled?: boolean;
}

/**
 * A handle input that checks availability when left: 'Service handle is already taken' as its error,
 * 'Service handle is available' as its hint. The region is live so the result is announced after leaving.
 */
export function HandleField({
  id,
  label = 'Handle',
  value,
  onChange,
  onBlur,
  error,
  availability,
  disabled,
}: HandleFieldProps) {
  const taken = availability.status === 'taken' ? HANDLE_TAKEN : null;
  const shownError = error || taken;
  const hint = !shownError && availability.status === 'available' ? HANDLE_AVAILABLE : undefined;
  return (
    <div aria-live="polite">
      <TextField
        id={id}
        label={label}
        value={value}
        autoComplete="off"
        disabled={disabled}
        onChange={onChange}
        onBlur={() => {
          onBlur?.();
          availability.check();
        }}
        error={shownError}
        hint={hint}
      />
    </div>
  );
}
