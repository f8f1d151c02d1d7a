/**
 * What alert channels are told, queued in the transaction of the step that tells them (the alert outbox,
 * jobs/alert-outbox.ts, renders and sends each after the commit, in any process: the `a` announcement wakes it).
 */
import { randomUUID } from 'node:crypto';
import type { AlertAction, AlertSeverity, AlertState } from '../../../domain/alerts.js';
import { insertDeliveries } from '../../db/repositories/alerts.js';
import { announce } from '../../db/repositories/events.js';
import { pendingOutboxColumns } from '../../db/repositories/outbox.js';
import type { AlertChannelRow, AlertDeliveryRow, AlertRow } from '../../db/schema.js';
import type { Db } from '../../db/repositories/workspaces.js';

/** The announcement that wakes the alert outbox and the escalation job, in any process. */
export const ALERT_WORK = 'a';

/** What a queued delivery carries: the moment, as the outbox renders it later (domain/alerts.ts AlertMessage). */
export interface DeliveryNote {
  severity: AlertSeverity;
  state: AlertState;
  at: string;
  by?: string;
  reason?: string;
}

function deliveryRow(
  workspaceId: string,
  channelId: string,
  alertId: string | null,
  action: AlertAction,
  note: DeliveryNote,
): AlertDeliveryRow {
  return {
    id: randomUUID(),
    workspace_id: workspaceId,
    channel_id: channelId,
    alert_id: alertId,
    action,
    message: JSON.stringify(note),
    code: null,
    attempted_at: null,
    ...pendingOutboxColumns(note.at),
  };
}

/** Queues `action` for each channel, with the moment's note; one delivery id each (the vendor's repeat guard). */
export async function queueDeliveries(
  db: Db,
  alert: Pick<AlertRow, 'id' | 'workspace_id'>,
  channelIds: readonly string[],
  action: AlertAction,
  note: DeliveryNote,
): Promise<void> {
  if (channelIds.length === 0) return;
  await insertDeliveries(
    db,
    channelIds.map((channelId) => deliveryRow(alert.workspace_id, channelId, alert.id, action, note)),
  );
  await announce(db, ALERT_WORK);
}

/** A channel's test: a made-up critical alert, told once. */
export async function queueTest(db: Db, channel: AlertChannelRow, at: string, by: string): Promise<AlertDeliveryRow> {
  const row = deliveryRow(channel.workspace_id, channel.id, null, 'test', {
    severity: 'critical',
    state: 'open',
    at,
    by,
  });
  await insertDeliveries(db, [row]);
  await announce(db, ALERT_WORK);
  return row;
}
