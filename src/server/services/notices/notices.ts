/**
 * Notices (spec/catalogue.md 2.1, 4, 5 and 7; docs/decisions.md#api-conventions and #health-maths): incidents and
 * maintenance of a service. Viewers of the service read them; editors (canEditService) create and update them. A notice
 * may carry the service's health: it is applied in the notice's transaction with one event, and an open notice holds
 * that health (services/catalogue/service-health.ts) until it is resolved or completed.
 */
import { randomUUID } from 'node:crypto';
import type { Notice, NoticeCreate, NoticeUpdate } from '../../../contract/notices.js';
import { canEditService } from '../../../domain/catalogue.js';
import {
  defaultStatus,
  isClosed,
  isValidStatus,
  noticeExtrasErrors,
  noticeHealthError,
  type NoticeExtras,
  parseNoticeFilter,
  type NoticeType,
} from '../../../domain/notices.js';
import type { ServerContext } from '../../context.js';
import { recordEvent } from '../events/record-event.js';
import {
  appendNoticeHistory,
  findNotice,
  insertNotice,
  listNoticeHistory,
  listNotices as listNoticeRows,
  updateNotice as updateNoticeRow,
  type NoticeRow,
} from '../../db/repositories/notices.js';
import type { ServiceListRow } from '../../db/repositories/services.js';
import type { Db } from '../../db/repositories/workspaces.js';
import { badRequest, fieldError, forbidden, HttpError, notFound } from '../../errors.js';
import { agentColumns, agentOf } from '../accounts/agents.js';
import type { Caller } from '../accounts/auth.js';
import { editableService, visibleService } from '../catalogue/services.js';
import { recomputeServiceHealth, setServiceHealth } from '../catalogue/service-health.js';
import { queueNews } from '../status-pages/status-subscriptions.js';

const NOTICE_NOT_FOUND = 'The notice was not found';

type ServiceRef = Pick<ServiceListRow, 'id' | 'handle' | 'name'>;

async function toNotices(db: Db, rows: NoticeRow[], service: ServiceRef): Promise<Notice[]> {
  const histories = await listNoticeHistory(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const history = histories.get(row.id) ?? [];
    return {
      id: row.id,
      type: row.type,
      title: row.title,
      status: row.status as Notice['status'],
      message: history.at(-1)?.message ?? '',
      health: row.health,
      created_at: row.created_at,
      updated_at: row.updated_at,
      starts_at: row.starts_at,
      ends_at: row.ends_at,
      postmortem: row.postmortem,
      history: history.map((entry) => ({
        message: entry.message,
        status: entry.status as Notice['status'],
        time: entry.time,
      })),
      service: { id: service.id, handle: service.handle, name: service.name },
    };
  });
}

async function oneNotice(db: Db, row: NoticeRow, service: ServiceRef): Promise<Notice> {
  return (await toNotices(db, [row], service))[0]!;
}

/** Spec section 7: `type` and `status` comma lists; unknown values are refused. */
export async function listNotices(
  ctx: ServerContext,
  caller: Caller,
  idOrHandle: string,
  query: { type?: string; status?: string; cursor: number; limit: number },
): Promise<{ items: Notice[]; total: number }> {
  const { row: service } = await visibleService(ctx, caller, idOrHandle);
  const filter = parseNoticeFilter(query);
  if (!filter) {
    throw badRequest('Unknown notice type or status', {
      ...(query.type !== undefined ? { type: ['Types are incident and maintenance'] } : {}),
      ...(query.status !== undefined ? { status: ['Statuses are open and closed'] } : {}),
    });
  }
  const { db } = ctx.database;
  const page = await listNoticeRows(db, caller.workspace.id, service.id, filter, query);
  return { items: await toNotices(db, page.rows, service), total: page.total };
}

function requireStatusOf(type: NoticeType, status: string): void {
  if (!isValidStatus(type, status)) {
    throw badRequest(`${status} is not a status of ${type} notices`, fieldError('status', 'Not a status of this type'));
  }
}

function requireExtras(type: NoticeType, extras: NoticeExtras): void {
  const errors = noticeExtrasErrors(type, extras);
  const first = Object.values(errors)[0]?.[0];
  if (first) throw badRequest(first, errors);
}

/** The window and post-mortem as given: a field left out is not in the patch. */
function extrasPatch(input: NoticeExtras): NoticeExtras {
  const patch: NoticeExtras = {};
  if (input.starts_at !== undefined) patch.starts_at = input.starts_at && new Date(input.starts_at).toISOString();
  if (input.ends_at !== undefined) patch.ends_at = input.ends_at && new Date(input.ends_at).toISOString();
  if (input.postmortem !== undefined) patch.postmortem = input.postmortem?.trim() || null;
  return patch;
}

function requireHealthRule(status: string, health: NoticeCreate['health']): void {
  const message = health === undefined ? null : noticeHealthError(status, health);
  if (message) throw badRequest(message, fieldError('health', message));
}

/**
 * Applies the notice's consequence for the service's health: a given health is set as given (spec: the
 * editor's word); without one, a notice that just closed stops holding the service, which takes the health
 * its other signals call for.
 */
