import { useState } from 'react';
import type { ProfileRef } from '../../contract/catalogue.js';
import { autocompleteOperations } from '../../contract/operations/autocomplete.js';
import { FieldError, RowButton } from '../components/form-parts.js';
import { chosenProfile, ProfileSearch } from '../components/profile-search.js';
import type { ApiClient } from '../api/client.js';
import { useApi } from '../session/use-api.js';

export type ProfileKind = 'users' | 'teams';

function searchOf(api: ApiClient, kind: ProfileKind, q: string): Promise<ProfileRef[]> {
  return kind === 'users'
    ? api.call(autocompleteOperations.autocompleteUsers, { query: { q } })
    : api.call(autocompleteOperations.autocompleteTeams, { query: { q } });
}

/**
 * Users or teams picked by handle (an email channel's, an escalation level's): each a chip with its remove button, and
 * the autocomplete to add one. `names` are those known already (a saved policy answers them); picked ones are learnt.
 */
export function ProfileChips({
  id,
  label,
  kind,
  handles,
  names = {},
  onChange,
  hint,
  error,
  disabled,
}: {
  id: string;
  label: string;
  kind: ProfileKind;
  handles: readonly string[];
  names?: Readonly<Record<string, string>>;
  onChange(handles: string[], picked?: ProfileRef): void;
  hint?: string;
  error?: string | null;
  disabled?: boolean;
}) {
  const api = useApi();
  const [typed, setTyped] = useState<ProfileRef | string>('');
  const [learnt, setLearnt] = useState<Record<string, string>>({});
  const nameOf = (handle: string) => learnt[handle] ?? names[handle] ?? `@${handle}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;

  function pick(value: ProfileRef | string) {
    const profile = chosenProfile(value);
    if (!profile) return setTyped(value);
    // Picked: the field empties for the next one.
    setTyped('');
    if (handles.includes(profile.handle)) return;
    setLearnt((known) => ({ ...known, [profile.handle]: profile.name }));
    onChange([...handles, profile.handle], profile);
  }

  return (
    <div className="flex flex-column gap-2">
      <label htmlFor={id}>{label}</label>
      {handles.length > 0 && (
        <ul className="beacon-alert-chips" aria-label={label}>
          {handles.map((handle) => (
            <li key={handle}>
              <span>{nameOf(handle)}</span>
              <RowButton
                id={`${id}-remove-${handle}`}
                icon="pi-times"
                label={`Remove ${nameOf(handle)}`}
                disabled={disabled}
                onClick={() => onChange(handles.filter((other) => other !== handle))}
              />
            </li>
          ))}
        </ul>
      )}
      <ProfileSearch
        inputId={id}
        value={typed}
        onChange={pick}
        placeholder={kind === 'users' ? 'Search users' : 'Search teams'}
        disabled={disabled}
        invalid={Boolean(error)}
        search={async (q) => (await searchOf(api, kind, q)).filter((profile) => !handles.includes(profile.handle))}
        {...(describedBy ? { ariaDescribedBy: describedBy } : {})}
      />
      {hint && (
        <small id={hintId} className="text-600">
          {hint}
        </small>
      )}
      <FieldError id={errorId} error={error} />
    </div>
  );
}
