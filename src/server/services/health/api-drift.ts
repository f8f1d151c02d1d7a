/**
 * API drift (docs/decisions.md#spec-checks, issue 30): an operation whose answers break the service's published spec,
 * found by the checks made from that spec. Each run of such a check either confirms the operation's drift (recorded the
 * first time, with the run as its example, as an `api.drift_found` event for the watchers) or clears it (an
 * `api.drift_cleared` event); a run that says nothing leaves it as it is (domain/api-drift.ts). The unique row
 * per operation makes "found" and "cleared" once each, whichever runner reports.
 */
import { randomUUID } from 'node:crypto';
import type { ApiDrift } from '../../../contract/spec-checks.js';
import { driftVerdict, operationLabel, type DriftExample } from '../../../domain/api-drift.js';
import type { CheckRun } from '../../../domain/check-kinds.js';
import type { ServerContext } from '../../context.js';
import {
  deleteDrift,
  findOperationDrift,
  insertDrift,
  listServiceDrift,
  touchDrift,
} from '../../db/repositories/api-drift.js';
import { recordEvent } from '../events/record-event.js';
import type { Db } from '../../db/repositories/workspaces.js';
import type { HealthCheckRow } from '../../db/schema.js';
import { agentColumns, type Agent } from '../accounts/agents.js';
import type { Caller } from '../accounts/auth.js';
import { visibleService } from '../catalogue/services.js';

export type SpecLinkedCheck = Pick<
  HealthCheckRow,
  | 'id'
  | 'workspace_id'
  | 'service_id'
  | 'spec_page_id'
  | 'spec_operation_id'
  | 'spec_method'
  | 'spec_path'
  | 'spec_version'
>;

/** Whether a check's runs judge a spec (its results are worth recordDrift's time). */
export function judgesSpec(check: Pick<HealthCheckRow, 'spec_page_id' | 'spec_operation_id'>): boolean {
  return check.spec_page_id !== null && check.spec_operation_id !== null;
}

/** Records what one run of a check made from a spec says about the spec (see the top). */
export async function recordDrift(
  db: Db,
  check: SpecLinkedCheck,
  run: Pick<CheckRun, 'start' | 'status' | 'assertions'>,
  agent: Agent,
): Promise<void> {
  if (!check.spec_page_id || !check.spec_operation_id) return;
  const verdict = driftVerdict(run);
  if (!verdict) return;
  const pageId = check.spec_page_id;
  const operation = {
    operation_id: check.spec_operation_id,
    method: check.spec_method ?? '',
    path: check.spec_path ?? '',
  };
  const at = new Date(run.start).toISOString();
  // Most runs change nothing (an answer to spec, no drift; or drift seen again): one indexed read, no transaction.
  const current = await findOperationDrift(db, check.service_id, pageId, operation.operation_id);
  if (!verdict.breaks && !current) return;
  if (verdict.breaks && current) {
    if (at > current.last_seen) await touchDrift(db, current.id, at);
    return;
  }
  // Found or cleared: the row and its event together, once, whichever runner reports meanwhile (the delete's count
  // and the insert's conflict decide).
  await db.transaction().execute(async (trx) => {
    const event = (type: 'api.drift_found' | 'api.drift_cleared', message?: string) =>
      recordEvent(trx, {
        workspace_id: check.workspace_id,
        profile_type: 'service',
        profile_id: check.service_id,
        type,
        ...agentColumns(agent),
        data: {
          operation: operationLabel(operation),
          page: pageId,
          spec_version: check.spec_version,
          ...(message !== undefined ? { message } : {}),
        } as never,
        created_at: at,
      });
    if (!verdict.breaks) {
      if (await deleteDrift(trx, current!.id)) await event('api.drift_cleared');
      return;
    }
    const inserted = await insertDrift(trx, {
      id: randomUUID(),
      workspace_id: check.workspace_id,
      service_id: check.service_id,
      page_id: pageId,
      ...operation,
      spec_version: check.spec_version,
      check_id: check.id,
      since: at,
      last_seen: at,
      example: JSON.stringify(verdict.example),
    });
    if (inserted) await event('api.drift_found', verdict.example.message);
  });
}

/** `GET /services/{s}/drift`: the service's operations in drift now, oldest first. Viewers of the service. */
export async function listApiDrift(ctx: ServerContext, caller: Caller, service: string): Promise<ApiDrift[]> {
  const { row } = await visibleService(ctx, caller, service);
  const rows = await listServiceDrift(ctx.database.db, caller.workspace.id, row.id);
  return rows.map((drift) => ({
    operation_id: drift.operation_id,
    method: drift.method,
    path: drift.path,
    page: drift.page,
    spec_version: drift.spec_version,
    check: drift.check_id && drift.check_name ? { id: drift.check_id, name: drift.check_name } : null,
    since: drift.since,
    last_seen: drift.last_seen,
    example: JSON.parse(drift.example) as DriftExample,
  }));
}
