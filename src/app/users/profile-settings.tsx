import { Card } from 'primereact/card';
import type { User } from '../../contract/accounts.js';
import { iconCalls } from '../api/client.js';
import { useAuth } from '../auth/auth-context.js';
import { FieldGroup } from '../components/field-group.js';
import { ImageSetting } from '../components/image-setting.js';
import { useSnackbar } from '../shell/snackbars.js';
import { WatchedServices } from './watched-services.js';

export type ProfilePatch = { name?: string; bio?: string | null; profile?: string | null };

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
  const path = `/users/${encodeURIComponent(user.handle)}`;
  const patch = async (body: ProfilePatch) => updated(await api.send<User>('PATCH', path, body));

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
        {...iconCalls<User>(api, path)}
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
