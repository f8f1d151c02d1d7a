import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { User } from '../../contract/accounts.js';
import { userOperations } from '../../contract/operations/users.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { useAuth } from '../session/auth-context.js';
import { ProfileAvatar } from '../components/avatar.js';
import { ConfirmDelete } from '../components/confirm-delete.js';
import { useSnackbar } from '../components/snackbars.js';
import { UserPublicFeed } from './public-feed.js';

export const NOT_SET = 'Not set';

/** A profile link is shown as a link only when it is a web address; anything else stays text. */
function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function ProfileLink({ value }: { value: string | null }) {
  const text = value?.trim();
  if (!text) return <p className="m-0 text-600">{NOT_SET}</p>;
  if (!isWebAddress(text)) return <p className="m-0">{text}</p>;
  return (
    <p className="m-0">
      <a href={text} target="_blank" rel="noopener noreferrer">
        {text}
      </a>
    </p>
  );
}

/** Spec catalogue 6: a super admin may delete other users, never themself. */
export function canDeleteUser(viewer: User | null, isSelf: boolean): boolean {
  return Boolean(viewer?.super_admin) && !isSelf;
}

function DeleteUser({ user }: { user: User }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { enqueue } = useSnackbar();
  const [open, setOpen] = useState(false);
  const remove = useMutation({
    mutationFn: () => api.call(userOperations.deleteUser, { params: { username: user.handle } }),
    onSuccess: () => {
      setOpen(false);
      enqueue('User Deleted');
      navigate('/users');
      // After leaving, so the profile does not refetch the user it just deleted.
      queryClient.removeQueries({ queryKey: keys.user(user.handle) });
      queryClient.removeQueries({ queryKey: keys.user(user.id) });
      void queryClient.invalidateQueries({ queryKey: keys.users() });
    },
    // Spec: other failures only set an error flag; the dialog stays open for another try or Cancel.
  });
  return (
    <ConfirmDelete
      label="Delete User"
      question="Are you sure you want to delete this user?"
      open={open}
      onOpenChange={setOpen}
      pending={remove.isPending}
      onDelete={() => remove.mutate()}
    />
  );
}

/** The Overview tab: the user card with Bio and Profile, then the public feed. */
export function ProfileOverview({ user, isSelf }: { user: User; isSelf: boolean }) {
  const { state } = useAuth();
  const bio = user.bio?.trim();
  return (
    <div className="grid">
      <div className="col-12 md:col-4">
        <Card>
          <div className="flex align-items-center gap-3 mb-3">
            <ProfileAvatar name={user.name} url={user.thumbnail_url} size="large" />
            <div>
              <h2 className="text-xl font-semibold m-0">{user.name}</h2>
              <div className="text-600">{user.email}</div>
            </div>
          </div>
          <h3 className="text-base font-semibold mb-1">Bio</h3>
          <p className={`m-0${bio ? '' : ' text-600'}`} style={{ whiteSpace: 'pre-line' }}>
            {bio || NOT_SET}
          </p>
          <h3 className="text-base font-semibold mb-1">Profile</h3>
          <ProfileLink value={user.profile} />
          {canDeleteUser(state.user, isSelf) && (
            <div className="mt-4">
              <DeleteUser user={user} />
            </div>
          )}
        </Card>
      </div>
      <div className="col-12 md:col-8">
        <Card title={<h2 className="text-xl font-semibold m-0">Activity</h2>}>
          <UserPublicFeed handle={user.handle} />
        </Card>
      </div>
    </div>
  );
}
