/**
 * SLOs per service (docs/decisions.md#slos-and-scorecards, issue 28): editors set a target over a rolling window; every
 * reader of the service reads its status, measured from the health transition log as daily health is (domain/slo.ts).
 */
import type { SloAnswer, SloStatusAnswer } from '../../../contract/slo.js';
import { MS_PER_DAY } from '../../../domain/health.js';
import { BURN_WINDOWS, firingBurnAlerts, sloStatus, type HealthLog, type Slo } from '../../../domain/slo.js';
import type { Caller } from '../accounts/auth.js';
import { isoNow, type ServerContext } from '../../context.js';
import { listHealthTransitions, listHealthTransitionsOf } from '../../db/repositories/health.js';
import { deleteSlo as deleteSloRow, findSlo, upsertSlo } from '../../db/repositories/slos.js';
import type { ServiceRow, ServiceSloRow } from '../../db/schema.js';
import type { Db } from '../../db/repositories/workspaces.js';
import { notFound } from '../../errors.js';
import { requireUnmanaged } from '../catalogue/managed-marks.js';
import { editableService, visibleService } from '../catalogue/services.js';

const NO_SLO = 'The service has no SLO';

/** The stored row as the domain reads it (the target is kept in thousandths of a percent). */
export function sloOf(row: Pick<ServiceSloRow, 'target_thousandths' | 'window_days'>): Slo {
  return { target: row.target_thousandths / 1000, window_days: row.window_days as Slo['window_days'] };
}

function toAnswer(row: ServiceSloRow): SloAnswer {
  return { ...sloOf(row), updated_at: row.updated_at };
}

async function sloRowOf(ctx: ServerContext, workspaceId: string, serviceId: string): Promise<ServiceSloRow> {
  const row = await findSlo(ctx.database.db, workspaceId, serviceId);
  if (!row) throw notFound(NO_SLO);
  return row;
}

export async function getSlo(ctx: ServerContext, caller: Caller, service: string): Promise<SloAnswer> {
  const { row } = await visibleService(ctx, caller, service);
  return toAnswer(await sloRowOf(ctx, caller.workspace.id, row.id));
}

export async function setSlo(ctx: ServerContext, caller: Caller, service: string, input: Slo): Promise<SloAnswer> {
  const { row } = await editableService(ctx, caller, service);
  await requireUnmanaged(ctx, caller.workspace.id, row, 'service', 'change its SLO', 'slo');
  await upsertSlo(ctx.database.db, {
    service_id: row.id,
    workspace_id: caller.workspace.id,
    target_thousandths: Math.round(input.target * 1000),
    window_days: input.window_days,
    at: isoNow(ctx),
  });
  return toAnswer(await sloRowOf(ctx, caller.workspace.id, row.id));
}

export async function deleteSlo(ctx: ServerContext, caller: Caller, service: string): Promise<void> {
  const { row } = await editableService(ctx, caller, service);
  await requireUnmanaged(ctx, caller.workspace.id, row, 'service', 'change its SLO', 'slo');
  if (!(await deleteSloRow(ctx.database.db, caller.workspace.id, row.id))) throw notFound(NO_SLO);
}

/** The service's health log over the SLO's window (or the longest burn window, if longer), ending `now`. */
export async function sloHealthLog(
  db: Db,
  service: Pick<ServiceRow, 'id' | 'workspace_id' | 'created_at'>,
  slo: Slo,
  now: number,
): Promise<HealthLog> {
  const transitions = await listHealthTransitions(db, service.workspace_id, service.id, now - logSpan(slo), now);
  return { transitions, createdAt: Date.parse(service.created_at), now };
}

/** How far back an SLO's status reads: its window, or the slowest burn window when that is longer. */
const logSpan = (slo: Slo) => Math.max(slo.window_days * MS_PER_DAY, BURN_WINDOWS['3d'] * 1000);

/** sloHealthLog for several services of one workspace (a scorecard evaluation's), in two reads. */
export async function sloHealthLogs(
  db: Db,
  workspaceId: string,
  slos: ReadonlyArray<{ service: Pick<ServiceRow, 'id' | 'created_at'>; slo: Slo }>,
  now: number,
): Promise<Map<string, HealthLog>> {
  const from = now - Math.max(0, ...slos.map(({ slo }) => logSpan(slo)));
  const all = await listHealthTransitionsOf(
    db,
    workspaceId,
    slos.map(({ service }) => service.id),
    from,
    now,
  );
  const logs = new Map<string, HealthLog>();
  for (const { service, slo } of slos) {
    // As far back as this SLO reads: the last transition at or before its own start, then the rest.
    const transitions = all.get(service.id) ?? [];
    const start = now - logSpan(slo);
    let first = 0;
    for (let i = 0; i < transitions.length && transitions[i]!.at <= start; i++) first = i;
    logs.set(service.id, { transitions: transitions.slice(first), createdAt: Date.parse(service.created_at), now });
  }
  return logs;
}

export async function getSloStatus(ctx: ServerContext, caller: Caller, service: string): Promise<SloStatusAnswer> {
  const { row } = await visibleService(ctx, caller, service);
  const slo = sloOf(await sloRowOf(ctx, caller.workspace.id, row.id));
  const now = ctx.now().getTime();
  const log = await sloHealthLog(ctx.database.db, row, slo, now);
  const status = sloStatus(slo, log);
  return {
    ...status,
    exhausted_at: status.exhausted_at === null ? null : new Date(status.exhausted_at).toISOString(),
    alerts: firingBurnAlerts(slo, log),
    as_of: new Date(now).toISOString(),
  };
}
