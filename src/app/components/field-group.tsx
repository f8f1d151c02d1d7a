import { useMutation } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { useState, type FormEvent } from 'react';

/** Spec (platform, field groups): the Save button shows only when the value differs from the saved one. */
export function fieldChanged(draft: string, saved: string | null): boolean {
  return draft !== (saved ?? '');
}

export interface FieldGroupProps {
  id: string;
  label: string;
  saved: string | null;
  onSave: (value: string) => Promise<unknown>;
  multiline?: boolean;
  /** Rows of a multiline field. */
  rows?: number;
  autoResize?: boolean;
  required?: boolean;
  type?: 'text' | 'url';
  /** A hint above the field, read out with it. */
  description?: string;
  /** Keeps the label for assistive technology only (when a card title already names the field). */
  hideLabel?: boolean;
}

/**
 * One field edited in place with its own Save. The parent keys it by the saved value, so a successful save (which
 * replaces the record) starts it afresh with nothing changed; a failed one keeps the draft.
 */
export function FieldGroup({
  id,
  label,
  saved,
  onSave,
  multiline = false,
  rows = 3,
  autoResize = false,
  required = false,
  type = 'text',
  description,
  hideLabel = false,
}: FieldGroupProps) {
  const [draft, setDraft] = useState(saved ?? '');
  const save = useMutation({ mutationFn: onSave });
  const changed = fieldChanged(draft, saved);
  const valid = !required || draft.trim().length > 0;
  const hintId = description ? `${id}-hint` : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (changed && valid && !save.isPending) save.mutate(draft);
  }

  const input = { id, value: draft, 'aria-describedby': hintId, className: 'flex-1' };
  return (
    <form onSubmit={submit} className="flex flex-column gap-2" noValidate>
      {description && (
        <p id={hintId} className="m-0 text-700">
          {description}
        </p>
      )}
      <label htmlFor={id} className={hideLabel ? 'p-hidden-accessible' : 'font-semibold'}>
        {label}
      </label>
      <div className="flex gap-2 align-items-start">
        {multiline ? (
          <InputTextarea
            {...input}
            rows={rows}
            autoResize={autoResize}
            onChange={(event) => setDraft(event.target.value)}
          />
        ) : (
          <InputText {...input} type={type} onChange={(event) => setDraft(event.target.value)} />
        )}
        {changed && (
          <Button type="submit" label="Save" aria-label={`Save ${label}`} disabled={!valid} loading={save.isPending} />
        )}
      </div>
    </form>
  );
}
