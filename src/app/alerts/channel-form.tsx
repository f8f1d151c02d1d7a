import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { alertChannelCreate, type AlertChannel } from '../../contract/alerts.js';
import { ALERT_CHANNEL_KINDS, type AlertChannelKind } from '../../domain/alerts.js';
import { EditorFrame, firstErrorId } from '../components/editor-form.js';
import { TextField, serverErrorsOf, useShownErrors } from '../components/form.js';
import { LabelledSelect } from '../components/labelled-select.js';
import { useSnackbar } from '../components/snackbars.js';
import { TextAreaField } from '../components/text-area-field.js';
import { useApi } from '../session/use-api.js';
import { createChannel, storeChannel, updateChannel } from './alerts-api.js';
import {
  CHANNEL_KIND_LABELS,
  channelErrors,
  channelFields,
  configOf,
  draftOf,
  placeServerErrors,
  REGIONS,
  secretsSet,
  type ChannelDraft,
  type ChannelErrors,
  type ChannelField,
} from './channel-kinds.js';
import { ProfileChips } from './profile-chips.js';

export const CHANNEL_ADDED = 'Channel added';
export const CHANNEL_SAVED = 'Channel saved';
const SAVE_FAILED = 'The channel was not saved';
/** What a set secret's empty field shows: the server answers "set" in its place. */
const SECRET_PLACEHOLDER = 'set';

const fieldId = (key: string) => `alert-channel-${key.replace(/_/g, '-')}`;
const NAME_ID = 'alert-channel-name';

/** One setting's control, as its kind asks it. */
function SettingField({
  field,
  value,
  secretSet,
  error,
  onChange,
}: {
  field: ChannelField;
  value: string | string[];
  secretSet: boolean;
  error: string | null;
  onChange(value: string | string[]): void;
}) {
  const id = fieldId(field.key);
  if (field.control === 'users' || field.control === 'teams')
    return (
      <ProfileChips
        id={id}
        label={field.label}
        kind={field.control}
        handles={Array.isArray(value) ? value : []}
        onChange={onChange}
        {...(field.hint ? { hint: field.hint } : {})}
        error={error}
      />
    );
  const text = Array.isArray(value) ? value.join('\n') : value;
  if (field.control === 'lines')
    return (
      <TextAreaField
        id={id}
        label={field.label}
        value={text}
        rows={3}
        onChange={onChange}
        hint={field.hint}
        errors={error ? [error] : []}
      />
    );
  if (field.control === 'region')
    return (
      <div className="flex flex-column gap-2 beacon-alert-select">
        <LabelledSelect
          id={id}
          label={field.label}
          value={text}
          options={REGIONS.map((region) => ({ ...region }))}
          onChange={onChange}
          className="w-full"
        />
      </div>
    );
  if (field.control === 'secret')
    return <SecretField id={id} field={field} value={text} secretSet={secretSet} error={error} onChange={onChange} />;
  return (
    <TextField
      id={id}
      label={field.label}
      type={field.control === 'url' ? 'url' : 'text'}
      value={text}
      autoComplete="off"
      onChange={onChange}
      {...(field.hint ? { hint: field.hint } : {})}
      error={error}
    />
  );
}

/** A write-only setting: empty with "set" as its placeholder once saved; typing replaces it. */
function SecretField({
  id,
  field,
  value,
  secretSet,
  error,
  onChange,
}: {
  id: string;
  field: ChannelField;
  value: string;
  secretSet: boolean;
  error: string | null;
  onChange(value: string): void;
}) {
  const hint = secretSet ? `${field.hint ? `${field.hint} ` : ''}Leave it empty to keep the one set.` : field.hint;
  return (
    <TextField
      id={id}
      label={field.label}
      type="password"
      value={value}
      autoComplete="new-password"
      onChange={onChange}
      {...(hint ? { hint } : {})}
      {...(secretSet ? { placeholder: SECRET_PLACEHOLDER } : {})}
      error={error}
    />
  );
}

/** The body of a create, checked by the contract's schema (the draft's checks passed, so it parses). */
function createBody(draft: ChannelDraft) {
  return alertChannelCreate.parse({ name: draft.name.trim(), kind: draft.kind, config: configOf(draft) });
}

/**
 * A channel's form: its name, its kind (fixed once saved) and the settings the kind asks. Saving a new one adds it
 * (the workspace's, or `team`'s own); a saved one's change leaves out the secrets not typed, which keeps them.
 * Errors show by field once touched or after a submit, the server's by the field they name; a refused submit focuses
 * the first.
 */
