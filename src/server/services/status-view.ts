/**
 * What visitors and tools read of a status page (DESIGN.md 13, issue 27): which page a request names (by the
 * workspace's host, or by a custom domain), whether it may read it (anyone, a password cookie, a session of the
 * workspace), and the page itself, computed once per change of anything it shows (the status versions of the
 * workspace and of the workspaces it links to, migration 025), never kept by a timer.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import type { StatusComponent, StatusNotice, StatusSummary, StatusView } from '../../contract/status-pages.js';
import { MS_PER_DAY, utcDate, utcDayStart } from '../../domain/health.js';
import { isClosed } from '../../domain/notices.js';
import { remoteNodeId } from '../../domain/graph.js';
import {
  componentStatusOf,
  pageStatus,
  statusDays,
  upstreamImpacts,
  uptimeOver,
  type UpstreamNode,
} from '../../domain/status-pages.js';
import { workspaceLabelOf } from '../config.js';
import type { ServerContext } from '../context.js';
import { listRemoteDependencies } from '../db/repositories/dependencies.js';
import { listNoticeHistory } from '../db/repositories/notices.js';
import {
  findPageNotice,
  findStatusPage,
  findStatusPageByDomain,
  listClosedNotices,
  listComponents,
  listOpenServices,
  listPageNotices,
  listWorkspaceEdges,
  readStatusVersions,
  type ComponentRow,
  type StatusNoticeRow,
} from '../db/repositories/status-pages.js';
import { findWorkspaceByDomain, findWorkspaceById } from '../db/repositories/workspaces.js';
import type { StatusPageRow, WorkspaceRow } from '../db/schema.js';
import { notFound, unauthorized } from '../errors.js';
import { SESSION_COOKIE } from '../http.js';
import { perContext } from '../per-context.js';
import { authenticateCookie } from './auth.js';
import { recentDailyHealth } from './health.js';
import { verifyPassword } from './secrets.js';
import { STATUS_PAGE_NOT_FOUND, statusPageUrl } from './status-pages.js';

/** Days of bars a page shows. */
export const STATUS_DAYS = 90;
/** Resolved notices listed on the page itself (the rest are in the history). */
const RECENT_NOTICES = 20;
/** How long an unlocked password page stays unlocked in a browser. */
const UNLOCK_SECONDS = 30 * 86_400;

export interface StatusTarget {
  workspace: WorkspaceRow;
  page: StatusPageRow;
  /** Where the page's own paths start: `/status/{page}` on the workspace's host, `` on its custom domain. */
  basePath: string;
}

