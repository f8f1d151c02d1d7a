/**
 * A health check's settings per kind (docs/decisions.md#checks): the columns an input becomes, checked per kind (a
 * field the kind has no use for is refused, not silently kept), the API's view of a row, and what a runner needs to
 * run it. One place, used by the checks API, the "Test" action, the shared runner and the team runners' sync.
 */
import { Cron } from 'croner';
import type { HealthCheck, HealthCheckUpdate } from '../../../contract/health.js';
import {
  defaultAssertions,
  formatAssertions,
  parseAssertions,
  validateAssertion,
} from '../../../domain/assertion-text.js';
import type { Assertion, CheckKind, ProbeSpec } from '../../../domain/check-kinds.js';
import { endpointError } from '../../../domain/check-targets.js';
import { checkAssertionSyntax } from '../../../runner/assertions.js';
import { workspaceOrigin } from '../../config.js';
import type { ServerContext } from '../../context.js';
import type { HealthCheckRow } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { randomToken, sha256 } from '../../crypto/secrets.js';

/** What create and update send (update may leave the kind's fields out: they keep their values). */
export type CheckInput = Omit<HealthCheckUpdate, 'kind' | 'retries' | 'recover_after'> &
  Partial<Pick<HealthCheckUpdate, 'kind' | 'retries' | 'recover_after'>>;

type KindColumns = Pick<
  HealthCheckRow,
  | 'kind'
  | 'endpoint'
  | 'request'
  | 'starttls'
  | 'record'
  | 'assertions'
  | 'retries'
  | 'recover_after'
  | 'grace'
  | 'schedule'
  | 'time_zone'
>;

const refuse = (field: string, message: string) => badRequest(`${field}: ${message}`, { [field]: [message] });

/** `value` given (not null or undefined) for a kind that has no use for it. */
function onlyFor(kinds: readonly CheckKind[], kind: CheckKind, field: string, value: unknown): void {
  if (value !== undefined && value !== null && !kinds.includes(kind))
    throw refuse(field, `Only ${kinds.join(' and ')} checks take ${field}`);
}

/** A cron schedule (5 fields) in a time zone; 400 naming the field when either is not one. */
export function checkSchedule(schedule: string | null, timeZone: string | null): void {
  if (timeZone) {
    try {
      new Intl.DateTimeFormat('en', { timeZone });
    } catch {
      throw refuse('time_zone', 'Must be an IANA time zone, e.g. Europe/Berlin');
    }
  }
  if (!schedule) return;
  if (schedule.trim().split(/\s+/).length !== 5) throw refuse('schedule', 'Must be a cron expression of 5 fields');
  try {
    new Cron(schedule, { timezone: timeZone ?? 'UTC', paused: true });
  } catch (error) {
    throw refuse('schedule', error instanceof Error ? error.message : 'Not a cron expression');
  }
}

/** The assertions an input gives (typed or as text), checked for the kind; undefined when it gives none. */
function assertionsOf(kind: CheckKind, input: CheckInput): Assertion[] | undefined {
  if (input.assertions !== undefined && input.assertions_text !== undefined)
    throw refuse('assertions_text', 'Send assertions or assertions_text, not both');
  let list = input.assertions;
  if (input.assertions_text !== undefined) {
    const parsed = parseAssertions(input.assertions_text);
    const first = parsed.errors[0];
    if (first) throw refuse('assertions_text', `Line ${first.line}: ${first.message}`);
    list = parsed.assertions;
  }
  if (list === undefined) return undefined;
  const field = input.assertions_text !== undefined ? 'assertions_text' : 'assertions';
  for (const [index, assertion] of list.entries()) {
    const problem = validateAssertion(kind, assertion);
    if (problem) throw refuse(field, `Assertion ${index + 1}: ${problem}`);
  }
  const syntax = checkAssertionSyntax(list)[0];
  if (syntax) throw refuse(field, `Assertion ${syntax.index + 1}: ${syntax.message}`);
  return list;
}

/**
 * The kind's columns from an input, on top of the check's current row (update) or of nothing (create). Throws
 * 400 naming the field for a bad target, a field the kind does not take, or an assertion that does not hold.
 */
