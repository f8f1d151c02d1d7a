import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ApiClient } from '../api/client.js';
import { useApi } from '../session/use-api.js';
import { handleTyping, TextField, useSlugField } from './form.js';
import { EditorSubmit, FixedHandleField, FormErrors } from './form-parts.js';
import { useSnackbar } from './snackbars.js';
import { TextAreaField } from './text-area-field.js';

/**
 * The skeleton the admin editors share (status pages, scorecards): a name, a handle that follows it while new and is
 * fixed once saved, a description; a save that creates (then opens the new one's editor) or updates; a refused save's
 * errors kept for the form to place by field; a submit with errors focusing the first. What each editor adds (its
 * other fields, how it places and clears the server's errors) stays in the editor.
 */

/** The id of the first field (in `ids`' order, the form's) whose error is set. */
export function firstErrorId<F extends string>(ids: Record<F, string>, errors: Record<F, string | null>) {
  return (Object.keys(ids) as F[]).map((field) => (errors[field] ? ids[field] : null)).find(Boolean) ?? undefined;
}

/** A refused save as an editor places it: at least the errors by top-level field. */
interface Refusal {
  fields: Partial<Record<string, string>>;
}

export interface EditorSaveOptions<Saved extends { handle: string }, Draft, Refused extends Refusal> {
  /** The saved one, or null while new. */
  saved: Saved | null;
  /** The draft's name as typed: a new one's handle follows it. */
  name: string;
  create(api: ApiClient, handle: string, draft: Draft): Promise<Saved>;
  update(api: ApiClient, handle: string, draft: Draft): Promise<Saved>;
  store(queryClient: QueryClient, saved: Saved): void;
  created: string;
  updated: string;
  /** The saved one's editor, where a create goes on. */
  pathOf(handle: string): string;
  /** A refused save's errors, placed on the draft that was sent. */
  refusal(error: unknown, sent: Draft): Refused;
}

export function useEditorSave<Saved extends { handle: string }, Draft, Refused extends Refusal>(
  options: EditorSaveOptions<Saved, Draft, Refused>,
) {
  const { saved } = options;
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { enqueue } = useSnackbar();
  const creating = saved === null;
  const slug = useSlugField(creating ? options.name : '', handleTyping);
  const handle = saved ? saved.handle : slug.value;
  const [refused, setRefused] = useState<Refused | null>(null);

  const save = useMutation({
    mutationFn: (sent: Draft) => (saved ? options.update(api, saved.handle, sent) : options.create(api, handle, sent)),
    onSuccess: (answer) => {
      options.store(queryClient, answer);
      if (saved) {
        enqueue(options.updated);
      } else {
        enqueue(options.created);
        navigate(options.pathOf(answer.handle), { replace: true });
      }
    },
    // Refusals show in the form, by their fields (docs/decisions.md#open-decisions: a user must learn why), never only
    // as a toast.
    onError: (error, sent) => setRefused(options.refusal(error, sent)),
  });

  /**
   * Sends the draft unless a save is under way; with errors it focuses the first instead (`firstError`, the id of
   * its field, if any). The caller marks the attempt first, so its errors show.
   */
  function submit(event: FormEvent, draft: Draft, check: { valid: boolean; firstError(): string | undefined }) {
    event.preventDefault();
    if (save.isPending) return;
    if (!check.valid) {
      const first = check.firstError();
      if (first) document.getElementById(first)?.focus();
      return;
    }
    setRefused(null);
    save.mutate(draft);
  }

  /** Types in a new one's handle: the server's error about it goes. */
  function editHandle(value: string) {
    slug.edit(value);
    if (refused?.fields.handle) setRefused({ ...refused, fields: { ...refused.fields, handle: undefined } });
  }

  return { creating, slug, handle, editHandle, refused, setRefused, pending: save.isPending, submit };
}

/** What the name fields need of useEditorSave. */
export interface EditorSave {
  creating: boolean;
  slug: ReturnType<typeof useSlugField>;
  handle: string;
  editHandle(value: string): void;
  refused: Refusal | null;
}

type NameField = 'handle' | 'description';

/**
 * The editor's name, handle and description. `nameKey` is the name's key in the form's errors (a status page's name
 * is its title); each field shows its own error once shown, else the server's.
 */
export function EditorNameFields<F extends string>({
  editor,
  form,
  nameKey,
  ids,
  nameLabel,
  name,
  onName,
  noun,
  address,
  description,
  onDescription,
  descriptionRows,
  descriptionHint,
}: {
  editor: EditorSave;
  form: { shown(field: F | NameField): string | null; touch(...fields: (F | NameField)[]): void };
  nameKey: F;
  ids: { name: string; handle: string; description: string };
  nameLabel: string;
  name: string;
  onName(value: string): void;
  /** How the handle's hint names what it is the handle of, and where it puts it. */
  noun: string;
  address(handle: string): string;
  description: string;
  onDescription(value: string): void;
  descriptionRows: number;
  descriptionHint: string;
}) {
  const { creating, slug, refused } = editor;
  const error = (field: F | NameField) => form.shown(field) ?? refused?.fields[field] ?? null;
  const descriptionError = error('description');
  return (
    <>
      <TextField
        id={ids.name}
        label={nameLabel}
        value={name}
        autoComplete="off"
        onChange={(value) => {
          onName(value);
          slug.sourceChanged();
        }}
        onBlur={() => {
          // A handle filled from the name is checked as soon as the name is done.
          if (creating && !slug.edited) form.touch(nameKey, 'handle');
          else form.touch(nameKey);
        }}
        error={error(nameKey)}
      />
      <FixedHandleField
        id={ids.handle}
        handle={editor.handle}
        creating={creating}
        noun={noun}
        address={address}
        onChange={editor.editHandle}
        onBlur={() => form.touch('handle')}
        error={error('handle')}
      />
      <TextAreaField
        id={ids.description}
        label="Description"
        value={description}
        rows={descriptionRows}
        onChange={onDescription}
        onBlur={() => form.touch('description')}
        hint={descriptionHint}
        errors={descriptionError ? [descriptionError] : []}
      />
    </>
  );
}

/** The editor's form: its cards, then the refused save's errors that name no field and the submit button. */
export function EditorFrame({
  label,
  onSubmit,
  submitLabel,
  pending,
  errors,
  children,
}: {
  /** The form's accessible name. */
  label: string;
  onSubmit(event: FormEvent): void;
  submitLabel: string;
  pending: boolean;
  errors: readonly string[] | undefined;
  children: ReactNode;
}) {
  return (
    <form className="flex flex-column gap-3" onSubmit={onSubmit} noValidate aria-label={label}>
      {children}
      <FormErrors lines={errors} />
      <EditorSubmit label={submitLabel} pending={pending} />
    </form>
  );
}
