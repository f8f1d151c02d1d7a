import { useMutation } from '@tanstack/react-query';
import { Dropdown } from 'primereact/dropdown';

export interface LabelledSelectProps<T extends string> {
  id: string;
  label: string;
  value: T;
  /** An option with `disabled: true` is shown but cannot be picked. */
  options: Array<{ label: string; value: T; disabled?: boolean }>;
  /** Gets only a real change: picking the current value again does nothing. */
  onChange: (value: T) => void;
  disabled?: boolean;
  /** Keeps the label for assistive technology only (a select inside a table cell). */
  hideLabel?: boolean;
  className?: string;
}

/** A select with its label; the name also goes on the Dropdown's hidden native <select>, so no control is unnamed. */
export function LabelledSelect<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
  disabled,
  hideLabel = false,
  className,
}: LabelledSelectProps<T>) {
  return (
    <>
      <label htmlFor={id} className={hideLabel ? 'p-hidden-accessible' : 'font-semibold'}>
        {label}
      </label>
      <Dropdown
        inputId={id}
        ariaLabel={label}
        value={value}
        options={options}
        disabled={disabled}
        onChange={(event) => {
          const next = event.value as T;
          if (next !== value) onChange(next);
        }}
        // PrimeReact 10 puts aria-activedescendant on the focused wrapper <div>, which has no role and no such
        // option id (axe: aria-allowed-attr, aria-valid-attr-value); the focusable input carries it properly.
        pt={{ select: { 'aria-label': label }, root: { 'aria-activedescendant': undefined } }}
        className={className}
      />
    </>
  );
}

/** A select that saves at once; the shown value stays the saved one until the answer. */
export function ActionSelect<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: T;
  options: Array<{ label: string; value: T }>;
  onChange: (value: T) => Promise<unknown>;
}) {
  const change = useMutation({ mutationFn: onChange });
  return (
    <div className="flex flex-column gap-2">
      <LabelledSelect
        id={id}
        label={label}
        value={value}
        options={options}
        disabled={change.isPending}
        onChange={(next) => change.mutate(next)}
        className="w-full"
      />
    </div>
  );
}
