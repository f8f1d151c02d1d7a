import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { InputText } from 'primereact/inputtext';
import { useState, type FormEvent } from 'react';
import type { Service } from '../../contract/catalogue.js';
import { ManagedMark } from '../components/managed-mark.js';
import { slackOperations } from '../../contract/operations/slack.js';
import { SLACK_CHANNEL_PATTERN, type ServiceChannel } from '../../contract/slack.js';
import { keys } from '../api/query-keys.js';
import { useApi } from '../session/use-api.js';
import { Spinner } from '../components/status-screens.js';
import { useSnackbar } from '../components/snackbars.js';

export const CHANNEL_ADDED = 'Service Channel Added';
export const CHANNEL_UPDATED = 'Service Channel Updated';
export const CHANNEL_REMOVED = 'Service Channel Removed';
const MANAGED_CHANNEL = 'Its Slack channel';

/** Spec catalogue 5: the Slack channel id is required (and must look like one). */
export function channelError(value: string): string | null {
  const id = value.trim();
  if (!id) return 'Slack channel id is required';
  return SLACK_CHANNEL_PATTERN.test(id) ? null : 'Not a Slack channel id';
}

const PROVIDER_LABEL: Record<ServiceChannel['provider'], string> = { slack: 'Slack' };

/** The channel form: Save only when changed and valid; validates on change. */
function ChannelForm({
  saved,
  pending,
  onSave,
  onCancel,
}: {
  saved: string;
  pending: boolean;
  onSave: (channel: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(saved);
  const [touched, setTouched] = useState(false);
  const error = channelError(value);
  const changed = value.trim() !== saved;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (changed && !error && !pending) onSave(value.trim());
  };
  return (
    <form className="flex flex-column gap-2" onSubmit={submit} noValidate aria-label="Channel">
      <label htmlFor="service-channel-id">Slack Channel ID</label>
      <InputText
        id="service-channel-id"
        value={value}
        placeholder="C0123456789"
        autoFocus
        invalid={touched && Boolean(error)}
        aria-describedby={touched && error ? 'service-channel-error' : undefined}
        onChange={(event) => {
          setValue(event.target.value);
          setTouched(true);
        }}
      />
      {touched && error && (
        <small id="service-channel-error" className="p-error">
          {error}
        </small>
      )}
      <div className="flex gap-2">
        <Button type="submit" label="Save" disabled={!changed || Boolean(error) || pending} loading={pending} />
        <Button type="button" label="Cancel" outlined disabled={pending} onClick={onCancel} />
      </div>
    </form>
  );
}

/**
 * The Channels panel of the service settings (spec/catalogue.md 2.1, 5; docs/decisions.md#integrations): the Slack
 * channel the service's events go to, with Edit and Delete; with none, 'No Channels' and Add Channel.
 */
export function ServiceChannels({ service }: { service: Service }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { enqueue } = useSnackbar();
  const queryKey = keys.serviceChannels(service.handle);
  const query = useQuery({
    queryKey,
    queryFn: () => api.call(slackOperations.listServiceChannels, { params: { service: service.handle } }),
  });
  // null: the list; 'new': the add form; a provider: editing its channel.
  const [editing, setEditing] = useState<null | 'new' | ServiceChannel['provider']>(null);
  const params = (provider: ServiceChannel['provider']) => ({ service: service.handle, provider });
  const done = (message: string) => () => {
    setEditing(null);
    enqueue(message);
    void queryClient.invalidateQueries({ queryKey });
  };

  const add = useMutation({
    mutationFn: (channel: string) =>
      api.call(slackOperations.createServiceChannel, {
        params: { service: service.handle },
        body: { provider: 'slack', channel },
      }),
    onSuccess: done(CHANNEL_ADDED),
  });
  const update = useMutation({
    mutationFn: ({ provider, channel }: { provider: ServiceChannel['provider']; channel: string }) =>
      api.call(slackOperations.updateServiceChannel, { params: params(provider), body: { channel } }),
    onSuccess: done(CHANNEL_UPDATED),
  });
  const remove = useMutation({
    mutationFn: (provider: ServiceChannel['provider']) =>
      api.call(slackOperations.deleteServiceChannel, { params: params(provider) }),
    onSuccess: done(CHANNEL_REMOVED),
  });

  const channels = query.data ?? [];
  const failed = add.isError || update.isError;
  // Set by the service's catalogue file (beacon.io/slack-channel): shown, changed only there.
  const managed = service.managed_by?.settings.includes('slack_channel') ? service.managed_by : null;
  const current = channels.find((channel) => channel.provider === editing);
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Channels</h2>}>
      {query.isPending ? (
        <Spinner label="Loading channels" />
      ) : query.data === undefined ? (
        <p className="m-0 p-error" role="alert">
          Channels could not be loaded
        </p>
      ) : editing === 'new' || current ? (
        <div className="flex flex-column gap-2">
          <ChannelForm
            saved={current?.slack_channel.id ?? ''}
            pending={add.isPending || update.isPending}
            onCancel={() => {
              add.reset();
              update.reset();
              setEditing(null);
            }}
            onSave={(channel) =>
              current ? update.mutate({ provider: current.provider, channel }) : add.mutate(channel)
            }
          />
          {failed && (
            <p className="m-0 p-error" role="alert">
              The channel could not be saved
            </p>
          )}
        </div>
      ) : (
        <div className="flex flex-column gap-3">
          {channels.length === 0 ? (
            <p className="m-0 text-600">No Channels</p>
          ) : (
            <ul className="list-none p-0 m-0" aria-label="Channels">
              {channels.map((channel) => (
                <li
                  key={channel.id}
                  className="flex flex-wrap align-items-center gap-2 py-2 border-bottom-1 surface-border"
                >
                  <i className="pi pi-slack text-600" aria-hidden="true" />
                  <span className="font-semibold">{`#${channel.slack_channel.id}`}</span>
                  <span className="flex-1 text-600 text-sm">{PROVIDER_LABEL[channel.provider]}</span>
                  {!managed && (
                    <>
                      <Button
                        type="button"
                        label="Edit"
                        icon="pi pi-pencil"
                        size="small"
                        outlined
                        aria-label={`Edit #${channel.slack_channel.id}`}
                        onClick={() => setEditing(channel.provider)}
                      />
                      <Button
                        type="button"
                        label="Delete"
                        icon="pi pi-trash"
                        size="small"
                        severity="danger"
                        outlined
                        aria-label={`Delete #${channel.slack_channel.id}`}
                        loading={remove.isPending && remove.variables === channel.provider}
                        disabled={remove.isPending}
                        onClick={() => remove.mutate(channel.provider)}
                      />
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
          <ManagedMark managedBy={managed} what={MANAGED_CHANNEL} />
          {channels.length === 0 && !managed && (
            <div>
              <Button type="button" label="Add Channel" icon="pi pi-plus" onClick={() => setEditing('new')} />
            </div>
          )}
          {remove.isError && (
            <p className="m-0 p-error" role="alert">
              The channel could not be removed
            </p>
          )}
        </div>
      )}
    </Card>
  );
}
