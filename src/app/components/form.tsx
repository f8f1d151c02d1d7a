import { InputText } from 'primereact/inputtext';
import { useCallback, useState, type ReactNode } from 'react';
import { slugify } from '../../domain/validators.js';
import { ApiError } from '../api/client.js';

export interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  onBlur?(): void;
  /** The error to show now (null while hidden or valid). */
  error?: string | null;
  /** Help text shown under the field at all times. */
  hint?: string;
  type?: 'text' | 'email' | 'password' | 'number' | 'url';
  /** Bounds of a whole number field (type 'number'). */
  min?: number;
  max?: number;
  autoComplete?: string;
  disabled?: boolean;
  /** Shown while empty (a write-only secret already set says "set"). */
  placeholder?: string;
}

/** What the control inside a LabelledControl carries, so its hint and errors are read with it. */
export interface ControlAria {
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * A control with its label above and its hint and errors below, wired to it for assistive technology: one
 * error is one line, several (a text's lines: 'Line 2: ...') a line each.
 */
export function LabelledControl({
  id,
  label,
  hint,
  errors,
  control,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  errors: readonly string[];
  control(aria: ControlAria): ReactNode;
}) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const invalid = errors.length > 0;
  const describedBy = [hint ? hintId : null, invalid ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-column gap-1">
      <label htmlFor={id}>{label}</label>
      {control({ 'aria-invalid': invalid ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <small id={hintId} className="text-600">
          {hint}
        </small>
      )}
      {errors.length === 1 && (
        <small id={errorId} className="p-error">
          {errors[0]}
        </small>
      )}
      {errors.length > 1 && (
        <div id={errorId} className="flex flex-column gap-1">
          {errors.map((error, index) => (
            <small key={index} className="p-error">
              {error}
            </small>
          ))}
        </div>
      )}
    </div>
  );
}

/** A labelled input with its hint and error wired to it for assistive technology. */
export function TextField({
  id,
  label,
  value,
  onChange,
  onBlur,
  error,
  hint,
  type = 'text',
  min,
  max,
  autoComplete,
  disabled,
  placeholder,
}: TextFieldProps) {
  const number = type === 'number' ? { inputMode: 'numeric' as const, min, max, step: 1 } : {};
  return (
    <LabelledControl
      id={id}
      label={label}
      hint={hint}
      errors={error ? [error] : []}
      control={(aria) => (
        <InputText
          id={id}
          type={type}
          {...number}
          autoComplete={autoComplete}
          value={value}
          placeholder={placeholder}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
          className={error ? 'p-invalid' : undefined}
          {...aria}
        />
      )}
    />
  );
}

/**
 * Which field errors to show: a field's error appears once the field was touched (left) or after a
 * submit attempt, so a fresh form is not covered in red.
 */
export function useShownErrors<K extends string>(errors: Record<K, string | null>) {
  const [touched, setTouched] = useState<Partial<Record<K, boolean>>>({});
  const [attempted, setAttempted] = useState(false);
  const touch = useCallback(
    (...keys: K[]) => setTouched((current) => ({ ...current, ...Object.fromEntries(keys.map((key) => [key, true])) })),
    [],
  );
  return {
    shown: (key: K): string | null => (attempted || touched[key] ? errors[key] : null),
    touch,
    attempt: () => setAttempted(true),
    valid: Object.values<string | null>(errors).every((error) => !error),
  };
}

/**
 * Spec section 5: typing in a handle is limited to lowercase letters, digits and hyphen (the join form:
 * lowercase letters and hyphen). Capitals are lowered rather than dropped.
 */
export function handleTyping(value: string, { digits = true }: { digits?: boolean } = {}): string {
  return value.toLowerCase().replace(digits ? /[^a-z0-9-]/g : /[^a-z-]/g, '');
}

/**
 * A handle that follows slugify(source) until the user types in it. Emptied by the user, it waits for the
 * next change of the source to follow again (refilling at once would fight the user's own edit).
 */
export function useSlugField(source: string, filter: (value: string) => string) {
  const [typed, setTyped] = useState<string | null>(null);
  return {
    value: typed ?? slugify(source),
    edited: typed !== null,
    edit: (value: string) => setTyped(filter(value)),
    sourceChanged: () => setTyped((current) => (current === '' ? null : current)),
  };
}

/** The text of a failed call: the server's message, else the fallback (a network failure has none). */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}

/**
 * A refused create as a form shows it (docs/decisions.md#open-decisions): the server's field errors by field, and its
 * message.
 */
export interface ServerErrors {
  fields: Record<string, string>;
  message: string;
}

export function serverErrorsOf(error: unknown, fallback: string): ServerErrors {
  if (!(error instanceof ApiError)) return { fields: {}, message: fallback };
  const fields = Object.fromEntries(
    Object.entries(error.body.errors ?? {}).flatMap(([field, [first]]) => (first ? [[field, first]] : [])),
  );
  return { fields, message: error.message || fallback };
}
