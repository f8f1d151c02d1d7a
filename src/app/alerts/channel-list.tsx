import { Tag } from 'primereact/tag';
import type { ReactNode } from 'react';
import type { AlertChannel } from '../../contract/alerts.js';
import { CHANNEL_KIND_LABELS } from './channel-kinds.js';
import './alerts.css';

/** A channel whose last deliveries all failed (the server marks it after 10 in a row). */
export function FailingTag() {
  return <Tag value="Failing" severity="danger" icon="pi pi-exclamation-circle" />;
}

/**
 * Channels, a row each: the name (as `title` draws it: a link to its page, or a button that opens its form), its
 * kind, and Failing when its deliveries fail.
 */
export function ChannelList({
  channels,
  label,
  title,
}: {
  channels: readonly AlertChannel[];
  label: string;
  title(channel: AlertChannel): ReactNode;
}) {
  return (
    <ul className="list-none p-0 m-0" aria-label={label}>
      {channels.map((channel) => (
        <li key={channel.id} className="beacon-alert-channel-row">
          <span className="font-semibold beacon-alert-text flex-1">{title(channel)}</span>
          <span className="text-700">{CHANNEL_KIND_LABELS[channel.kind]}</span>
          {channel.failing && <FailingTag />}
        </li>
      ))}
    </ul>
  );
}
