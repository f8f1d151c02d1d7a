import { randomUUID } from 'node:crypto';
import type {
  DailyHealthEntry,
  HealthCheck,
  HealthCheckCreate,
  HealthCheckResult,
  HealthCheckUpdate,
} from '../../../contract/health.js';
import { canEditService } from '../../../domain/catalogue.js';
import {
  DAILY_HEALTH_MAX_DAYS,
  dailyHealth,
  dailyHealthReportFrom,
  MS_PER_DAY,
  utcDate,
  utcDayStart,
} from '../../../domain/health.js';
import {
  BUCKET_MS,
  bucketStart,
  reportPoints,
  type AggregatePoint,
  type ReportBucket,
} from '../../../domain/check-aggregates.js';
import { isoNow, type ServerContext } from '../../context.js';
import { listAggregates } from '../../db/repositories/check-aggregates.js';
import {
  findHealthCheck,
  insertHealthCheck,
  listHealthCheckResults,
  listHealthChecks as listHealthCheckRows,
  type HealthCheckResult as StoredResult,
  listHealthTransitions,
  listCachedDays,
  cacheDays,
  updateHealthCheck as updateHealthCheckRow,
} from '../../db/repositories/health.js';
import type { HealthCheckRow } from '../../db/schema.js';
import { badRequest, fieldError, forbidden, HttpError, notFound } from '../../errors.js';
import { agentOf } from '../accounts/agents.js';
import type { Caller } from '../accounts/auth.js';
import { CATALOG_CHECK_NAME } from '../../../domain/catalog-plan.js';
import { requireUnmanaged } from '../catalogue/managed-marks.js';
import { editableService, visibleService } from '../catalogue/services.js';
import { requireTeamRunner } from './runners.js';
import { recomputeServiceHealth } from '../catalogue/service-health.js';
import {
  checkAssertions,
  kindColumns,
  newPingToken,
  probeSpecOf,
  toHealthCheck,
  type CheckInput,
} from './check-settings.js';
import { runCheck, runnableCheck } from '../../../runner/run-check.js';
import { NO_SPEC, requireSpecForSchema, schemaValidator, specColumns, specLinksOf } from './spec-checks.js';
import type { CheckRun } from '../../../domain/check-kinds.js';

const HEALTH_CHECK_NOT_FOUND = 'The health check was not found';
/** Results report: the last 24 h unless asked otherwise, at most this many results (the newest). */
const RESULTS_DEFAULT_MS = MS_PER_DAY;
const RESULTS_LIMIT = 1000;

/** Query bounds as epoch ms; `from` after `to` is refused. */
function parseRange(query: { from?: string; to?: string }, defaults: { from: (to: number) => number; to: number }) {
  const to = query.to !== undefined ? Date.parse(query.to) : defaults.to;
  const from = query.from !== undefined ? Date.parse(query.from) : defaults.from(to);
  if (from > to) throw badRequest('from must not be after to', fieldError('from', 'Must not be after to'));
  return { from, to };
}

/**
 * docs/decisions.md#api-conventions and #health-maths: seconds per non-good state for each UTC day from `from` to `to`
 * (default: the later of the service's creation and 89 days before today's midnight, to now), oldest first, today
 * included. A range over 90 days answers its last 90. No transition means good since the service was created.
 */
export async function serviceHealthDaily(
  ctx: ServerContext,
  caller: Caller,
  idOrHandle: string,
  query: { from?: string; to?: string },
): Promise<DailyHealthEntry[]> {
  const { row } = await visibleService(ctx, caller, idOrHandle);
  const createdAt = Date.parse(row.created_at);
  const now = ctx.now().getTime();
  const range = parseRange(query, { to: now, from: (to) => dailyHealthReportFrom(createdAt, to) });
  // Spec: the report keeps only the last 90 entries; a longer range answers its last 90 days (domain dailyHealth).
  return dailyHealthWithCache(ctx, caller.workspace.id, row.id, {
    from: Math.max(range.from, createdAt),
    to: range.to,
    createdAt,
    now,
  });
}

/**
 * The last 90 days of a service's daily health, for readers that are not a caller of the workspace (status
 * pages): the same report and cache as serviceHealthDaily.
 */
export function recentDailyHealth(
  ctx: ServerContext,
  workspaceId: string,
  service: { id: string; created_at: string },
  now: number,
): Promise<DailyHealthEntry[]> {
  const createdAt = Date.parse(service.created_at);
  return dailyHealthWithCache(ctx, workspaceId, service.id, {
    from: dailyHealthReportFrom(createdAt, now),
    to: now,
    createdAt,
    now,
  });
}

