/**
 * Escalation (docs/decisions.md#alerts): while an alert stays open, its team's policy tells level after level at
 * their times (domain/alerts.ts nextEscalation), round after round up to `repeat`; acknowledging or resolving it
 * stops that. Each step is taken by one process (a compare on the alert's `next_escalation_at`). A level's channels
 * get the alert through the alert outbox; its people (users, a team's members) a notification and a mail.
 */
import { randomUUID } from 'node:crypto';
import { nextEscalation, type EscalationStep } from '../../domain/alerts.js';
import type { ServerContext } from '../context.js';
import {
  claimEscalationStep,
  effectivePolicy,
  insertTimeline,
  listChannelsByIds,
  listDueEscalations,
  nextEscalationDue,
  postponeEscalation,
  recipientsOf,
  type AlertListRow,
} from '../db/repositories/alerts.js';
import { announce, insertEvents, insertNotifications } from '../db/repositories/events.js';
import { enqueueMails } from '../db/repositories/mail-outbox.js';
import { findWorkspaceById } from '../db/repositories/workspaces.js';
import { queueDeliveries, type DeliveryNote } from '../services/alerting/deliveries.js';
import { timelineRow } from '../services/alerting/lifecycle.js';
import { alertMail, deliveryMessage } from '../services/alerting/messages.js';
import { parsePolicy } from '../services/alerting/policy.js';
import { startOutboxLoop, type OutboxLoop } from './outbox-loop.js';
import { readOnce } from './read-once.js';

const BATCH = 100;
/**
 * Steps taken side by side: each is a few round trips, so one at a time falls behind a wave of alerts on PostgreSQL;
 * fewer than the pool's connections, so requests still find one.
 */
const AT_ONCE = 4;
const RETRY_MS = 30_000;

export function startAlertEscalation(ctx: ServerContext, options: { pollMs?: number } = {}): OutboxLoop {
  const db = ctx.database.jobs;
  const log = ctx.logger.child({ job: 'alert-escalation' });

  /** What one batch of due steps reads once (read-once.ts): a wave's steps share a few workspaces and teams. */
  const batchReads = () => ({
    workspace: readOnce((id: string) => findWorkspaceById(db, id)),
    policy: readOnce(async (workspaceId: string, teamId: string) =>
      parsePolicy(await effectivePolicy(db, workspaceId, teamId)),
    ),
  });

  const escalate = async (alert: AlertListRow, reads: ReturnType<typeof batchReads>) => {
    const workspace = await reads.workspace(alert.workspace_id);
    if (!workspace) return;
    // The policy as it is now: the service's team today, its levels today.
    const policy = await reads.policy(alert.workspace_id, alert.team_id);
    const openedAt = Date.parse(alert.opened_at);
    const done =
      alert.escalation_round === null ? null : { round: alert.escalation_round, level: alert.escalation_level! };
    const step = nextEscalation(policy.escalation, policy.repeat, openedAt, done);
    const following = step ? nextEscalation(policy.escalation, policy.repeat, openedAt, step) : null;
    const at = new Date().toISOString();
    await db.transaction().execute(async (trx) => {
      const claimed = await claimEscalationStep(trx, alert, {
        round: step?.round ?? alert.escalation_round ?? 0,
        level: step?.level ?? alert.escalation_level ?? 0,
        nextAt: following ? new Date(following.at).toISOString() : null,
      });
      if (!claimed || !step) return;
      await tell(trx, alert, step, policy.escalation[step.level]!.targets, at, workspace);
    });
  };

  const tell = async (
    trx: typeof db,
    alert: AlertListRow,
    step: EscalationStep,
    targets: ReturnType<typeof parsePolicy>['escalation'][number]['targets'],
    at: string,
    workspace: NonNullable<Awaited<ReturnType<typeof findWorkspaceById>>>,
  ) => {
    const note: DeliveryNote = { severity: alert.severity, state: 'open', at };
    const channelIds = targets.flatMap((t) => ('channel' in t ? [t.channel] : []));
    const channels = (await listChannelsByIds(trx, alert.workspace_id, channelIds)).filter(
      (channel) => channel.team_id === null || channel.team_id === alert.team_id,
    );
    await queueDeliveries(
      trx,
      alert,
      channels.map((channel) => channel.id),
      'trigger',
      note,
    );
    const people = await recipientsOf(trx, alert.workspace_id, {
      userIds: targets.flatMap((t) => ('user' in t ? [t.user] : [])),
      teamIds: targets.flatMap((t) => ('team' in t ? [t.team] : [])),
    });
    const told = [...channels.map((channel) => channel.name), ...people.map((person) => `@${person.handle}`)];
    const level = `Level ${step.level + 1}${step.round > 0 ? ` (round ${step.round + 1})` : ''}`;
    await insertTimeline(trx, [
      timelineRow(
        alert.id,
        at,
        'escalated',
        `${level}: told ${told.length > 0 ? told.join(', ') : 'nobody (its targets are gone)'}`,
        {
          target: told.join(', '),
        },
      ),
    ]);
    if (people.length === 0) return;
    const event = {
      workspace_id: alert.workspace_id,
      profile_type: 'service' as const,
      profile_id: alert.service_id,
      type: 'alert.escalated' as const,
      actor_id: null,
      agent_name: 'Beacon',
      data: { alert: alert.id, level: step.level + 1, round: step.round + 1 },
      created_at: at,
    };
    const [eventId] = await insertEvents(trx, [event]);
    await insertNotifications(
      trx,
      eventId!,
      event,
      people.map((person) => person.id),
    );
    await announce(trx, `e ${eventId}`);
    const message = await deliveryMessage(
      ctx,
      { id: randomUUID(), action: 'trigger', message: JSON.stringify(note) } as never,
      alert,
      workspace,
    );
    const mail = alertMail(message);
    await enqueueMails(
      trx,
      people.map((person) => ({ kind: 'mail' as const, recipient: person.email, ...mail })),
    );
  };

  const drain = async (isStopped: () => boolean): Promise<number | undefined> => {
    for (;;) {
      const due = await listDueEscalations(db, new Date().toISOString(), BATCH);
      const reads = batchReads();
      for (let i = 0; i < due.length; i += AT_ONCE) {
        if (isStopped()) return undefined;
        await Promise.all(
          due.slice(i, i + AT_ONCE).map((alert) =>
            escalate(alert, reads).catch(async (error: unknown) => {
              log.error({ err: error, alertId: alert.id }, 'could not escalate; trying again shortly');
              // Tried again later, not at once: a step that keeps failing must not spin the loop.
              await postponeEscalation(db, alert, new Date(Date.now() + RETRY_MS).toISOString()).catch(() => {});
            }),
          ),
        );
      }
      if (due.length < BATCH) break;
    }
    ctx.wakeMail?.();
    return nextEscalationDue(db);
  };

  const loop = startOutboxLoop({ pollMs: options.pollMs ?? 5000, log, drain });
  const unsubscribe = ctx.live.onAlertWork(loop.wake);
  return {
    ...loop,
    async stop() {
      unsubscribe();
      await loop.stop();
    },
  };
}
