/**
 * What visitors and tools read of a status page (docs/decisions.md#status-pages, issue 27): which page a request names
 * (by the workspace's host, or by a custom domain; who may read it is status-access.ts), and the page itself, made once
 * per change of anything it shows (the status versions of the workspace and of the workspaces it links to, migration
 * 025) with the documents made of it, never kept by a timer.
 */
import type { FastifyRequest } from 'fastify';
import { Answer, FreshReads, TurnReads } from '../../cache/answer-cache.js';
import { BoundedMap } from '../../cache/bounded-map.js';
import { sideReaderOf } from '../../db/connect.js';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import type { StatusComponent, StatusNotice, StatusSummary, StatusView } from '../../../contract/status-pages.js';
import { MS_PER_DAY, utcDate, utcDayStart } from '../../../domain/health.js';
import { isClosed } from '../../../domain/notices.js';
import { remoteNodeId } from '../../../domain/graph.js';
import { componentStatusOf, pageStatus, upstreamImpacts, type UpstreamNode } from '../../../domain/status-pages.js';
import { workspaceLabelOf } from '../../config.js';
import type { ServerContext } from '../../context.js';
import { listRemoteDependencies } from '../../db/repositories/dependencies.js';
import { listNoticeHistory } from '../../db/repositories/notices.js';
import {
  findPageNotice,
  findStatusPageById,
  isDomainNamed,
  listClosedNotices,
  listComponents,
  listOpenServices,
  listPageNotices,
  listWorkspaceEdges,
  probeStatusPage,
  probeWorkspace,
  type StatusPageProbe,
  type WorkspaceProbe,
  type ComponentRow,
  type StatusNoticeRow,
} from '../../db/repositories/status-pages.js';
import { findWorkspaceById } from '../../db/repositories/workspaces.js';
import type { StatusPageRow, WorkspaceRow } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { perContext } from '../../per-context.js';
import { STATUS_DAYS, StatusDays } from './status-days.js';
import { STATUS_PAGE_NOT_FOUND, statusPageUrl } from './status-pages.js';

/** Resolved notices listed on the page itself (the rest are in the history). */
const RECENT_NOTICES = 20;

export interface StatusTarget {
  workspace: WorkspaceRow;
  page: StatusPageRow;
  /** Where the page's own paths start: `/status/{page}` on the workspace's host, `` on its custom domain. */
  basePath: string;
  /** What the page shows was read at: the status versions it depends on, and the UTC day. */
  versions: string;
}

/** What the page lookup reads of a request: its Host header (a raw request has it as Fastify's does). */
export type HostRequest = Pick<FastifyRequest, 'headers'>;