/**
 * The report from the transition log, with complete past days read from the health_daily cache: a day the
 * range covers whole (from its midnight, or from the service's creation, to the next midnight) and that has
 * ended never changes, so it is integrated once and kept (recordHealthTransition drops cached days from a new
 * transition's day on). Only the other days (today, a partial first or last day) are integrated per request.
 */
async function dailyHealthWithCache(
  ctx: ServerContext,
  workspaceId: string,
  serviceId: string,
  range: { from: number; to: number; createdAt: number; now: number },
): Promise<DailyHealthEntry[]> {
  const { db } = ctx.database;
  const { to } = range;
  // A range over 90 days answers its last 90, from their first midnight (domain dailyHealth): list only those.
  const from = Math.max(range.from, utcDayStart(utcDate(to)) - (DAILY_HEALTH_MAX_DAYS - 1) * MS_PER_DAY);
  if (to < from) return [];
  const dayStarts: number[] = [];
  for (let day = utcDayStart(utcDate(from)); day <= to; day += MS_PER_DAY) dayStarts.push(day);
  const whole = (start: number) =>
    (from <= start || from === range.createdAt) && to >= start + MS_PER_DAY && start + MS_PER_DAY <= range.now;
  const cacheable = dayStarts.filter(whole);
  const cached = new Map<string, DailyHealthEntry>();
  if (cacheable.length > 0) {
    const rows = await listCachedDays(db, workspaceId, serviceId, utcDate(cacheable[0]!), utcDate(cacheable.at(-1)!));
    for (const day of rows) cached.set(day.date, day);
  }
  const missing = dayStarts.filter((start) => !cached.has(utcDate(start)));
  const computed = new Map<string, DailyHealthEntry>();
  if (missing.length > 0) {
    // One pass over the span of the days not cached (cached days inside it are integrated again, harmlessly).
    const spanFrom = Math.max(from, missing[0]!);
    const lastStart = missing.at(-1)!;
    const spanTo = lastStart === dayStarts.at(-1) ? to : lastStart + MS_PER_DAY;
    const transitions = await listHealthTransitions(db, workspaceId, serviceId, spanFrom, spanTo);
    for (const day of dailyHealth(transitions, { from: spanFrom, to: spanTo, initial: 'good' })) {
      computed.set(day.date, day);
    }
    const toCache = missing.filter(whole).map((start) => computed.get(utcDate(start))!);
    await cacheDays(db, workspaceId, serviceId, toCache);
  }
  return dayStarts.map((start) => {
    const date = utcDate(start);
    return cached.get(date) ?? computed.get(date)!;
  });
}

export async function listHealthChecks(ctx: ServerContext, caller: Caller, idOrHandle: string): Promise<HealthCheck[]> {
  const { row, viewer } = await visibleService(ctx, caller, idOrHandle);
  const rows = await listHealthCheckRows(ctx.database.db, caller.workspace.id, row.id);
  const canEdit = canEditService(viewer, row.owner_team_id);
  const links = await specLinksOf(ctx.database.db, caller.workspace.id, rows);
  return rows.map((check) =>
    toHealthCheck(ctx, check, row, caller.workspace.domain, canEdit, links.get(check.id) ?? null),
  );
}

/** The spec's columns of an input (the kind's come from check-settings.ts). */
function commonColumns(input: CheckInput) {
  return {
    name: input.name,
    runner_id: input.runner ?? null,
    frequency: input.frequency,
    timeout: input.timeout,
    allowed_failures: input.allowed_failures,
    importance: input.importance,
    disabled: input.disabled ? 1 : 0,
    paused: input.paused ? 1 : 0,
  };
}

/** A new check's row, as a create's input gives it (validated); a heartbeat gets its secret. */
export function newCheckRow(
  ctx: ServerContext,
  workspaceId: string,
  serviceId: string,
  input: HealthCheckCreate,
): HealthCheckRow {
  const kind = kindColumns(input);
  const now = isoNow(ctx);
  const ping = kind.kind === 'heartbeat' ? newPingToken(ctx) : {};
  return {
    id: randomUUID(),
    workspace_id: workspaceId,
    service_id: serviceId,
    ...commonColumns(input),
    ...kind,
    ...NO_SPEC,
    ping_token_hash: null,
    ping_token_sealed: null,
    ...ping,
    created_at: now,
    updated_at: now,
    failing: 0,
    failing_severity: null,
    recovering: 0,
    last_ping_at: null,
    last_ping_kind: null,
    last_ping_exit_code: null,
    lease_owner: null,
    lease_until: null,
  };
}

