import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { useState } from 'react';
import type { AlertChannel, AlertPolicy } from '../../contract/alerts.js';
import type { Team } from '../../contract/catalogue.js';
import { ALERT_SEVERITIES } from '../../domain/alerts.js';
import { healthLabel } from '../../domain/catalogue.js';
import { plural } from '../../domain/words.js';
import { Spinner } from '../components/status-screens.js';
import { teamPath } from '../routing/paths.js';
import { useApi } from '../session/use-api.js';
import {
  getTeamChannelsQueryOptions,
  getTeamPolicyQueryOptions,
  getWorkspaceChannelsQueryOptions,
} from './alerts-api.js';
import { ChannelForm } from './channel-form.js';
import { ChannelList } from './channel-list.js';
import { ChannelEditor } from './channels-screen.js';
import { PolicyEditor } from './policy-editor.js';
import './alerts.css';

export const USES_WORKSPACE_DEFAULT = "This team uses the workspace's default policy.";
export const NO_POLICY = 'This team has no alert policy yet: its alerts reach only the bell of its members.';

const cardTitle = (text: string) => <h2 className="text-xl font-semibold m-0">{text}</h2>;

/**
 * The channels a team's policy may name: the workspace's and the team's own (each empty while it loads or is refused).
 * Read only for the editor: the policy in words names its channels itself.
 */
function usePolicyChannels(team: string, enabled: boolean): { channels: AlertChannel[]; pending: boolean } {
  const api = useApi();
  const workspace = useQuery({ ...getWorkspaceChannelsQueryOptions(api), enabled });
  const own = useQuery({ ...getTeamChannelsQueryOptions(api, team), enabled });
  return {
    channels: [...(workspace.data ?? []), ...(own.data ?? [])],
    pending: workspace.isPending || own.isPending,
  };
}

