import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import type { ReactNode } from 'react';
import { TextField } from './form.js';

/** Parts of the admin editors' long forms (status pages, scorecards): titled cards, errors and row buttons. */

/** One part of a long form: a card with its title as a heading. */
export function FormCard({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">{title}</h2>} id={id}>
      <div className="flex flex-column gap-3">{children}</div>
    </Card>
  );
}

/** An error under a control (or a group of them), nothing when there is none. */
export function FieldError({ id, error }: { id: string; error: string | null | undefined }) {
  if (!error) return null;
  return (
    <small id={id} className="p-error">
      {error}
    </small>
  );
}

/**
 * The handle of what an editor makes (a status page's, a scorecard's): it follows the name while new and is fixed
 * once saved; `address` shows where the handle puts it.
 */
export function FixedHandleField({
  id,
  handle,
  creating,
  noun,
  address,
  error,
  onChange,
  onBlur,
}: {
  id: string;
  handle: string;
  creating: boolean;
  noun: string;
  address: (handle: string) => string;
  error: string | null;
  onChange(value: string): void;
  onBlur(): void;
}) {
  return (
    <TextField
      id={id}
      label="Handle"
      value={handle}
      autoComplete="off"
      disabled={!creating}
      onChange={onChange}
      onBlur={onBlur}
      hint={
        creating
          ? `Part of the ${noun}'s address (${address(handle || 'handle')}); it cannot be changed later.`
          : `The handle is fixed once the ${noun} exists.`
      }
      error={error}
    />
  );
}

/** A refused save's errors that name no field, announced at once; nothing when there are none. */
export function FormErrors({ lines }: { lines: readonly string[] | undefined }) {
  if (!lines?.length) return null;
  return (
    <div role="alert" className="flex flex-column gap-1">
      {lines.map((line, index) => (
        <small key={index} className="p-error">
          {line}
        </small>
      ))}
    </div>
  );
}

/** The editor's submit button: creates while new, saves after, busy while a save is under way. */
export function EditorSubmit({ label, pending }: { label: string; pending: boolean }) {
  return (
    <div>
      <Button type="submit" label={label} icon="pi pi-check" loading={pending} disabled={pending} />
    </div>
  );
}

/** An icon button for a row: named for assistive technology, its name also its tooltip. */
export function RowButton({
  id,
  icon,
  label,
  disabled,
  danger,
  onClick,
}: {
  id: string;
  icon: string;
  label: string;
  disabled?: boolean;
  danger?: boolean;
  onClick(): void;
}) {
  return (
    <Button
      type="button"
      id={id}
      icon={`pi ${icon}`}
      text
      rounded
      severity={danger ? 'danger' : 'secondary'}
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
    />
  );
}

/** `list` with the item at `index` moved `by` places (kept within the list). */
export function moveItem<T>(list: readonly T[], index: number, by: number): T[] {
  const to = Math.min(Math.max(index + by, 0), list.length - 1);
  const next = [...list];
  const [item] = next.splice(index, 1);
  next.splice(to, 0, item!);
  return next;
}
