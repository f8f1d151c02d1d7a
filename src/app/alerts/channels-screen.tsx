import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { AlertChannel } from '../../contract/alerts.js';
import { DeleteCard } from '../components/delete-card.js';
import { LinkButton } from '../components/link-button.js';
import { NotFound, Spinner } from '../components/status-screens.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { teamPath } from '../routing/paths.js';
import { useApi } from '../session/use-api.js';
import {
  ALERT_CHANNELS_PATH,
  alertChannelPath,
  deleteChannel,
  forgetChannel,
  getChannelQueryOptions,
  getWorkspaceChannelsQueryOptions,
} from './alerts-api.js';
import { ChannelForm } from './channel-form.js';
import { CHANNEL_KIND_LABELS } from './channel-kinds.js';
import { ChannelList, FailingTag } from './channel-list.js';
import { DeliveryLogCard } from './delivery-log.js';

export const CHANNELS_EMPTY =
  'A channel is where alerts are told: a mail, a chat channel, a webhook or an on-call service. Add one, then ' +
  "name it in the teams' alert policies.";
export const CHANNEL_DELETED = 'Channel deleted';
export const CHANNEL_DELETE_FAILED = 'The channel could not be deleted';

const NEW_CHANNEL_PATH = `${ALERT_CHANNELS_PATH}/new`;

/** The admin overview's card: what channels are, and the way to them. */
export function AlertChannelsCard() {
  return (
    <Card className="h-full" title={<h2 className="text-xl font-semibold m-0">Alert channels</h2>}>
      <div className="flex flex-column gap-3">
        <p className="m-0 text-600">Where alerts are told: mail, chat, webhooks and on-call services.</p>
        <div>
          <LinkButton to={ALERT_CHANNELS_PATH} icon="pi pi-megaphone" label="Manage alert channels" />
        </div>
      </div>
    </Card>
  );
}

/** /admin/alert-channels: the workspace's channels, and Add channel. */
export function AlertChannelsScreen() {
  useBreadcrumb({ name: 'Admin', to: '/admin', crumbs: [{ label: 'Alert channels' }] });
  const api = useApi();
  const list = useQuery(getWorkspaceChannelsQueryOptions(api));
  const channels = list.data ?? [];
  return (
    <div className="flex flex-column gap-3">
      <div className="flex flex-wrap align-items-center justify-content-between gap-2">
        <h1 className="text-2xl font-semibold m-0">Alert channels</h1>
        <LinkButton to={NEW_CHANNEL_PATH} icon="pi pi-plus" label="Add channel" />
      </div>
      <Card>
        {list.isPending ? (
          <Spinner label="Loading channels" />
        ) : list.data === undefined ? (
          <p className="m-0 p-error" role="alert">
            The channels could not be loaded
          </p>
        ) : channels.length === 0 ? (
          <p className="m-0 text-700">{CHANNELS_EMPTY}</p>
        ) : (
          <ChannelList
            channels={channels}
            label="Alert channels"
            title={(channel) => <Link to={alertChannelPath(channel.id)}>{channel.name}</Link>}
          />
        )}
      </Card>
    </div>
  );
}

/**
 * A saved channel: its settings, its delivery log with Send test, and Delete. Shared by the admin area and a team's
 * settings (`leaveTo` is where a delete goes, `onDeleted` what else it does there).
 */
export function ChannelEditor({
  channel,
  leaveTo,
  onDeleted,
}: {
  channel: AlertChannel;
  leaveTo: string;
  onDeleted?(): void;
}) {
  const forget = (queryClient: QueryClient) => {
    forgetChannel(queryClient, channel);
    onDeleted?.();
  };
  return (
    <div className="flex flex-column gap-3">
      <Card title={<h2 className="text-xl font-semibold m-0">Settings</h2>}>
        {/* After a save the channel is the server's answer: the form starts afresh from it. */}
        <ChannelForm key={channel.updated_at} channel={channel} team={null} onSaved={() => undefined} />
      </Card>
      <DeliveryLogCard channel={channel} />
      <DeleteCard
        label="Delete channel"
        note="Policies that name it no longer do, and its delivery log goes with it."
        question={`Are you sure you want to delete the channel ${channel.name}?`}
        remove={(api) => deleteChannel(api, channel.id)}
        deleted={CHANNEL_DELETED}
        failed={CHANNEL_DELETE_FAILED}
        leaveTo={leaveTo}
        forget={forget}
      />
    </div>
  );
}

const editorCrumbs = (label: string) => ({
  name: 'Admin',
  to: '/admin',
  crumbs: [{ label: 'Alert channels', to: ALERT_CHANNELS_PATH }, { label }],
});

function NewChannel() {
  useBreadcrumb(editorCrumbs('New channel'));
  const navigate = useNavigate();
  return (
    <div className="flex flex-column gap-3">
      <h1 className="text-2xl font-semibold m-0">New channel</h1>
      <Card>
        <ChannelForm
          channel={null}
          team={null}
          onSaved={(saved) => navigate(alertChannelPath(saved.id), { replace: true })}
        />
      </Card>
    </div>
  );
}

function ExistingChannel({ id }: { id: string }) {
  const api = useApi();
  const query = useQuery(getChannelQueryOptions(api, id));
  const channel = query.data;
  useBreadcrumb(editorCrumbs(channel?.name ?? 'Channel'));
  if (query.isPending) return <Spinner label="Loading channel" />;
  if (!channel) return <NotFound title="Channel not found" text="The alert channel was not found" />;
  return (
    <div className="flex flex-column gap-3">
      <div className="flex flex-wrap align-items-center gap-2">
        <h1 className="text-2xl font-semibold m-0 beacon-alert-text">{channel.name}</h1>
        <span className="text-700">{CHANNEL_KIND_LABELS[channel.kind]}</span>
        {channel.failing && <FailingTag />}
      </div>
      {channel.team && (
        <p className="m-0 text-700">
          A channel of the team <Link to={`${teamPath(channel.team.handle)}/settings`}>{channel.team.name}</Link>.
        </p>
      )}
      <ChannelEditor channel={channel} leaveTo={ALERT_CHANNELS_PATH} />
    </div>
  );
}

/** /admin/alert-channels/new and /admin/alert-channels/{id}. */
export function AlertChannelScreen() {
  const { id } = useParams();
  return id ? <ExistingChannel key={id} id={id} /> : <NewChannel />;
}