/** The policy in words, for those who may read it but not change it. */
function PolicySummary({ policy }: { policy: AlertPolicy }) {
  return (
    <div className="flex flex-column gap-3">
      <div>
        <h3 className="text-lg font-semibold m-0 mb-2">Rules</h3>
        {policy.rules.length === 0 ? (
          <p className="m-0 text-700">No rules: alerts reach only the bell.</p>
        ) : (
          <ul className="m-0 pl-4 flex flex-column gap-1">
            {policy.rules.map((rule, index) => (
              <li key={index} className="beacon-alert-text">
                {ALERT_SEVERITIES.filter((severity) => rule.severities.includes(severity))
                  .map(healthLabel)
                  .join(', ')}
                : {rule.channel_names.length === 0 ? 'no channel' : rule.channel_names.join(', ')}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <h3 className="text-lg font-semibold m-0 mb-2">Escalation</h3>
        {policy.escalation.length === 0 ? (
          <p className="m-0 text-700">No escalation.</p>
        ) : (
          <ul className="m-0 pl-4 flex flex-column gap-1">
            {policy.escalation.map((level, index) => (
              <li key={index} className="beacon-alert-text">
                After {plural(level.after_minutes, 'minute')}: {level.targets.map((target) => target.name).join(', ')}
              </li>
            ))}
          </ul>
        )}
        <p className="m-0 mt-2 text-700">
          {policy.repeat === 0 ? 'The levels do not repeat.' : `The levels repeat ${plural(policy.repeat, 'time')}.`}{' '}
          {policy.notify_when_impacted ? 'Impacted teams are told too.' : 'Impacted teams are not told.'}
        </p>
      </div>
    </div>
  );
}

/**
 * The team's Alert policy card (docs/api.md, "Alert policies"): the editor for those who may change it (the team's
 * admins, workspace admins), the policy in words for the other members. Saying so when the team falls back on the
 * workspace's default. Shows nothing when the policy cannot be read (a guest, a refusal).
 */
export function TeamAlertPolicyCard({ team }: { team: Team }) {
  const api = useApi();
  const policy = useQuery(getTeamPolicyQueryOptions(api, team.handle));
  const saved = policy.data;
  const { channels, pending } = usePolicyChannels(team.handle, saved?.permissions.edit === true);
  if (policy.isError && !saved) return null;
  return (
    <Card title={cardTitle('Alert policy')} id="team-alert-policy">
      {!saved || (saved.permissions.edit && pending) ? (
        <Spinner label="Loading the alert policy" />
      ) : (
        <div className="flex flex-column gap-3">
          {saved.source === 'workspace' && <p className="m-0 font-semibold">{USES_WORKSPACE_DEFAULT}</p>}
          {saved.source === 'none' && <p className="m-0 font-semibold">{NO_POLICY}</p>}
          {saved.permissions.edit ? (
            <>
              {saved.source !== 'team' && <p className="m-0 text-700">Saving gives the team a policy of its own.</p>}
              {/* After a save the policy is the server's answer: the form starts afresh from it. */}
              <PolicyEditor key={JSON.stringify(saved)} team={team.handle} policy={saved} channels={channels} />
            </>
          ) : (
            <PolicySummary policy={saved} />
          )}
        </div>
      )}
    </Card>
  );
}

type Mode = { kind: 'list' } | { kind: 'new' } | { kind: 'edit'; channel: AlertChannel };

/**
 * The team's own channels on its Settings (its admins, workspace admins): the list, Add channel, and a channel's
 * settings, delivery log and delete in place (team admins have no admin area). Shows nothing when refused.
 */
export function TeamAlertChannelsCard({ team }: { team: Team }) {
  const api = useApi();
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const list = useQuery(getTeamChannelsQueryOptions(api, team.handle));
  if (list.isError && !list.data) return null;
  const channels = list.data ?? [];
  const back = (
    <Button
      type="button"
      label="Back to channels"
      icon="pi pi-arrow-left"
      text
      onClick={() => setMode({ kind: 'list' })}
    />
  );
  // The list's copy once it has it (a save reads the list again); until then the one the form answered.
  const editing =
    mode.kind === 'edit' ? (channels.find((channel) => channel.id === mode.channel.id) ?? mode.channel) : undefined;

  if (mode.kind === 'new')
    return (
      <Card title={cardTitle('New channel')}>
        <div className="flex flex-column gap-3">
          <div>{back}</div>
          <ChannelForm
            channel={null}
            team={team.handle}
            onSaved={(saved) => setMode({ kind: 'edit', channel: saved })}
          />
        </div>
      </Card>
    );
  if (editing)
    return (
      <section className="flex flex-column gap-3" aria-labelledby="team-alert-channel-title">
        <div className="flex flex-wrap align-items-center gap-2">
          <h2 id="team-alert-channel-title" className="text-xl font-semibold m-0 beacon-alert-text">
            {editing.name}
          </h2>
          {back}
        </div>
        <ChannelEditor
          channel={editing}
          leaveTo={`${teamPath(team.handle)}/settings`}
          onDeleted={() => setMode({ kind: 'list' })}
        />
      </section>
    );
  return (
    <Card title={cardTitle('Alert channels')} id="team-alert-channels">
      <div className="flex flex-column gap-3">
        <p className="m-0 text-700">The team&apos;s own channels, for its alert policy beside the workspace&apos;s.</p>
        {list.isPending ? (
          <Spinner label="Loading channels" />
        ) : channels.length === 0 ? (
          <p className="m-0">No channels of its own yet.</p>
        ) : (
          <ChannelList
            channels={channels}
            label="Team alert channels"
            title={(channel) => (
              <span className="flex flex-wrap align-items-center gap-2">
                <span>{channel.name}</span>
                <Button
                  type="button"
                  label="Edit"
                  text
                  size="small"
                  aria-label={`Edit ${channel.name}`}
                  onClick={() => setMode({ kind: 'edit', channel })}
                />
              </span>
            )}
          />
        )}
        <div className="flex justify-content-end">
          <Button type="button" label="Add channel" icon="pi pi-plus" onClick={() => setMode({ kind: 'new' })} />
        </div>
      </div>
    </Card>
  );
}