function hostOf(request: FastifyRequest): string {
  return (request.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
}

/** The page a custom domain serves, if the request's host is one. */
export async function pageOfCustomDomain(ctx: ServerContext, request: FastifyRequest): Promise<StatusTarget | null> {
  const { db } = ctx.database;
  const host = hostOf(request);
  if (!host || host === ctx.config.baseDomain.toLowerCase()) return null;
  if (workspaceLabelOf(request.headers.host, ctx.config.baseDomain)) return null;
  const page = await findStatusPageByDomain(db, host);
  if (!page) return null;
  const workspace = await findWorkspaceById(db, page.workspace_id);
  if (!workspace || workspace.status === 'inactive') return null;
  return { workspace, page, basePath: '' };
}

/**
 * The page `handle` names on this host: of the workspace whose host it is, or the custom domain's own page. A
 * page of another workspace is never reachable through this host (404, as for no page at all).
 */
export async function statusTargetOf(
  ctx: ServerContext,
  request: FastifyRequest,
  handle: string,
): Promise<StatusTarget> {
  const { db } = ctx.database;
  const custom = await pageOfCustomDomain(ctx, request);
  if (custom) {
    if (custom.page.handle !== handle) throw notFound(STATUS_PAGE_NOT_FOUND);
    return custom;
  }
  const label = workspaceLabelOf(request.headers.host, ctx.config.baseDomain);
  const workspace = label ? await findWorkspaceByDomain(db, label) : undefined;
  if (!workspace || workspace.status === 'inactive') throw notFound(STATUS_PAGE_NOT_FOUND);
  const page = await findStatusPage(db, workspace.id, handle);
  if (!page) throw notFound(STATUS_PAGE_NOT_FOUND);
  return { workspace, page, basePath: `/status/${page.handle}` };
}

// ---- who may read ----

const unlockCookieName = (page: StatusPageRow) => `beacon_status_${page.id.replace(/-/g, '')}`;

/** The unlock proof names the page and its password (a new password locks every browser out again). */
const passwordMark = (page: StatusPageRow) => (page.password_hash ?? '').slice(-16);

/** Whether the request may read the page: true, or the reason it may not ('password' or 'members'). */
export async function mayRead(
  ctx: ServerContext,
  request: FastifyRequest,
  target: StatusTarget,
): Promise<true | 'password' | 'members'> {
  const { page, workspace } = target;
  if (page.access === 'public') return true;
  if (page.access === 'password') {
    const token = request.cookies[unlockCookieName(page)];
    if (!token) return 'password';
    try {
      const { payload } = await jwtVerify<{ page?: unknown; mark?: unknown }>(token, ctx.jwtKey, {
        algorithms: ['HS256'],
        currentDate: ctx.now(),
      });
      return payload.page === page.id && payload.mark === passwordMark(page) ? true : 'password';
    } catch {
      return 'password';
    }
  }
  try {
    await authenticateCookie(ctx, workspace.domain, request.cookies[SESSION_COOKIE]);
    return true;
  } catch {
    return 'members';
  }
}

/** 401 unless the request may read the page. */
export async function requireReader(ctx: ServerContext, request: FastifyRequest, target: StatusTarget): Promise<void> {
  const verdict = await mayRead(ctx, request, target);
  if (verdict === 'password') throw unauthorized('This status page needs its password');
  if (verdict === 'members') throw unauthorized('This status page is for members of the workspace: sign in');
}

/** Checks a password page's password and sets the cookie that unlocks it; 401 when it is wrong. */
export async function unlockPage(
  ctx: ServerContext,
  target: StatusTarget,
  password: string,
  reply: FastifyReply,
): Promise<void> {
  const { page } = target;
  if (page.access !== 'password' || !page.password_hash || !(await verifyPassword(page.password_hash, password))) {
    throw unauthorized('The password is not right');
  }
  const issuedAt = Math.floor(ctx.now().getTime() / 1000);
  const token = await new SignJWT({ page: page.id, mark: passwordMark(page) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + UNLOCK_SECONDS)
    .sign(ctx.jwtKey);
  void reply.setCookie(unlockCookieName(page), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.publicUrl.protocol === 'https:',
    maxAge: UNLOCK_SECONDS,
  });
}

// ---- the page ----

/** A post-mortem as HTML: CommonMark with GFM and no raw HTML (escaped), unsafe link protocols dropped. */
export function postmortemHtml(markdown: string): string {
  return micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

interface Kept {
  versions: string;
  view: Promise<StatusView>;
}
const keptViews = perContext(() => new Map<string, Kept>());

/**
 * The page as it renders, kept per page while the status versions of its workspace (and linked ones) are the
 * ones it was made at, and made at most once per day boundary (bars move at midnight UTC).
 */
export async function statusView(ctx: ServerContext, target: StatusTarget): Promise<StatusView> {
  const versions = `${await readStatusVersions(ctx.database.db, target.workspace.id)};${utcDate(ctx.now().getTime())}`;
  const kept = keptViews(ctx);
  const key = `${target.page.id}\u0000${target.basePath}`;
  const hit = kept.get(key);
  if (hit && hit.versions === versions) return hit.view;
  const view = makeView(ctx, target);
  kept.set(key, { versions, view });
  view.catch(() => kept.delete(key));
  return view;
}

function pageUrlOf(ctx: ServerContext, target: StatusTarget): string {
  return statusPageUrl(ctx, target.workspace, target.page);
}

async function makeView(ctx: ServerContext, target: StatusTarget): Promise<StatusView> {
  const { db } = ctx.database;
  const { workspace, page } = target;
  const now = ctx.now().getTime();
  const components = await listComponents(db, workspace.id, [page.id]);
  const serviceIds = components.map((component) => component.service_id);
  const since = new Date(utcDayStart(utcDate(now)) - (STATUS_DAYS - 1) * MS_PER_DAY).toISOString();
  const [notices, reports, upstream] = await Promise.all([
    listPageNotices(db, workspace.id, serviceIds, since),
    Promise.all(
      components.map((component) =>
        recentDailyHealth(ctx, workspace.id, { id: component.service_id, created_at: component.created_at }, now),
      ),
    ),
    page.show_upstream ? upstreamGraph(ctx, workspace.id) : Promise.resolve(null),
  ]);
  const pageUrl = pageUrlOf(ctx, target);
  const statusNotices = await toStatusNotices(ctx, notices, components, pageUrl);
  const noticesByService = new Map<string, StatusNotice[]>();
  for (const notice of statusNotices) {
    for (const handle of notice.components) {
      noticesByService.set(handle, [...(noticesByService.get(handle) ?? []), notice]);
    }
  }
  const viewComponents: StatusComponent[] = components.map((component, index) => {
    const report = reports[index]!;
    const createdAt = Date.parse(component.created_at);
    const span = { now, createdAt, count: STATUS_DAYS };
    const own = noticesByService.get(component.handle) ?? [];
    return {
      handle: component.handle,
      name: component.name,
      group: component.group_name,
      status: componentStatusOf(component.health),
      uptime_90d: uptimeOver(report, span),
      days: statusDays(report, span).map((day) => ({
        ...day,
        notices: own
          .filter((notice) => coversDay(notice, day.date, now))
          .map((notice) => ({ id: notice.id, type: notice.type, title: notice.title })),
      })),
      affected_by: upstream ? upstreamImpacts(component.handle, upstream, page.upstream_depth) : [],
    };
  });
  const active = statusNotices.filter(
    (notice) => notice.open && (notice.type === 'incident' || notice.status !== 'scheduled'),
  );
  const scheduled = statusNotices
    .filter((notice) => notice.open && notice.type === 'maintenance' && notice.status === 'scheduled')
    .sort((a, b) => (a.starts_at ?? a.created_at).localeCompare(b.starts_at ?? b.created_at));
  const recent = statusNotices
    .filter((notice) => !notice.open)
    .sort((a, b) => b.updated_at.localeCompare(a.updated_at))
    .slice(0, RECENT_NOTICES);
  return {
    page: {
      handle: page.handle,
      title: page.title,
      description: page.description,
      logo_url: page.logo_url,
      url: pageUrl,
      updated_at: new Date(now).toISOString(),
    },
    status: pageStatus(viewComponents.map((component) => component.status)),
    components: viewComponents,
    active,
    scheduled,
    recent,
  };
}

/** Whether a notice was going on during a UTC date: from its start (or window) to its close (or now). */
function coversDay(notice: StatusNotice, date: string, now: number): boolean {
  const dayStart = utcDayStart(date);
  const from = Date.parse(notice.starts_at ?? notice.created_at);
  const to = notice.open
    ? Math.max(now, Date.parse(notice.ends_at ?? notice.created_at))
    : Date.parse(notice.updated_at);
  return from < dayStart + MS_PER_DAY && to >= dayStart;
}

async function toStatusNotices(
  ctx: ServerContext,
  rows: readonly StatusNoticeRow[],
  components: readonly Pick<ComponentRow, 'service_id' | 'handle'>[],
  pageUrl: string,
): Promise<StatusNotice[]> {
  const histories = await listNoticeHistory(
    ctx.database.db,
    rows.map((row) => row.id),
  );
  const handleOf = new Map(components.map((component) => [component.service_id, component.handle]));
  return rows.map((row) => {
    const history = histories.get(row.id) ?? [];
    const resolved = row.type === 'incident' && isClosed(row.type, row.status);
    return {
      id: row.id,
      type: row.type,
      title: row.title,
      status: row.status as StatusNotice['status'],
      open: row.open === 1,
      components: handleOf.has(row.service_id) ? [handleOf.get(row.service_id)!] : [],
      created_at: row.created_at,
      updated_at: row.updated_at,
      starts_at: row.starts_at,
      ends_at: row.ends_at,
      updates: history
        .map((entry) => ({
          status: entry.status as StatusNotice['status'],
          body: entry.message,
          created_at: entry.time,
        }))
        .reverse(),
      postmortem_html: resolved && row.postmortem ? postmortemHtml(row.postmortem) : null,
      url: `${pageUrl}/incidents/${row.id}`,
    };
  });
}

/**
 * The workspace's dependency graph as a page walks it: every service anyone in the workspace may see (owner-only
 * ones are never named on a public page, nor walked through), and the linked workspaces' public services its
 * services depend on, as leaves.
 */
async function upstreamGraph(ctx: ServerContext, workspaceId: string): Promise<Map<string, UpstreamNode>> {
  const { db } = ctx.database;
  const [services, edges] = await Promise.all([listOpenServices(db, workspaceId), listWorkspaceEdges(db, workspaceId)]);
  const handleOf = new Map(services.map((service) => [service.id, service.handle]));
  const nodes = new Map<string, UpstreamNode & { dependencies: string[] }>();
  for (const service of services) {
    nodes.set(service.handle, { id: service.handle, name: service.name, health: service.health, dependencies: [] });
  }
  for (const edge of edges) {
    const from = handleOf.get(edge.service_id);
    const to = handleOf.get(edge.dependency_id);
    if (from && to) nodes.get(from)!.dependencies.push(to);
  }
  const remotes = await listRemoteDependencies(db, workspaceId, [...handleOf.keys()]);
  for (const remote of remotes) {
    const from = handleOf.get(remote.service_id);
    if (!from || remote.live_health === null) continue;
    const id = remoteNodeId(remote.remote_domain, remote.remote_handle);
    if (!nodes.has(id)) {
      nodes.set(id, { id, name: remote.live_name ?? remote.remote_name, health: remote.live_health, dependencies: [] });
    }
    nodes.get(from)!.dependencies.push(id);
  }
  return nodes;
}

// ---- for tools ----

/** Statuspage's v2 summary (notes/integrations.md 11) from the page's view. */
export function summaryOf(view: StatusView, target: StatusTarget): StatusSummary {
  const pageId = target.page.id;
  const componentOf = new Map(
    view.components.map((component, position) => [
      component.handle,
      {
        id: component.handle,
        name: component.name,
        status: component.status,
        created_at: target.page.created_at,
        updated_at: view.page.updated_at,
        position: position + 1,
        description: null,
        showcase: true,
        start_date: null,
        group_id: null,
        page_id: pageId,
        group: false,
        only_show_if_degraded: false,
      },
    ]),
  );
  const incident = (notice: StatusNotice) => ({
    id: notice.id,
    name: notice.title,
    status: notice.status,
    impact: impactOf(notice, view),
    created_at: notice.created_at,
    updated_at: notice.updated_at,
    monitoring_at: notice.updates.find((update) => update.status === 'monitoring')?.created_at ?? null,
    resolved_at: notice.open ? null : notice.updated_at,
    shortlink: notice.url,
    started_at: notice.starts_at ?? notice.created_at,
    page_id: pageId,
    ...(notice.type === 'maintenance' ? { scheduled_for: notice.starts_at, scheduled_until: notice.ends_at } : {}),
    incident_updates: notice.updates.map((update, index) => ({
      id: `${notice.id}-${notice.updates.length - index}`,
      status: update.status,
      body: update.body,
      incident_id: notice.id,
      created_at: update.created_at,
      updated_at: update.created_at,
      display_at: update.created_at,
    })),
    components: notice.components.flatMap((handle) => (componentOf.has(handle) ? [componentOf.get(handle)!] : [])),
  });
  return {
    page: {
      id: pageId,
      name: view.page.title,
      url: view.page.url,
      time_zone: 'Etc/UTC',
      updated_at: view.page.updated_at,
    },
    status: view.status,
    components: [...componentOf.values()],
    incidents: view.active.filter((notice) => notice.type === 'incident').map(incident),
    scheduled_maintenances: [...view.active.filter((notice) => notice.type === 'maintenance'), ...view.scheduled].map(
      incident,
    ),
  };
}

/** Statuspage's impact of an incident: the worst status among the components it is about. */
function impactOf(notice: StatusNotice, view: StatusView): string {
  if (notice.type === 'maintenance') return 'maintenance';
  const statuses = view.components
    .filter((component) => notice.components.includes(component.handle))
    .map((component) => component.status);
  const { indicator } = pageStatus(statuses);
  return indicator === 'maintenance' ? 'none' : indicator;
}

/** Resolved incidents and completed maintenance of the page's components, newest first. */
export async function statusHistory(
  ctx: ServerContext,
  target: StatusTarget,
  page: { cursor: number; limit: number },
): Promise<{ items: StatusNotice[]; total: number }> {
  const { db } = ctx.database;
  const components = await listComponents(db, target.workspace.id, [target.page.id]);
  const { rows, total } = await listClosedNotices(
    db,
    target.workspace.id,
    components.map((component) => component.service_id),
    page,
  );
  return { items: await toStatusNotices(ctx, rows, components, pageUrlOf(ctx, target)), total };
}

/** A component of the page by its service's handle, 404 when the page does not show it. */
export function componentOf(view: StatusView, handle: string): StatusComponent {
  const component = view.components.find((candidate) => candidate.handle === handle);
  if (!component) throw notFound('The page shows no such component');
  return component;
}

/** One notice of the page (its permalink), from the view or the history; 404 when not the page's. */
export async function statusNoticeOf(ctx: ServerContext, target: StatusTarget, view: StatusView, id: string) {
  const known = [...view.active, ...view.scheduled, ...view.recent].find((notice) => notice.id === id);
  if (known) return known;
  const { db } = ctx.database;
  const components = await listComponents(db, target.workspace.id, [target.page.id]);
  const row = await findPageNotice(db, target.workspace.id, id);
  if (!row || !components.some((component) => component.service_id === row.service_id)) {
    throw notFound('The notice was not found');
  }
  return (await toStatusNotices(ctx, [row], components, pageUrlOf(ctx, target)))[0]!;
}
