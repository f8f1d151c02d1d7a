import dayjs from 'dayjs';
import { Button } from 'primereact/button';
import { Tag } from 'primereact/tag';
import { useState } from 'react';
import type { Alert } from '../../contract/alerts.js';
import type { AlertSeverity, AlertState } from '../../domain/alerts.js';
import { healthLabel } from '../../domain/catalogue.js';
import { HEALTH_COLOURS } from '../components/health-colours.js';
import { useOnline } from '../components/use-online.js';
import { useAcknowledge } from './acknowledge-write.js';
import { ResolveDialog } from './resolve-dialog.js';

/** A moment to the second, as a timeline reads it: "4 Mar 2026 14:05:09". */
export const exactTime = (at: string) => dayjs(at).format('D MMM YYYY HH:mm:ss');

/** A severity in the colour of the health it came from (white on each keeps 4.5:1), its name in words. */
export function SeverityTag({ severity }: { severity: AlertSeverity }) {
  return (
    <Tag
      value={healthLabel(severity)}
      icon="pi pi-exclamation-triangle"
      className="beacon-alert-severity"
      style={{ background: HEALTH_COLOURS[severity], color: '#fff' }}
    />
  );
}

export const STATE_LABELS: Record<AlertState, string> = {
  open: 'Open',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
};

const STATE_TAGS: Record<AlertState, 'danger' | 'info' | 'success'> = {
  open: 'danger',
  acknowledged: 'info',
  resolved: 'success',
};

export function AlertStateTag({ state }: { state: AlertState }) {
  return <Tag value={STATE_LABELS[state]} severity={STATE_TAGS[state]} rounded />;
}

/**
 * Acknowledge and Resolve where the caller may answer the alert. Acknowledge works offline (the outbox sends it);
 * Resolve asks for a reason in a dialog and needs the network.
 */
export function AlertActions({ alert }: { alert: Alert }) {
  const acknowledge = useAcknowledge();
  const online = useOnline();
  const [resolving, setResolving] = useState(false);
  if (!alert.permissions.answer || alert.state === 'resolved') return null;
  return (
    <div className="flex flex-wrap gap-2">
      {alert.state === 'open' && (
        <Button
          type="button"
          label="Acknowledge"
          icon="pi pi-check"
          size="small"
          onClick={() => void acknowledge(alert)}
        />
      )}
      <Button
        type="button"
        label="Resolve"
        icon="pi pi-check-circle"
        size="small"
        outlined
        disabled={!online}
        title={online ? undefined : 'Resolving needs a connection'}
        onClick={() => setResolving(true)}
      />
      {resolving && <ResolveDialog alert={alert} onClose={() => setResolving(false)} />}
    </div>
  );
}