export function kindColumns(input: CheckInput, current?: HealthCheckRow): KindColumns {
  const kind = input.kind ?? current?.kind ?? 'http';
  const sameKind = current?.kind === kind;
  const problem = endpointError(kind, input.endpoint);
  if (problem) throw refuse('endpoint', problem);
  onlyFor(['http', 'tcp'], kind, 'request', input.request);
  if (kind === 'tcp' && input.request && (input.request.method !== 'GET' || Object.keys(input.request.headers).length))
    throw refuse('request', 'A tcp check sends only a body');
  onlyFor(['tls'], kind, 'starttls', input.starttls);
  onlyFor(['dns'], kind, 'record', input.record);
  for (const field of ['grace', 'schedule', 'time_zone'] as const) onlyFor(['heartbeat'], kind, field, input[field]);
  if (kind === 'heartbeat' && input.runner) throw refuse('runner', 'A heartbeat is pinged, not probed: no runner');
  const keep = <K extends keyof KindColumns>(key: K, value: KindColumns[K] | undefined, fallback: KindColumns[K]) =>
    value !== undefined ? value : sameKind ? current![key] : fallback;
  const schedule = keep('schedule', input.schedule, null);
  const timeZone = keep('time_zone', input.time_zone, null);
  checkSchedule(schedule, timeZone);
  const assertions = assertionsOf(kind, input);
  return {
    kind,
    endpoint: kind === 'heartbeat' ? '' : input.endpoint.trim(),
    request: keep(
      'request',
      input.request === undefined ? undefined : input.request && JSON.stringify(input.request),
      null,
    ),
    starttls: keep('starttls', input.starttls, null),
    record: kind === 'dns' ? (keep('record', input.record, null) ?? 'A') : null,
    assertions: keep('assertions', assertions && JSON.stringify(assertions), null),
    retries: input.retries ?? current?.retries ?? 0,
    recover_after: input.recover_after ?? current?.recover_after ?? 1,
    grace: kind === 'heartbeat' ? (keep('grace', input.grace, null) ?? 60) : null,
    schedule,
    time_zone: timeZone,
  };
}

/** A heartbeat's new secret: 256 random bits, stored as its SHA-256 and sealed for showing it again. */
export function newPingToken(ctx: ServerContext): { ping_token_hash: string; ping_token_sealed: string } {
  const token = randomToken();
  return { ping_token_hash: sha256(token), ping_token_sealed: ctx.secretBox.seal(token) };
}

/** The check's assertions: its own, else its kind's defaults (docs/decisions.md#checks). */
export function checkAssertions(row: Pick<HealthCheckRow, 'kind' | 'assertions'>): Assertion[] {
  return row.assertions ? (JSON.parse(row.assertions) as Assertion[]) : defaultAssertions(row.kind);
}

/** What a runner needs to probe the check; null for a heartbeat (nothing to probe). */
export function probeSpecOf(
  row: Pick<HealthCheckRow, 'kind' | 'endpoint' | 'timeout' | 'request' | 'starttls' | 'record'>,
): ProbeSpec | null {
  if (row.kind === 'heartbeat') return null;
  return {
    kind: row.kind,
    endpoint: row.endpoint,
    timeoutSeconds: row.timeout,
    ...(row.request ? { request: JSON.parse(row.request) as NonNullable<ProbeSpec['request']> } : {}),
    ...(row.starttls ? { starttls: row.starttls } : {}),
    ...(row.record ? { record: row.record } : {}),
  };
}

/** The API's view of a check; the ping URL only for those who may edit it (it is a secret). */
export function toHealthCheck(
  ctx: ServerContext,
  row: HealthCheckRow,
  service: { handle: string },
  workspaceDomain: string,
  canEdit: boolean,
  spec: HealthCheck['spec'] = null,
): HealthCheck {
  const assertions = checkAssertions(row);
  const pingUrl =
    canEdit && row.kind === 'heartbeat' && row.ping_token_sealed
      ? `${workspaceOrigin(ctx.config, workspaceDomain)}/api/heartbeats/${ctx.secretBox.open(row.ping_token_sealed)}`
      : null;
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    endpoint: row.endpoint,
    runner: row.runner_id,
    frequency: row.frequency,
    allowed_failures: row.allowed_failures,
    importance: row.importance,
    disabled: Boolean(row.disabled),
    paused: Boolean(row.paused),
    timeout: row.timeout,
    service: { handle: service.handle },
    request: row.request ? (JSON.parse(row.request) as HealthCheck['request']) : null,
    starttls: row.starttls,
    record: row.record,
    assertions,
    assertions_text: formatAssertions(assertions),
    retries: row.retries,
    recover_after: row.recover_after,
    grace: row.grace,
    schedule: row.schedule,
    time_zone: row.time_zone,
    ping_url: pingUrl,
    spec,
  };
}