async function applyNoticeHealth(
  trx: Db,
  caller: Caller,
  serviceId: string,
  health: NoticeCreate['health'],
  closed: boolean,
  at: Date,
): Promise<void> {
  const workspaceId = caller.workspace.id;
  if (health !== undefined) {
    // The notice's event carries the change: one event (docs/decisions.md#api-conventions).
    await setServiceHealth(trx, {
      workspaceId,
      serviceId,
      health,
      at,
      source: 'notice',
      agent: agentOf(caller),
      announce: false,
    });
  } else if (closed) {
    await recomputeServiceHealth(trx, workspaceId, serviceId, at, {
      source: 'notice',
      agent: agentOf(caller),
      announce: false,
    });
  }
}

export async function createNotice(
  ctx: ServerContext,
  caller: Caller,
  idOrHandle: string,
  input: NoticeCreate,
): Promise<Notice> {
  const { row: service } = await editableService(ctx, caller, idOrHandle);
  if (input.service && input.service.id !== service.handle && input.service.id !== service.id) {
    throw badRequest('The notice names another service', fieldError('service', 'Must be the service of the path'));
  }
  const status = input.status ?? defaultStatus(input.type);
  requireStatusOf(input.type, status);
  requireHealthRule(status, input.health);
  requireExtras(input.type, input);
  const now = ctx.now();
  const iso = now.toISOString();
  const closed = isClosed(input.type, status);
  const row: NoticeRow = {
    id: randomUUID(),
    workspace_id: caller.workspace.id,
    service_id: service.id,
    type: input.type,
    title: input.title,
    status,
    open: closed ? 0 : 1,
    health: input.health ?? null,
    created_at: iso,
    updated_at: iso,
    starts_at: null,
    ends_at: null,
    postmortem: null,
    ...extrasPatch(input),
  };
  const { db } = ctx.database;
  await db.transaction().execute(async (trx) => {
    await insertNotice(trx, row);
    await appendNoticeHistory(trx, { notice_id: row.id, status, message: input.message, time: iso });
    await applyNoticeHealth(trx, caller, service.id, input.health, closed, now);
    await recordEvent(trx, {
      workspace_id: caller.workspace.id,
      profile_type: 'service',
      profile_id: service.id,
      type: 'notice.created',
      ...agentColumns(agentOf(caller)),
      data: { notice: row.id, type: row.type, title: row.title, status, health: row.health },
      created_at: iso,
    });
    await queueNews(trx, { notice: row, key: iso, message: input.message, event: 'notice.created' });
  });
  ctx.wakeStatusNews?.();
  ctx.wakeMaintenance?.();
  return oneNotice(db, row, service);
}

/** Spec section 4: only status and message change (type and title are fixed); every update is a history entry. */
export async function updateNotice(
  ctx: ServerContext,
  caller: Caller,
  id: string,
  input: NoticeUpdate,
): Promise<Notice> {
  const { db } = ctx.database;
  const notice = await findNotice(db, caller.workspace.id, id);
  if (!notice) throw notFound(NOTICE_NOT_FOUND);
  let found: Awaited<ReturnType<typeof visibleService>>;
  try {
    found = await visibleService(ctx, caller, notice.service_id);
  } catch (error) {
    throw error instanceof HttpError && error.statusCode === 404 ? notFound(NOTICE_NOT_FOUND) : error;
  }
  if (!canEditService(found.viewer, found.row.owner_team_id)) {
    throw forbidden('Only members of the owning team can update its notices');
  }
  requireStatusOf(notice.type, input.status);
  requireHealthRule(input.status, input.health);
  const extras = extrasPatch(input);
  requireExtras(notice.type, { ...notice, ...extras });
  const now = ctx.now();
  const iso = now.toISOString();
  const closed = isClosed(notice.type, input.status);
  const patch = {
    status: input.status,
    open: closed ? 0 : 1,
    updated_at: iso,
    ...(input.health !== undefined ? { health: input.health } : {}),
    ...extras,
  };
  await db.transaction().execute(async (trx) => {
    await updateNoticeRow(trx, caller.workspace.id, notice.id, patch);
    await appendNoticeHistory(trx, { notice_id: notice.id, status: input.status, message: input.message, time: iso });
    await applyNoticeHealth(trx, caller, notice.service_id, input.health, closed && Boolean(notice.open), now);
    await recordEvent(trx, {
      workspace_id: caller.workspace.id,
      profile_type: 'service',
      profile_id: notice.service_id,
      type: 'notice.updated',
      ...agentColumns(agentOf(caller)),
      data: { notice: notice.id, type: notice.type, title: notice.title, status: input.status, health: input.health },
      created_at: iso,
    });
    await queueNews(trx, {
      notice: { ...notice, ...patch },
      key: iso,
      message: input.message,
      event: 'notice.updated',
    });
  });
  ctx.wakeStatusNews?.();
  ctx.wakeMaintenance?.();
  return oneNotice(db, { ...notice, ...patch }, found.row);
}
