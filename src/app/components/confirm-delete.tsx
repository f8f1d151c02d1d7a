import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';

export interface ConfirmDeleteProps {
  /** The button's label and the dialog's header, e.g. 'Delete User'. */
  label: string;
  question: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Whether the delete is under way: Cancel is disabled and Delete spins. */
  pending: boolean;
  onDelete: () => void;
  disabled?: boolean;
}

/**
 * A delete button that asks first: a dialog with the question, Cancel and Delete. The screen owns the open state,
 * so it decides whether a failure closes the dialog or keeps it for another try.
 */
export function ConfirmDelete({
  label,
  question,
  open,
  onOpenChange,
  pending,
  onDelete,
  disabled,
}: ConfirmDeleteProps) {
  return (
    <>
      <Button
        type="button"
        label={label}
        icon="pi pi-trash"
        severity="danger"
        outlined
        disabled={disabled}
        onClick={() => onOpenChange(true)}
      />
      <Dialog
        header={label}
        visible={open}
        onHide={() => onOpenChange(false)}
        style={{ width: '28rem', maxWidth: '95vw' }}
        footer={
          <div className="flex justify-content-end gap-2">
            <Button type="button" label="Cancel" text onClick={() => onOpenChange(false)} disabled={pending} />
            <Button type="button" label="Delete" severity="danger" loading={pending} onClick={() => onDelete()} />
          </div>
        }
      >
        <p className="m-0">{question}</p>
      </Dialog>
    </>
  );
}