/** Editors of the service (canEditService); the spec's defaults are filled in by the contract. */
export async function createHealthCheck(
  ctx: ServerContext,
  caller: Caller,
  idOrHandle: string,
  input: HealthCheckCreate,
): Promise<HealthCheck> {
  const { row: service } = await editableService(ctx, caller, idOrHandle);
  if (input.runner) await requireTeamRunner(ctx, caller.workspace.id, service.owner_team_id, input.runner);
  const { db } = ctx.database;
  const fresh = newCheckRow(ctx, caller.workspace.id, service.id, input);
  const { columns: spec } = await specColumns(db, caller.workspace.id, service.id, fresh.kind, input.spec);
  requireSpecForSchema(fresh.assertions, spec, input.assertions_text !== undefined ? 'assertions_text' : 'assertions');
  const row = { ...fresh, ...spec };
  await insertHealthCheck(db, row);
  ctx.refreshChecks?.();
  return toHealthCheck(ctx, row, service, caller.workspace.domain, true, await specLinkOf(ctx, row));
}

/** The check and its service if the caller may see the service; a hidden check answers like a missing one. */
async function visibleCheck(ctx: ServerContext, caller: Caller, id: string) {
  const check = await findHealthCheck(ctx.database.db, caller.workspace.id, id);
  if (!check) throw notFound(HEALTH_CHECK_NOT_FOUND);
  try {
    return { check, ...(await visibleService(ctx, caller, check.service_id)) };
  } catch (error) {
    throw error instanceof HttpError && error.statusCode === 404 ? notFound(HEALTH_CHECK_NOT_FOUND) : error;
  }
}

/** The check and its service, for editors of the service only. */
async function editableCheck(ctx: ServerContext, caller: Caller, id: string) {
  const found = await visibleCheck(ctx, caller, id);
  if (!canEditService(found.viewer, found.row.owner_team_id)) {
    throw forbidden('Only members of the owning team can change its health checks');
  }
  return found;
}

/** PATCH with the full body: editors of the check's service. */
export async function updateHealthCheck(
  ctx: ServerContext,
  caller: Caller,
  id: string,
  input: HealthCheckUpdate,
): Promise<HealthCheck> {
  const { check, row: service } = await editableCheck(ctx, caller, id);
  // The check a health-check-url annotation keeps: its file says where it points (pausing it stays the UI's).
  const retargeted =
    input.name !== check.name || input.endpoint.trim() !== check.endpoint || (input.kind ?? check.kind) !== check.kind;
  if (check.name === CATALOG_CHECK_NAME && retargeted) {
    const what = 'change its health check URL';
    await requireUnmanaged(ctx, caller.workspace.id, service, 'service', what, 'health_check_url');
  }
  const kind = kindColumns(input, check);
  if (input.runner) await requireTeamRunner(ctx, caller.workspace.id, service.owner_team_id, input.runner);
  // A check that becomes a heartbeat gets its secret; one that stops being one loses it.
  const ping =
    kind.kind === 'heartbeat'
      ? check.ping_token_hash
        ? {}
        : newPingToken(ctx)
      : { ping_token_hash: null, ping_token_sealed: null };
  const { columns: spec } = await specColumns(
    ctx.database.db,
    caller.workspace.id,
    service.id,
    kind.kind,
    input.spec,
    check,
  );
  requireSpecForSchema(kind.assertions, spec, input.assertions_text !== undefined ? 'assertions_text' : 'assertions');
  const patch = { ...commonColumns(input), ...kind, ...ping, ...spec, updated_at: isoNow(ctx) };
  await ctx.database.db.transaction().execute(async (trx) => {
    await updateHealthCheckRow(trx, caller.workspace.id, check.id, patch);
    // A failing check paused, disabled or given another importance no longer holds its service where it did.
    if (check.failing)
      await recomputeServiceHealth(trx, caller.workspace.id, service.id, ctx.now(), {
        source: 'check',
        agent: agentOf(caller),
      });
  });
  ctx.refreshChecks?.();
  const updated = { ...check, ...patch };
  return toHealthCheck(ctx, updated, service, caller.workspace.domain, true, await specLinkOf(ctx, updated));
}

/** One check's spec link as the API shows it. */
async function specLinkOf(ctx: ServerContext, row: HealthCheckRow) {
  if (!row.spec_operation_id) return null;
  return (await specLinksOf(ctx.database.db, row.workspace_id, [row])).get(row.id) ?? null;
}

/**
 * "Test" (docs/decisions.md#checks): runs the check as the form holds it, once, through the shared runner's guard, and
 * answers the result with every assertion's actual value. Nothing is saved. Editors of the service.
 */
