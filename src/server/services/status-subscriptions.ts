/**
 * Status page subscriptions (DESIGN.md 13, issue 27): visitors subscribe with no account, by email (double
 * opt-in: nothing is sent but the confirmation until its link is opened) or by webhook (signed; told at once),
 * to the whole page or to some components, and optionally to what those depend on ("tell me when anything
 * checkout needs breaks", walked as the page walks upstream). Every notice event (created, each update) is told
 * once per subscription: a row in status_notified is claimed in the event's transaction before the mail or the
 * webhook is queued, so a replayed write or two processes never tell it twice. Every mail carries its one-click
 * unsubscribe link; links are tokens signed with the server's key, so nothing secret is stored for them.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { pendingOutboxColumns } from '../db/repositories/outbox.js';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { SignJWT, jwtVerify } from 'jose';
import type { StatusSubscribe, StatusSubscriber } from '../../contract/status-pages.js';
import { isAdminRole } from '../../domain/roles.js';
import { forbiddenKind, refusalMessage } from '../../runner/address-policy.js';
import type { ServerContext } from '../context.js';
import { isoNow } from '../context.js';
import { enqueueMail } from '../db/repositories/mail-outbox.js';
import { findStatusPage, listComponents } from '../db/repositories/status-pages.js';
import type { NoticeRow } from '../db/repositories/notices.js';
import type { StatusPageRow, StatusSubscriptionRow, WorkspaceRow } from '../db/schema.js';
import type { Db } from '../db/repositories/workspaces.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { Caller } from './auth.js';
import { STATUS_PAGE_NOT_FOUND, statusPageUrl } from './status-pages.js';
import type { StatusTarget } from './status-view.js';

/** How long a confirmation link works. */
const CONFIRM_SECONDS = 7 * 86_400;
type LinkPurpose = 'confirm' | 'unsubscribe';

async function linkToken(ctx: ServerContext, purpose: LinkPurpose, subscriptionId: string): Promise<string> {
  const issuedAt = Math.floor(ctx.now().getTime() / 1000);
  const token = new SignJWT({ sub: subscriptionId, use: purpose })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(issuedAt);
  if (purpose === 'confirm') token.setExpirationTime(issuedAt + CONFIRM_SECONDS);
  return token.sign(ctx.jwtKey);
}

/** The subscription a link names, or null when the token is not one of ours for this purpose. */
async function subscriptionOfLink(ctx: ServerContext, purpose: LinkPurpose, token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify<{ use?: unknown }>(token, ctx.jwtKey, {
      algorithms: ['HS256'],
      currentDate: ctx.now(),
    });
    return payload.use === purpose && typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}

/** A webhook may not point into the operator's network (the guard the checks use), unless private targets are allowed. */
async function requirePublicWebhook(ctx: ServerContext, url: string): Promise<void> {
  if (ctx.config.allowPrivateTargets) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    throw badRequest('The webhook host does not resolve', { webhook_url: ['The host does not resolve'] });
  }
  for (const address of addresses) {
    const kind = forbiddenKind(address);
    if (kind) throw badRequest(refusalMessage(host, kind), { webhook_url: [refusalMessage(host, kind)] });
  }
}

export async function subscribe(
  ctx: ServerContext,
  target: StatusTarget,
  input: StatusSubscribe,
): Promise<{ id: string; kind: 'email' | 'webhook'; confirmed: boolean; secret?: string }> {
  if (Boolean(input.email) === Boolean(input.webhook_url)) {
    throw badRequest('Give an email or a webhook URL', { email: ['Give an email or a webhook URL, not both'] });
  }
  const { db } = ctx.database;
  const { workspace, page } = target;
  let components: string[] | null = null;
  if (input.components && input.components.length > 0) {
    const onPage = new Map(
      (await listComponents(db, workspace.id, [page.id])).map((component) => [component.handle, component.service_id]),
    );
    const unknown = input.components.filter((handle) => !onPage.has(handle));
    if (unknown.length > 0) {
      throw badRequest(`${unknown[0]} is not on this page`, { components: [`${unknown[0]} is not on this page`] });
    }
    components = [...new Set(input.components.map((handle) => onPage.get(handle)!))];
  }
  if (input.webhook_url) await requirePublicWebhook(ctx, input.webhook_url);
  const id = randomUUID();
  const secret = input.webhook_url ? `whsec_${randomBytes(24).toString('base64url')}` : undefined;
  const now = isoNow(ctx);
  const row: StatusSubscriptionRow = {
    id,
    workspace_id: workspace.id,
    page_id: page.id,
    email: input.email?.toLowerCase() ?? null,
    webhook_url: input.webhook_url ?? null,
    secret_sealed: secret ? ctx.secretBox.seal(secret) : null,
    components: components ? JSON.stringify(components) : null,
    include_upstream: input.include_upstream ? 1 : 0,
    confirmed_at: secret ? now : null,
    created_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('status_subscriptions').values(row).execute();
    if (row.email) {
      const url = `${pageUrlOf(ctx, workspace, page)}/subscriptions/confirm?token=${await linkToken(ctx, 'confirm', id)}`;
      await enqueueMail(trx, {
        kind: 'mail',
        recipient: row.email,
        subject: `Confirm your subscription to ${page.title}`,
        body:
          `Someone (we hope you) asked to be told by email when ${page.title} has news.\n\n` +
          `Confirm it: ${url}\n\nIf it was not you, ignore this mail: nothing more will be sent.\n`,
      });
    }
  });
  return secret ? { id, kind: 'webhook', confirmed: true, secret } : { id, kind: 'email', confirmed: false };
}

