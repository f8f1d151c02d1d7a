import { useMutation } from '@tanstack/react-query';
import { Dialog } from 'primereact/dialog';
import { DialogFooter } from '../components/dialog-footer.js';
import { useState } from 'react';
import type { ProfileRef } from '../../contract/catalogue.js';
import { autocompleteOperations } from '../../contract/operations/autocomplete.js';
import { teamOperations } from '../../contract/operations/teams.js';
import { useApi } from '../api/use-api.js';
import { chosenProfile, ProfileSearch } from '../components/profile-search.js';
import { useSnackbar } from '../shell/snackbars.js';

/**
 * The Add Member dialog, mounted while open (so it starts empty each time): 'Find user', Cancel and Add; Add
 * stays disabled until a user is chosen.
 */
export function AddMemberDialog({ team, onClose, onAdded }: { team: string; onClose(): void; onAdded(): void }) {
  const api = useApi();
  const { enqueue } = useSnackbar();
  const [value, setValue] = useState<ProfileRef | string>('');
  // Spec 5: a user is required; typed text alone is not one.
  const user = chosenProfile(value);
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
        <ProfileSearch
          inputId="add-member-user"
          value={value}
          onChange={setValue}
          search={(q) => api.call(autocompleteOperations.autocompleteUsers, { query: { q } })}
          autoFocus
        />
      </div>
    </Dialog>
  );
}