export async function testHealthCheck(
  ctx: ServerContext,
  caller: Caller,
  idOrHandle: string,
  input: HealthCheckCreate,
): Promise<HealthCheckResult> {
  const { row: service } = await editableService(ctx, caller, idOrHandle);
  const columns = kindColumns(input);
  const spec = probeSpecOf({ ...columns, timeout: input.timeout });
  if (!spec) throw badRequest('A heartbeat has nothing to run: the job pings its URL');
  const link = await specColumns(ctx.database.db, caller.workspace.id, service.id, columns.kind, input.spec);
  const validator = schemaValidator(link.spec, link.columns.spec_operation_id);
  const check = runnableCheck(spec, checkAssertions(columns), input.importance, columns.retries, validator);
  const { run } = await runCheck(check, {
    allowPrivate: ctx.config.allowPrivateTargets,
    dnsResolvers: ctx.config.dnsResolvers,
    rdapBootstrapUrl: ctx.config.rdapBootstrapUrl,
  });
  return resultOf(run);
}

/** A heartbeat's new ping URL: the old one stops working at once (editors). */
export async function rotatePingUrl(ctx: ServerContext, caller: Caller, id: string): Promise<HealthCheck> {
  const { check, row: service } = await editableCheck(ctx, caller, id);
  if (check.kind !== 'heartbeat') throw badRequest('Only a heartbeat has a ping URL');
  const ping = newPingToken(ctx);
  const patch = { ...ping, updated_at: isoNow(ctx) };
  await updateHealthCheckRow(ctx.database.db, caller.workspace.id, check.id, patch);
  const updated = { ...check, ...patch };
  return toHealthCheck(ctx, updated, service, caller.workspace.domain, true, await specLinkOf(ctx, updated));
}

/** Results oldest first: the last 24 h by default, at most the newest 1000. Viewers of the check's service. */
export async function healthCheckResults(
  ctx: ServerContext,
  caller: Caller,
  id: string,
  query: { from?: string; to?: string },
): Promise<HealthCheckResult[]> {
  const { check } = await visibleCheck(ctx, caller, id);
  const range = parseRange(query, { to: ctx.now().getTime(), from: (to) => to - RESULTS_DEFAULT_MS });
  const rows = await listHealthCheckResults(
    ctx.database.db,
    caller.workspace.id,
    check.id,
    range.from,
    range.to,
    RESULTS_LIMIT,
  );
  return rows.map((row) => resultOf(storedRun(row)));
}

/** A stored result as the run it was. */
function storedRun(result: StoredResult): CheckRun {
  return {
    start: result.start,
    time: result.time,
    success: Boolean(result.success),
    ...(result.status !== null ? { status: result.status } : {}),
    ...(result.error !== null ? { error: { class: result.error_class ?? 'protocol', message: result.error } } : {}),
    ...(result.assertions ? { assertions: JSON.parse(result.assertions) as CheckRun['assertions'] } : {}),
    ...(result.cert ? { cert: JSON.parse(result.cert) as CheckRun['cert'] } : {}),
    ...(result.severity ? { severity: result.severity } : {}),
  };
}

/** A run as the API answers it (docs/decisions.md#checks: the spec's fields and why). */
function resultOf(run: CheckRun): HealthCheckResult {
  const { start, latency_ms, ...rest } = run;
  return { ...rest, start: new Date(start).toISOString(), latency_ms: latency_ms ?? run.time };
}

/** Buckets of one aggregates report at most (the newest). */
const AGGREGATE_POINTS_LIMIT = 2000;
const AGGREGATES_DEFAULT_MS = 7 * MS_PER_DAY;

/**
 * docs/api.md#health-check-reports: a check's results per minute, hour or day (a day is its hours merged), oldest
 * first, from the aggregates written with the results: they outlive the raw results. Viewers of the check's service.
 */
export async function healthCheckAggregates(
  ctx: ServerContext,
  caller: Caller,
  id: string,
  query: { from?: string; to?: string; bucket: ReportBucket },
): Promise<AggregatePoint[]> {
  const { check } = await visibleCheck(ctx, caller, id);
  const range = parseRange(query, { to: ctx.now().getTime(), from: (to) => to - AGGREGATES_DEFAULT_MS });
  const size = BUCKET_MS[query.bucket];
  const from = Math.max(
    bucketStart(range.from, query.bucket),
    bucketStart(range.to, query.bucket) - (AGGREGATE_POINTS_LIMIT - 1) * size,
  );
  const stored = await listAggregates(
    ctx.database.db,
    caller.workspace.id,
    check.id,
    query.bucket === 'minute' ? 'minute' : 'hour',
    from,
    range.to,
  );
  return reportPoints(stored, query.bucket);
}
