import { InputTextarea } from 'primereact/inputtextarea';
import type { ReactNode } from 'react';

/**
 * A labelled textarea with its hint and errors wired to it for assistive technology (the form's TextField for
 * text over several lines). Each error is its own line under it ('Line 2: ...').
 */
export function TextAreaField({
  id,
  label,
  value,
  onChange,
  onBlur,
  errors = [],
  hint,
  rows = 3,
  monospace = false,
  placeholder,
}: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  onBlur?(): void;
  errors?: readonly string[];
  hint?: ReactNode;
  rows?: number;
  monospace?: boolean;
  placeholder?: string;
}) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const invalid = errors.length > 0;
  const describedBy = [hint ? hintId : null, invalid ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-column gap-1">
      <label htmlFor={id}>{label}</label>
      <InputTextarea
        id={id}
        value={value}
        rows={rows}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        className={
          [invalid ? 'p-invalid' : '', monospace ? 'beacon-monospace text-sm' : ''].join(' ').trim() || undefined
        }
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint && (
        <small id={hintId} className="text-600">
          {hint}
        </small>
      )}
      {invalid && (
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
