import { Button } from 'primereact/button';

export interface DialogFooterProps {
  onCancel(): void;
  /** While the dialog's request runs: both buttons wait, the submit button spins. */
  pending: boolean;
  submitLabel: string;
  /** The submit button is disabled (e.g. while the form is invalid). */
  disabled?: boolean;
  /** Submits this form (a dialog whose fields sit in a <form>); otherwise `onSubmit` is called. */
  formId?: string;
  onSubmit?(): void;
}

/** A modal's Cancel and submit buttons, right-aligned. */
export function DialogFooter({ onCancel, pending, submitLabel, disabled, formId, onSubmit }: DialogFooterProps) {
  return (
    <div className="flex justify-content-end gap-2">
      <Button type="button" label="Cancel" text onClick={onCancel} disabled={pending} />
      <Button
        type={formId ? 'submit' : 'button'}
        form={formId}
        label={submitLabel}
        disabled={Boolean(disabled) || pending}
        loading={pending}
        onClick={formId ? undefined : onSubmit}
      />
    </div>
  );
}