function hostOf(request: HostRequest): string {
  return (request.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
}

/** The request's host when it may be a custom domain: neither the base domain nor a workspace's host. */
function customHostOf(ctx: ServerContext, request: HostRequest): string | null {
  const host = hostOf(request);
  if (!host || host === ctx.config.baseDomain.toLowerCase()) return null;
  if (workspaceLabelOf(request.headers.host, ctx.config.baseDomain)) return null;
  return host;
}

/** The page a custom domain serves, if the request's host is one proved by its TXT record (issue 48). */
export async function pageOfCustomDomain(ctx: ServerContext, request: HostRequest): Promise<StatusTarget | null> {
  const host = customHostOf(ctx, request);
  if (!host) return null;
  return targetOf(ctx, await probeOf(ctx, 'custom domain', [host]), '');
}

/** Whether the request's host is a custom domain some page names, none having proved it. */
export async function isUnprovedDomain(ctx: ServerContext, request: HostRequest): Promise<boolean> {
  const host = customHostOf(ctx, request);
  return host !== null && (await isDomainNamed(ctx.database.db, host));
}

/**
 * The page `handle` names on this host: of the workspace whose host it is, or the custom domain's own page. A
 * page of another workspace is never reachable through this host (404, as for no page at all).
 */
export async function statusTargetOf(ctx: ServerContext, request: HostRequest, handle: string): Promise<StatusTarget> {
  const custom = await pageOfCustomDomain(ctx, request);
  if (custom) {
    if (custom.page.handle !== handle) throw notFound(STATUS_PAGE_NOT_FOUND);
    return custom;
  }
  const label = workspaceLabelOf(request.headers.host, ctx.config.baseDomain);
  const probe = label ? await probeOf(ctx, 'host', [label, handle]) : undefined;
  const target = await targetOf(ctx, probe, `/status/${handle}`);
  if (!target) throw notFound(STATUS_PAGE_NOT_FOUND);
  return target;
}

// ---- what is kept per page ----

/** Pages found by host or domain, remembered with the versions they were found at. */
const KNOWN_PAGES = 10_000;

const knownPages = perContext(() => ({
  pages: new BoundedMap<string, StatusPageProbe>({ maxWeight: KNOWN_PAGES }),
  // Where the reads are not synchronous (PostgreSQL), requests that come in while one runs share the next; where
  // they are (SQLite), the requests of a turn of the event loop share one made at its end.
  workspaces: new FreshReads<WorkspaceProbe | undefined>(),
  turns: new TurnReads<WorkspaceProbe | undefined>(),
}));

/**
 * Which page a request names, and the versions of what it shows. A page found once is read again by its
 * workspace's id alone (a search by key), and looked for again only when its workspace's versions moved (a
 * page renamed, moved to another domain, or deleted moves them) or its domain changed.
 */
async function probeOf(
  ctx: ServerContext,
  by: 'host' | 'custom domain',
  values: readonly string[],
): Promise<StatusPageProbe | undefined> {
  const { db } = ctx.database;
  const { pages, workspaces, turns } = knownPages(ctx);
  const key = `${by}\u0000${values.join('\u0000')}`;
  const known = pages.get(key);
  if (known) {
    const read = () => probeWorkspace(db, known.workspace_id);
    const workspace = await (sideReaderOf(db) ? turns : workspaces).read(known.workspace_id, read);
    if (workspace && workspace.versions === known.versions && workspace.workspace_domain === known.workspace_domain) {
      return { ...known, workspace_status: workspace.workspace_status };
    }
  }
  const found = await probeStatusPage(db, by, values);
  if (found) pages.set(key, found);
  else pages.expire(key);
  return found;
}

/** Pages kept per process (each with its view and documents); the least recently read goes first. */
const KEPT_PAGES = 200;

interface KeptPage {
  versions: string;
  target: Promise<StatusTarget | null>;
  memo: PageMemo;
  view?: Promise<StatusView>;
  answers: Map<string, Promise<Answer>>;
}

const keptPages = perContext(() => new BoundedMap<string, KeptPage>({ maxWeight: KEPT_PAGES }));

const keyOf = (pageId: string, basePath: string) => `${pageId}\u0000${basePath}`;

/**
 * The target a probe found, kept with all that is made of the page while the versions it read stay: a request
 * for a page that did not change costs the probe's one read, and is answered from bytes made once.
 */
function targetOf(
  ctx: ServerContext,
  probe: StatusPageProbe | undefined,
  basePath: string,
): Promise<StatusTarget | null> | null {
  if (!probe || probe.workspace_status === 'inactive') return null;
  // The day's number, not its date: this runs on every request.
  const versions = `${probe.versions};${Math.floor(ctx.now().getTime() / MS_PER_DAY)}`;
  const pages = keptPages(ctx);
  const key = keyOf(probe.page_id, basePath);
  const held = pages.get(key);
  if (held?.versions === versions) return held.target;
  const target = loadTarget(ctx, probe, basePath, versions);
  const kept: KeptPage = { versions, target, memo: held?.memo ?? newMemo(), answers: new Map() };
  pages.set(key, kept);
  const drop = () => {
    if (pages.peek(key) === kept) pages.expire(key);
  };
  target.then((found) => found ?? drop(), drop);
  return target;
}

async function loadTarget(
  ctx: ServerContext,
  probe: StatusPageProbe,
  basePath: string,
  versions: string,
): Promise<StatusTarget | null> {
  const { db } = ctx.database;
  const [workspace, page] = await Promise.all([
    findWorkspaceById(db, probe.workspace_id),
    findStatusPageById(db, probe.page_id),
  ]);
  if (!workspace || workspace.status === 'inactive' || !page || page.workspace_id !== workspace.id) return null;
  return { workspace, page, basePath, versions };
}

/** The kept entry of the target's page at the target's versions, if it is still the one kept. */
function keptOf(ctx: ServerContext, target: StatusTarget): KeptPage | undefined {
  const held = keptPages(ctx).peek(keyOf(target.page.id, target.basePath));
  return held?.versions === target.versions ? held : undefined;
}

/** The answer `name` of the page as `target` shows it, if it has been made (the front door serves only those). */
export function heldStatusAnswer(ctx: ServerContext, target: StatusTarget, name: string): Promise<Answer> | undefined {
  return keptOf(ctx, target)?.answers.get(name);
}

/**
 * A document made of the page at the target's versions (`name` says which: the HTML, the summary), made once
 * and kept with the page, its compressed twins made once on first demand.
 */
export function keptStatusAnswer(
  ctx: ServerContext,
  target: StatusTarget,
  name: string,
  make: () => Promise<Buffer>,
): Promise<Answer> {
  const kept = keptOf(ctx, target);
  const held = kept?.answers.get(name);
  if (held) return held;
  const answer = make().then((body) => new Answer(body));
  if (kept) {
    kept.answers.set(name, answer);
    answer.catch(() => kept.answers.delete(name));
  }
  return answer;
}

// ---- the page ----

/** A post-mortem as HTML: CommonMark with GFM and no raw HTML (escaped), unsafe link protocols dropped. */
export function postmortemHtml(markdown: string): string {
  return micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

/**
 * The page as it renders, made once per change of anything it shows (the status versions of its workspace and of
 * those it links to) and once per UTC day (bars move at midnight), never kept by a timer.
 */
export function statusView(ctx: ServerContext, target: StatusTarget): Promise<StatusView> {
  const kept = keptOf(ctx, target);
  if (!kept) return makeView(ctx, target, newMemo());
  kept.view ??= makeView(ctx, target, kept.memo);
  kept.view.catch(() => {
    if (kept.view) kept.view = undefined;
  });
  return kept.view;
}

function pageUrlOf(ctx: ServerContext, target: StatusTarget): string {
  return statusPageUrl(ctx, target.workspace, target.page);
}

/**
 * What a page's view is made again from on each change: the days of bars (status-days.ts), and each component as
 * last made with what it was made of, to be given again (the same object) when none of that changed, so the
 * renderer's HTML of it is used again too (status-render/page-html.ts).
 */
interface PageMemo {
  days: StatusDays;
  components: Map<string, { made: string; component: StatusComponent }>;
}

const newMemo = (): PageMemo => ({ days: new StatusDays(), components: new Map() });

async function makeView(ctx: ServerContext, target: StatusTarget, memo: PageMemo): Promise<StatusView> {
  const { db } = ctx.database;
  const { workspace, page } = target;
  const now = ctx.now().getTime();
  const components = await listComponents(db, workspace.id, [page.id]);
  const serviceIds = components.map((component) => component.service_id);
  const since = new Date(utcDayStart(utcDate(now)) - (STATUS_DAYS - 1) * MS_PER_DAY).toISOString();
  const [notices, bars, upstream] = await Promise.all([
    listPageNotices(db, workspace.id, serviceIds, since),
    memo.days.bars(
      ctx,
      workspace.id,
      components.map((component) => ({ id: component.service_id, created_at: component.created_at })),
      now,
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
  const made = new Map<string, { made: string; component: StatusComponent }>();
  const viewComponents: StatusComponent[] = components.map((component) => {
    const { past, today, uptime } = bars.get(component.service_id)!;
    const own = noticesByService.get(component.handle) ?? [];
    const affected = upstream ? upstreamImpacts(component.handle, upstream, page.upstream_depth) : [];
    const of = JSON.stringify([
      component.name,
      component.group_name,
      component.health,
      component.created_at,
      uptime,
      today,
      own.map((notice) => [notice.id, notice.updated_at, notice.title, notice.open]),
      affected,
    ]);
    const previous = memo.components.get(component.handle);
    if (previous?.made === of) {
      made.set(component.handle, previous);
      return previous.component;
    }
    const viewComponent: StatusComponent = {
      handle: component.handle,
      name: component.name,
      group: component.group_name,
      status: componentStatusOf(component.health),
      uptime_90d: uptime,
      days: [...past, ...(today ? [today] : [])].map((day) => ({
        ...day,
        notices: own
          .filter((notice) => coversDay(notice, day.date, now))
          .map((notice) => ({ id: notice.id, type: notice.type, title: notice.title })),
      })),
      affected_by: affected,
    };
    made.set(component.handle, { made: of, component: viewComponent });
    return viewComponent;
  });
  memo.components = made;
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

/** Statuspage's v2 summary (docs/decisions.md#status-pages) from the page's view. */
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
