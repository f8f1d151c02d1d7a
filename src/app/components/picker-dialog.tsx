import { Dialog } from 'primereact/dialog';
import type { ReactNode } from 'react';
import { DialogFooter } from './dialog-footer.js';

export interface PickerDialogProps {
  header: string;
  onClose(): void;
  /** While the add runs: both buttons wait, Add spins. */
  pending: boolean;
  /** Add stays disabled while nothing valid is picked or typed. */
  disabled: boolean;
  /** Add calls this; or, with `formId`, submits that form (a dialog whose field sits in a <form>). */
  onSubmit?(): void;
  formId?: string;
  /** The picker's label, above it, for the field `inputId` (a field that labels itself goes without). */
  label?: string;
  inputId?: string;
  /** Default 28rem; never wider than the screen. */
  width?: string;
  children: ReactNode;
}

/**
 * The shell of the dialogs that add one thing picked or typed in a single field (Add Member, Add Dependency,
 * Add Remote Dependency, Add Remote Workspace): a modal with the header, the field under its label, Cancel and
 * Add. Mount it while open, so it starts empty each time.
 */
export function PickerDialog({
  header,
  onClose,
  pending,
  disabled,
  onSubmit,
  formId,
  label,
  inputId,
  width = '28rem',
  children,
}: PickerDialogProps) {
  return (
    <Dialog
      header={header}
      visible
      onHide={onClose}
      style={{ width, maxWidth: '95vw' }}
      footer={
        <DialogFooter
          onCancel={onClose}
          pending={pending}
          submitLabel="Add"
          disabled={disabled}
          {...(formId ? { formId } : {})}
          {...(onSubmit ? { onSubmit } : {})}
        />
      }
    >
      {label === undefined ? (
        children
      ) : (
        <div className="flex flex-column gap-2">
          <label htmlFor={inputId}>{label}</label>
          {children}
        </div>
      )}
    </Dialog>
  );
}