export function ChannelForm({
  channel,
  team,
  onSaved,
}: {
  channel: AlertChannel | null;
  /** A new channel's team (its own channel), or null for the workspace's. */
  team: string | null;
  onSaved(channel: AlertChannel): void;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const [draft, setDraft] = useState(() => draftOf(channel));
  const [refused, setRefused] = useState<{ fields: ChannelErrors; form: string[] } | null>(null);
  const kept = secretsSet(channel);
  const fields = channelFields(draft.kind);
  const errors = channelErrors(draft, kept);
  const keys = ['name', ...fields.map((field) => field.key), ''];
  const form = useShownErrors(Object.fromEntries(keys.map((key) => [key, errors[key] ?? null])));
  const ids: Record<string, string> = Object.fromEntries(
    keys.map((key) => [key, key === 'name' ? NAME_ID : fieldId(key || (fields[0]?.key ?? 'name'))]),
  );

  const save = useMutation({
    mutationFn: (sent: ChannelDraft) =>
      channel
        ? updateChannel(api, channel.id, { name: sent.name.trim(), config: configOf(sent) })
        : createChannel(api, createBody(sent), team),
    onSuccess: (saved) => {
      storeChannel(queryClient, saved);
      enqueue(channel ? CHANNEL_SAVED : CHANNEL_ADDED);
      setDraft(draftOf(saved));
      onSaved(saved);
    },
    onError: (error) => {
      const server = serverErrorsOf(error, SAVE_FAILED);
      const placed = placeServerErrors(server.fields);
      const named = Object.keys(placed.fields).length > 0;
      setRefused({ fields: placed.fields, form: named ? placed.form : [server.message, ...placed.form] });
      // The server's first error takes the focus, as a refused submit's own does.
      const first = firstErrorId(ids, placed.fields);
      if (first) document.getElementById(first)?.focus();
    },
  });

  const shown = (key: string) => form.shown(key) ?? refused?.fields[key] ?? null;
  function change(next: Partial<ChannelDraft>, key: string) {
    setDraft((current) => ({ ...current, ...next }));
    form.touch(key);
    // A field's own server error goes once the field changes.
    if (refused?.fields[key])
      setRefused({ ...refused, fields: Object.fromEntries(Object.entries(refused.fields).filter(([k]) => k !== key)) });
  }
  const setValue = (key: string, value: string | string[]) =>
    change({ values: { ...draft.values, [key]: value } }, key);

  function submit(event: FormEvent) {
    event.preventDefault();
    form.attempt();
    if (save.isPending) return;
    if (!form.valid) {
      const first = firstErrorId(ids, Object.fromEntries(keys.map((key) => [key, errors[key] ?? null])));
      if (first) document.getElementById(first)?.focus();
      return;
    }
    setRefused(null);
    save.mutate(draft);
  }

  return (
    <EditorFrame
      label={channel ? `Channel ${channel.name}` : 'New channel'}
      onSubmit={submit}
      submitLabel={channel ? 'Save' : 'Add channel'}
      pending={save.isPending}
      errors={[...(shown('') ? [shown('')!] : []), ...(refused?.form ?? [])]}
    >
      <TextField
        id={NAME_ID}
        label="Name"
        value={draft.name}
        autoComplete="off"
        onChange={(name) => change({ name }, 'name')}
        hint="How policies and the timeline name it, such as On-call mail."
        error={shown('name')}
      />
      {channel ? (
        <p className="m-0">
          <span className="text-700">Kind:</span> {CHANNEL_KIND_LABELS[channel.kind]}
        </p>
      ) : (
        <div className="flex flex-column gap-2 beacon-alert-select">
          <LabelledSelect<AlertChannelKind>
            id="alert-channel-kind"
            label="Kind"
            value={draft.kind}
            options={ALERT_CHANNEL_KINDS.map((kind) => ({ label: CHANNEL_KIND_LABELS[kind], value: kind }))}
            onChange={(kind) => {
              setDraft({ ...draftOf(null, kind), name: draft.name });
              setRefused(null);
            }}
            className="w-full"
          />
        </div>
      )}
      {fields.map((field) => (
        <SettingField
          key={`${draft.kind}-${field.key}`}
          field={field}
          value={draft.values[field.key] ?? ''}
          secretSet={kept.has(field.key)}
          error={shown(field.key)}
          onChange={(value) => setValue(field.key, value)}
        />
      ))}
    </EditorFrame>
  );
}
