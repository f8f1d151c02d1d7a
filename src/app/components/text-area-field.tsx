import { InputTextarea } from 'primereact/inputtextarea';
import type { ReactNode } from 'react';
import { LabelledControl } from './form.js';

/** The form's TextField for text over several lines (request headers, assertions), each error a line. */
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
  return (
    <LabelledControl
      id={id}
      label={label}
      hint={hint}
      errors={errors}
      control={(aria) => (
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
            [errors.length ? 'p-invalid' : '', monospace ? 'beacon-monospace text-sm' : ''].join(' ').trim() ||
            undefined
          }
          {...aria}
        />
      )}
    />
  );
}
