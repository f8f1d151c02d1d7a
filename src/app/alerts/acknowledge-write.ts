import type { QueryKey } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Alert } from '../../contract/alerts.js';
import type { PageOf } from '../../contract/operation.js';
import { alertOperations } from '../../contract/operations/alerts.js';
import { keys } from '../api/query-keys.js';
import { useWrite } from '../local/local-provider.js';
import { isQueryKey, writeKind } from '../local/writes.js';
import { useAuth } from '../session/auth-context.js';

/**
 * Acknowledging goes through the outbox (docs/decisions.md#offline): on call, on a train, the alert shows as
 * acknowledged at once and the server hears it once back online. Resolving asks for a reason and stays online.
 */

/** Who acknowledged and when, as the lists show it before the server answers. */
export interface AcknowledgeView {
  at: string;
  by: { handle: string; name: string };
}

interface AcknowledgeInput {
  params: { id: string };
}

/** The alert as acknowledged; the same object when it is not open (so laying it over again changes nothing). */
function acknowledged<T extends Alert>(alert: T, view: AcknowledgeView): T {
  if (alert.state !== 'open') return alert;
  return { ...alert, state: 'acknowledged', acknowledged_at: view.at, acknowledged_by: view.by };
}

function overlayAcknowledge(queryKey: QueryKey, data: unknown, { params }: AcknowledgeInput, view: AcknowledgeView) {
  if (data === undefined) return data;
  if (isQueryKey(queryKey, keys.alert(params.id))) return acknowledged(data as Alert, view);
  const [scope, part] = keys.alertLists();
  if (queryKey[0] !== scope || queryKey[1] !== part) return data;
  const page = data as PageOf<Alert>;
  const index = page.items.findIndex((alert) => alert.id === params.id);
  const item = index < 0 ? undefined : page.items[index];
  const next = item && acknowledged(item, view);
  if (!next || next === item) return data;
  return { ...page, items: page.items.map((alert, at) => (at === index ? next : alert)) };
}

export const acknowledgeWrite = writeKind({
  kind: 'acknowledge-alert',
  operation: alertOperations.acknowledgeAlert,
  overlay: overlayAcknowledge,
  // 409: someone (or a link in a mail) acknowledged or resolved it first. What the user asked for holds: done.
  alreadyDone: [409],
  invalidates: ({ params }) => [keys.alert(params.id), keys.alertLists(), keys.openAlertCount()],
});

/** Acknowledges an alert: shown at once everywhere it is listed, sent now or once back online. */
export function useAcknowledge(): (alert: Alert) => Promise<void> {
  const write = useWrite();
  const { state } = useAuth();
  const handle = state.user?.handle ?? state.username ?? '';
  const name = state.user?.name ?? handle;
  return useCallback(
    async (alert: Alert) => {
      const view: AcknowledgeView = { at: new Date().toISOString(), by: { handle, name } };
      // A refused write is settled by the write path (the alert is read again); nothing more to do here.
      await write(
        acknowledgeWrite,
        { params: { id: alert.id } },
        { label: `Acknowledge ${alert.service.name}`, view },
      ).catch(() => undefined);
    },
    [write, handle, name],
  );
}
