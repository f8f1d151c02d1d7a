import { IconField } from 'primereact/iconfield';
import { InputIcon } from 'primereact/inputicon';
import { InputText } from 'primereact/inputtext';
import { useEffect, useRef, useState, type CSSProperties } from 'react';

/** Typing settles for this long before a list search runs. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface SearchBoxProps {
  id: string;
  /** The accessible name, e.g. 'Search users' (the box itself shows only the placeholder). */
  label: string;
  /** Gets the trimmed text once typing pauses. */
  onSearch: (q: string) => void;
  className?: string;
  style?: CSSProperties;
}

/** A list's search box: a search icon on the left, a hidden label, and a search sent once typing pauses. */
export function SearchBox({ id, label, onSearch, className, style }: SearchBoxProps) {
  const [text, setText] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  function change(value: string) {
    setText(value);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => onSearch(value.trim()), SEARCH_DEBOUNCE_MS);
  }

  return (
    <>
      {/* Outside the IconField, which hands its iconPosition to every child (React warns on a plain <label>). */}
      <label htmlFor={id} className="p-hidden-accessible">
        {label}
      </label>
      {/* IconField's default position is right: 'left' keeps the icon in front of the text. */}
      <IconField iconPosition="left" className={className} style={style}>
        <InputIcon className="pi pi-search" aria-hidden="true" />
        <InputText
          id={id}
          type="search"
          placeholder="Search"
          value={text}
          onChange={(event) => change(event.target.value)}
          className="w-full"
        />
      </IconField>
    </>
  );
}
