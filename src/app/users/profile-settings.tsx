import { Card } from 'primereact/card';
import type { User } from '../../contract/accounts.js';
import type { OperationInput } from '../../contract/operation.js';
import { userOperations } from '../../contract/operations/users.js';
import { useAuth } from '../session/auth-context.js';
import { FieldGroup } from '../components/field-group.js';
import { ImageSetting } from '../components/image-setting.js';
import { useSnackbar } from '../shell/snackbars.js';
import { WatchedServices } from './watched-services.js';

type ProfilePatch = OperationInput<typeof userOperations.updateUser>['body'];

/** The Settings tab (own profile only): avatar, Name, Bio, Profile Link, then watched services. */
export function ProfileSettings({ user, onUpdated }: { user: User; onUpdated: (user: User) => void }) {
  const { api, reloadUser } = useAuth();
  const { enqueue } = useSnackbar();

  // After changing your own profile the header avatar and name follow.
  const updated = (next: User) => {
    onUpdated(next);
    enqueue('Profile Updated');
    void reloadUser();
  };
  const params = { username: user.handle };
  const patch = async (body: ProfilePatch) => updated(await api.call(userOperations.updateUser, { params, body }));

  return (
    <div className="flex flex-column gap-3">
      <ImageSetting
        title="Avatar"
        name={user.name}
        url={user.thumbnail_url}
        description="Your avatar identifies you in Beacon and is visible to the members of your organisation."
        inputId="avatar-file"
        inputLabel="Avatar image"
        uploadLabel="Upload Avatar"
        clearLabel="Clear Avatar"
        upload={(icon) => api.upload(userOperations.uploadUserIcon, { params }, { field: 'icon', value: icon })}
        clear={() => api.call(userOperations.clearUserIcon, { params })}
        onUpdated={updated}
      />
      <Card title={<h2 className="text-xl font-semibold m-0">Profile</h2>}>
        <div className="flex flex-column gap-4">
          <FieldGroup
            key={`name:${user.name}`}
            id="profile-name"
            label="Name"
            saved={user.name}
            required
            onSave={(value) => patch({ name: value.trim() })}
          />
          <FieldGroup
            key={`bio:${user.bio ?? ''}`}
            id="profile-bio"
            label="Bio"
            saved={user.bio}
            multiline
            autoResize
            onSave={(value) => patch({ bio: value.trim() || null })}
          />
          <FieldGroup
            key={`profile:${user.profile ?? ''}`}
            id="profile-link"
            label="Profile Link"
            saved={user.profile}
            type="url"
            onSave={(value) => patch({ profile: value.trim() || null })}
          />
        </div>
      </Card>
      <WatchedServices handle={user.handle} />
    </div>
  );
}