function pageUrlOf(
  ctx: ServerContext,
  workspace: Pick<WorkspaceRow, 'domain'>,
  page: Parameters<typeof statusPageUrl>[2],
) {
  return statusPageUrl(ctx, workspace, page);
}

/** Opens a confirmation link: true when it confirmed a subscription of this page (again is fine). */
export async function confirmSubscription(ctx: ServerContext, target: StatusTarget, token: string): Promise<boolean> {
  const id = await subscriptionOfLink(ctx, 'confirm', token);
  if (!id) return false;
  const result = await ctx.database.db
    .updateTable('status_subscriptions')
    .set((eb) => ({ confirmed_at: eb.fn.coalesce('confirmed_at', eb.val(isoNow(ctx))) }))
    .where('id', '=', id)
    .where('page_id', '=', target.page.id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** One-click unsubscribe: true when it removed a subscription of this page, false when there was none. */
export async function unsubscribe(ctx: ServerContext, target: StatusTarget, token: string): Promise<boolean> {
  const id = await subscriptionOfLink(ctx, 'unsubscribe', token);
  if (!id) return false;
  const result = await ctx.database.db
    .deleteFrom('status_subscriptions')
    .where('id', '=', id)
    .where('page_id', '=', target.page.id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

// ---- telling subscribers ----

/** What a notice event tells: the notice as it is now, and the history entry just written. */
export interface NoticeNews {
  notice: Pick<NoticeRow, 'id' | 'workspace_id' | 'service_id' | 'type' | 'title' | 'status' | 'open'>;
  /** Names the history entry (its time): with the notice, what is told once. */
  key: string;
  message: string;
  event: 'notice.created' | 'notice.updated' | 'maintenance.starting' | 'maintenance.started' | 'maintenance.ended';
  /** What the subject says after the title (the notice's status when left out). */
  headline?: string;
}

/**
 * Queues the mails and webhooks of a notice event, in its transaction: for every confirmed subscription whose
 * page shows the notice's service (or, subscribed to components with `include_upstream`, one of its components
 * depends on that service within the page's upstream depth), once.
 */
export async function tellSubscribers(ctx: ServerContext, trx: Db, news: NoticeNews): Promise<void> {
  const { notice } = news;
  const workspaceId = notice.workspace_id;
  const subscriptions = await trx
    .selectFrom('status_subscriptions as s')
    .innerJoin('status_pages as p', 'p.id', 's.page_id')
    .selectAll('s')
    .select([
      'p.handle as page_handle',
      'p.title as page_title',
      'p.upstream_depth',
      'p.custom_domain',
      'p.custom_domain_verified_at',
    ])
    .where('s.workspace_id', '=', workspaceId)
    .where('s.confirmed_at', 'is not', null)
    .execute();
  if (subscriptions.length === 0) return;
  const pageIds = [...new Set(subscriptions.map((subscription) => subscription.page_id))];
  const onPages = await trx
    .selectFrom('status_page_components')
    .select(['page_id', 'service_id'])
    .where('workspace_id', '=', workspaceId)
    .where('page_id', 'in', pageIds)
    .execute();
  const service = await trx
    .selectFrom('services')
    .select(['handle', 'name', 'visibility'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', notice.service_id)
    .executeTakeFirst();
  if (!service) return;
  const dependents = await dependentsWithin(trx, workspaceId, notice.service_id);
  const workspace = await trx.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirst();
  if (!workspace) return;
  for (const subscription of subscriptions) {
    const shown = onPages.filter((row) => row.page_id === subscription.page_id).map((row) => row.service_id);
    const wanted: string[] | null = subscription.components ? (JSON.parse(subscription.components) as string[]) : null;
    const direct = (wanted ?? shown).includes(notice.service_id) && shown.includes(notice.service_id);
    // Upstream: a component subscribed to depends on the notice's service, within the page's depth; never an
    // owner-only service (a page never names one).
    const upstream =
      !direct &&
      subscription.include_upstream === 1 &&
      service.visibility !== 'owner' &&
      (wanted ?? shown).some((id) => (dependents.get(id) ?? Infinity) <= subscription.upstream_depth);
    if (!direct && !upstream) continue;
    const claimed = await trx
      .insertInto('status_notified')
      .values({ subscription_id: subscription.id, event_key: `${notice.id}:${news.key}`, created_at: isoNow(ctx) })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) !== 1) continue;
    const page = {
      handle: subscription.page_handle,
      custom_domain: subscription.custom_domain,
      custom_domain_verified_at: subscription.custom_domain_verified_at,
    };
    const pageUrl = pageUrlOf(ctx, workspace, page);
    const noticeUrl = `${pageUrl}/incidents/${notice.id}`;
    if (subscription.email) {
      const unsubscribeUrl = `${pageUrl}/unsubscribe?token=${await linkToken(ctx, 'unsubscribe', subscription.id)}`;
      const kind = notice.type === 'incident' ? 'Incident' : 'Maintenance';
      await enqueueMail(trx, {
        kind: 'mail',
        recipient: subscription.email,
        subject: `[${subscription.page_title}] ${kind}: ${notice.title} (${news.headline ?? notice.status.replace('_', ' ')})`,
        body:
          `${kind} on ${service.name}${upstream ? ' (which a component you follow depends on)' : ''}: ${notice.title}\n` +
          `Status: ${notice.status.replace('_', ' ')}\n\n${news.message}\n\nDetails: ${noticeUrl}\n\n` +
          `Unsubscribe: ${unsubscribeUrl}\n`,
      });
    } else if (subscription.webhook_url) {
      const body = JSON.stringify({
        type: news.event,
        page: { handle: subscription.page_handle, title: subscription.page_title, url: pageUrl },
        notice: {
          id: notice.id,
          type: notice.type,
          title: notice.title,
          status: notice.status,
          open: notice.open === 1,
          message: news.message,
          url: noticeUrl,
        },
        component: { handle: service.handle, name: service.name, upstream },
      });
      const now = new Date().toISOString();
      await trx
        .insertInto('webhook_outbox')
        .values({
          id: randomUUID(),
          workspace_id: workspaceId,
          subscription_id: subscription.id,
          url: subscription.webhook_url,
          body,
          ...pendingOutboxColumns(now),
        })
        .execute();
    }
  }
}

/** The services that depend on `serviceId`, each with its fewest steps to it (within the deepest page depth, 6). */
async function dependentsWithin(trx: Db, workspaceId: string, serviceId: string): Promise<Map<string, number>> {
  const edges = await trx
    .selectFrom('service_dependencies')
    .select(['service_id', 'dependency_id'])
    .where('workspace_id', '=', workspaceId)
    .execute();
  const dependentsOf = new Map<string, string[]>();
  for (const edge of edges) {
    dependentsOf.set(edge.dependency_id, [...(dependentsOf.get(edge.dependency_id) ?? []), edge.service_id]);
  }
  const steps = new Map<string, number>();
  let frontier = [serviceId];
  for (let step = 1; step <= 6 && frontier.length > 0; step++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const dependent of dependentsOf.get(id) ?? []) {
        if (steps.has(dependent) || dependent === serviceId) continue;
        steps.set(dependent, step);
        next.push(dependent);
      }
    }
    frontier = next;
  }
  return steps;
}

/** `t=...,v1=...`: HMAC-SHA256 of `{t}.{body}` with the subscription's secret (Stripe's scheme). */
export function webhookSignature(secret: string, body: string, at: number): string {
  const t = Math.floor(at / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

// ---- admins ----

function requireAdmin(caller: Caller): void {
  if (!isAdminRole(caller.user.role)) throw forbidden('Only workspace admins and owners can manage status pages');
}

async function adminPage(ctx: ServerContext, caller: Caller, handle: string): Promise<StatusPageRow> {
  requireAdmin(caller);
  const page = await findStatusPage(ctx.database.db, caller.workspace.id, handle);
  if (!page) throw notFound(STATUS_PAGE_NOT_FOUND);
  return page;
}

export async function listSubscribers(ctx: ServerContext, caller: Caller, handle: string): Promise<StatusSubscriber[]> {
  const page = await adminPage(ctx, caller, handle);
  const { db } = ctx.database;
  const [rows, components] = await Promise.all([
    db
      .selectFrom('status_subscriptions')
      .selectAll()
      .where('workspace_id', '=', caller.workspace.id)
      .where('page_id', '=', page.id)
      .orderBy('created_at')
      .execute(),
    listComponents(db, caller.workspace.id, [page.id]),
  ]);
  const handleOf = new Map(components.map((component) => [component.service_id, component.handle]));
  return rows.map((row) => ({
    id: row.id,
    kind: row.email ? 'email' : 'webhook',
    address: row.email ?? row.webhook_url ?? '',
    components: row.components ? (JSON.parse(row.components) as string[]).map((id) => handleOf.get(id) ?? id) : null,
    include_upstream: row.include_upstream === 1,
    confirmed: row.confirmed_at !== null,
    created_at: row.created_at,
  }));
}

export async function removeSubscriber(ctx: ServerContext, caller: Caller, handle: string, id: string): Promise<void> {
  const page = await adminPage(ctx, caller, handle);
  const result = await ctx.database.db
    .deleteFrom('status_subscriptions')
    .where('workspace_id', '=', caller.workspace.id)
    .where('page_id', '=', page.id)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) !== 1) throw notFound('The subscriber was not found');
}
