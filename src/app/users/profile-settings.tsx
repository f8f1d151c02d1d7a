import { useQuery } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import type { User } from '../../contract/accounts.js';
import type { OperationInput } from '../../contract/operation.js';
import { slackOperations } from '../../contract/operations/slack.js';
import { userOperations } from '../../contract/operations/users.js';
import { keys } from '../api/query-keys.js';
import { useAuth } from '../session/auth-context.js';
import { FieldGroup } from '../components/field-group.js';
import { ImageSetting } from '../components/image-setting.js';
import { useSnackbar } from '../components/snackbars.js';
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
      <ConnectToSlack />
      <WatchedServices handle={user.handle} />
    </div>
  );
}

/** Chat connect: links one's Slack identity (shown only when the server has Slack configured). */
function ConnectToSlack() {
  const { api } = useAuth();
  const { data } = useQuery({
    queryKey: keys.slackSettings(),
    queryFn: () => api.call(slackOperations.getSlackSettings),
  });
  if (!data?.configured || !data.connect_url) return null;
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Slack</h2>}>
      <p className="mt-0 text-700">Connect your Slack account to be mentioned and notified in Slack.</p>
      <a className="p-button p-component no-underline" href={data.connect_url}>
        <span className="p-button-icon p-button-icon-left pi pi-slack" aria-hidden="true" />
        <span className="p-button-label">Connect to Slack</span>
      </a>
    </Card>
  );
}
