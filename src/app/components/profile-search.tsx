import { AutoComplete } from 'primereact/autocomplete';
import { useRef, useState } from 'react';
import type { ProfileRef } from '../../contract/catalogue.js';
import { ProfileAvatar } from './avatar.js';

/** Spec catalogue 9: autocomplete searches are debounced 500 ms. */
export const AUTOCOMPLETE_DEBOUNCE_MS = 500;

/** The profile picked in the field, or null while it holds typed text only. */
export function chosenProfile(value: ProfileRef | string | null | undefined): ProfileRef | null {
  return value && typeof value === 'object' ? value : null;
}

export interface ProfileSearchProps {
  inputId: string;
  /** What the field holds: a picked profile, or the text typed so far. */
  value: ProfileRef | string;
  onChange(value: ProfileRef | string): void;
  /** The matches for what was typed (a server's autocomplete, or a filter over a list already loaded). */
  search(query: string): Promise<ProfileRef[]>;
  placeholder?: string;
  disabled?: boolean;
  invalid?: boolean;
  autoFocus?: boolean;
  /** Offers every match of an empty query from a button beside the field. */
  dropdown?: boolean;
  ariaDescribedBy?: string;
}

/**
 * A debounced search for a user, team or service, each match with its avatar: the pickers of members,
 * owners and dependencies. Only the answer to the latest query fills the list; a failed search offers nothing.
 */
export function ProfileSearch({ search, value, onChange, invalid, ariaDescribedBy, ...field }: ProfileSearchProps) {
  const [suggestions, setSuggestions] = useState<ProfileRef[]>([]);
  const latest = useRef('');

  async function complete(query: string) {
    latest.current = query;
    const found = await search(query).catch(() => []);
    if (latest.current === query) setSuggestions(Array.isArray(found) ? found : []);
  }

  return (
    <AutoComplete
      {...field}
      value={value}
      suggestions={suggestions}
      field="name"
      delay={AUTOCOMPLETE_DEBOUNCE_MS}
      completeMethod={(event) => void complete(event.query)}
      onChange={(event) => onChange((event.value as ProfileRef | string | null) ?? '')}
      itemTemplate={(option: ProfileRef) => (
        <div className="flex align-items-center gap-2">
          <span aria-hidden="true">
            <ProfileAvatar name={option.name} url={option.thumbnail_url} />
          </span>
          <span>{option.name}</span>
        </div>
      )}
      className={invalid ? 'w-full p-invalid' : 'w-full'}
      inputClassName="w-full"
      {...(ariaDescribedBy ? { 'aria-describedby': ariaDescribedBy } : {})}
    />
  );
}
