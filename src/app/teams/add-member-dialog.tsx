import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProfileRef } from '../../contract/catalogue.js';
import { autocompleteOperations } from '../../contract/operations/autocomplete.js';
import { teamOperations } from '../../contract/operations/teams.js';
import { useApi } from '../session/use-api.js';
import { PickerDialog } from '../components/picker-dialog.js';
import { chosenProfile, ProfileSearch } from '../components/profile-search.js';
import { useSnackbar } from '../components/snackbars.js';

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
    <PickerDialog
      header="Add Member"
      onClose={onClose}
      pending={add.isPending}
      disabled={!user}
      onSubmit={() => user && add.mutate(user)}
      label="Find user"
      inputId="add-member-user"
    >
      <ProfileSearch
        inputId="add-member-user"
        value={value}
        onChange={setValue}
        search={(q) => api.call(autocompleteOperations.autocompleteUsers, { query: { q } })}
        autoFocus
      />
    </PickerDialog>
  );
}
