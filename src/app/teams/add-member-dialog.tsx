import { useMutation } from '@tanstack/react-query';
import { AutoComplete } from 'primereact/autocomplete';
import { Dialog } from 'primereact/dialog';
import { DialogFooter } from '../components/dialog-footer.js';
import { useRef, useState } from 'react';
import type { ProfileRef } from '../../contract/catalogue.js';
import { autocompleteOperations } from '../../contract/operations/autocomplete.js';
import { teamOperations } from '../../contract/operations/teams.js';
import { useApi } from '../api/use-api.js';
import { ProfileAvatar } from '../components/avatar.js';
import { useSnackbar } from '../shell/snackbars.js';

/** Spec catalogue 9: user autocomplete is debounced 500 ms. */
export const AUTOCOMPLETE_DEBOUNCE_MS = 500;

/** The user picked in the field, or null while it holds typed text only (spec 5: a user is required). */
export function chosenUser(value: ProfileRef | string | null | undefined): ProfileRef | null {
  return value && typeof value === 'object' ? value : null;
}

/**
 * The Add Member dialog, mounted while open (so it starts empty each time): 'Find user', Cancel and Add; Add
 * stays disabled until a user is chosen.
 */
export function AddMemberDialog({ team, onClose, onAdded }: { team: string; onClose(): void; onAdded(): void }) {
  const api = useApi();
  const { enqueue } = useSnackbar();
  const [value, setValue] = useState<ProfileRef | string>('');
  const [suggestions, setSuggestions] = useState<ProfileRef[]>([]);
  // Only the answer to the latest query may fill the list.
  const latest = useRef('');
  const user = chosenUser(value);
  const add = useMutation({
    mutationFn: (chosen: ProfileRef) =>
      api.call(teamOperations.addTeamMember, { params: { team }, body: { user: { id: chosen.id } } }),
    onSuccess: () => {
      enqueue('Team Member Added');
      onAdded();
      onClose();
    },
    // Spec: other failures only set an error flag; the dialog stays open.
  });

  async function complete(query: string) {
    latest.current = query;
    const found = await api.call(autocompleteOperations.autocompleteUsers, { query: { q: query } }).catch(() => []);
    if (latest.current === query) setSuggestions(Array.isArray(found) ? found : []);
  }

  return (
    <Dialog
      header="Add Member"
      visible
      onHide={onClose}
      style={{ width: '28rem', maxWidth: '95vw' }}
      footer={
        <DialogFooter
          onCancel={onClose}
          pending={add.isPending}
          submitLabel="Add"
          disabled={!user}
          onSubmit={() => user && add.mutate(user)}
        />
      }
    >
      <div className="flex flex-column gap-2">
        <label htmlFor="add-member-user">Find user</label>
        <AutoComplete
          inputId="add-member-user"
          value={value}
          suggestions={suggestions}
          field="name"
          delay={AUTOCOMPLETE_DEBOUNCE_MS}
          completeMethod={(event) => void complete(event.query)}
          onChange={(event) => setValue((event.value as ProfileRef | string | null) ?? '')}
          itemTemplate={(option: ProfileRef) => (
            <div className="flex align-items-center gap-2">
              <span aria-hidden="true">
                <ProfileAvatar name={option.name} url={option.thumbnail_url} />
              </span>
              <span>{option.name}</span>
            </div>
          )}
          className="w-full"
          inputClassName="w-full"
          autoFocus
        />
      </div>
    </Dialog>
  );
}
