/**
 * Status page subscriptions (docs/decisions.md#status-pages, issues 27 and 48): visitors subscribe with no account, by
 * email (double opt-in: nothing is sent but the confirmation until its page's button is pressed) or by webhook (signed;
 * told at once), to the whole page or to some components, and optionally to what those depend on ("tell me when
 * anything checkout needs breaks", walked as the page walks upstream). A notice event's transaction queues one row of
 * news (queueNews); jobs/status-news.ts then tells it (tellNews) after the write committed, in batches, to the
 * subscriptions that follow it on the page as it is then (public, showing the service or its dependents). Each is
 * told once: a row in status_notified is claimed with its mail or webhook, so a retried fan-out or two processes
 * never tell it twice. Every mail carries its one-click unsubscribe link; links are tokens signed with the
 * server's key, so nothing secret is stored for them. Limits (docs/api.md): 3 confirmation mails a day per address
 * and workspace, one pending subscription per page and address (deleted after a day), 100 webhooks a page.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { StatusSubscribe, StatusSubscriber } from '../../../contract/status-pages.js';
import { isAdminRole } from '../../../domain/roles.js';
import { COMPONENT_STATUS_LABELS, componentStatusOf, UPSTREAM_DEPTH } from '../../../domain/status-pages.js';
import { requirePublicUrl } from '../../integrations/public-address.js';
import type { ServerContext } from '../../context.js';
import { isoNow } from '../../context.js';
import { enqueueMail, enqueueMails, type QueuedMail } from '../../db/repositories/mail-outbox.js';
import type { NoticeRow } from '../../db/repositories/notices.js';
import { pendingOutboxColumns } from '../../db/repositories/outbox.js';
import {
  findServiceOfNews,
  findStatusPage,
  listComponents,
  listOpenServices,
  listPublicStatusPages,
  listWorkspaceEdges,
  type ServiceRefRow,
} from '../../db/repositories/status-pages.js';
import {
  claimNotified,
  deleteOtherSubscriptions,
  deletePageSubscription,
  deleteUnconfirmedBefore,
  findPageSubscription,
  findPendingSubscription,
  insertConfirmation,
  insertStatusNews,
  insertSubscription,
  insertWebhooks,
  listConfirmationTimes,
  listConfirmedSubscriptions,
  listPageSubscriptions,
  listPageWebhookUrls,
  lockSubscribing,
  updateSubscription,
} from '../../db/repositories/status-subscriptions.js';
import { findWorkspaceById, type Db } from '../../db/repositories/workspaces.js';
import type { StatusPageRow, StatusSubscriptionRow, WorkspaceRow } from '../../db/schema.js';
import { guardedTransaction } from '../../db/transactions.js';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../errors.js';
import type { Caller } from '../accounts/auth.js';
import { STATUS_PAGE_NOT_FOUND, statusPageUrl } from './status-pages.js';
import type { StatusTarget } from './status-view.js';

/** How long a confirmation link works, and an unconfirmed subscription is kept. */
export const PENDING_SECONDS = 86_400;
/** Confirmation mails to one address per workspace and day: asked for 12 times, it is mailed 3 times. */
export const CONFIRMATIONS_PER_DAY = 3;
/** Webhooks per page: each is a delivery of every notice event. */
export const WEBHOOKS_PER_PAGE = 100;
/** Subscriptions told in one transaction. */
const BATCH = 200;

type LinkPurpose = 'confirm' | 'unsubscribe';

async function linkToken(ctx: ServerContext, purpose: LinkPurpose, subscriptionId: string): Promise<string> {
  const issuedAt = Math.floor(ctx.now().getTime() / 1000);
  const token = new SignJWT({ sub: subscriptionId, use: purpose })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(issuedAt);
  if (purpose === 'confirm') token.setExpirationTime(issuedAt + PENDING_SECONDS);
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

/** A webhook may not point into the operator's network (integrations/public-address.ts). */
const requirePublicWebhook = (ctx: ServerContext, url: string) =>
  requirePublicUrl(ctx.config.allowPrivateTargets, url, { field: 'webhook_url', noun: 'webhook' });

type Subscribed = { id: string; kind: 'email' | 'webhook'; confirmed: boolean; secret?: string };

export async function subscribe(ctx: ServerContext, target: StatusTarget, input: StatusSubscribe): Promise<Subscribed> {
  if (Boolean(input.email) === Boolean(input.webhook_url)) {
    throw badRequest('Give an email or a webhook URL', { email: ['Give an email or a webhook URL, not both'] });
  }
  const { db } = ctx.database;
  const { workspace, page } = target;
  if (input.include_upstream && page.show_upstream !== 1) {
    const message = 'This page does not show what its services depend on';
    throw badRequest(message, { include_upstream: [message] });
  }
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
  const follows = {
    components: components ? JSON.stringify(components) : null,
    include_upstream: input.include_upstream ? 1 : 0,
    created_at: isoNow(ctx),
  };
  return guardedTransaction(db, async (trx) => {
    await lockSubscribing(trx, workspace.id);
    return input.webhook_url
      ? addWebhook(ctx, trx, target, new URL(input.webhook_url).href, follows)
      : addEmail(ctx, trx, target, input.email!.toLowerCase(), follows);
  });
}

type Follows = Pick<StatusSubscriptionRow, 'components' | 'include_upstream' | 'created_at'>;

async function addWebhook(
  ctx: ServerContext,
  trx: Db,
  { workspace, page }: StatusTarget,
  url: string,
  follows: Follows,
): Promise<Subscribed> {
  const webhooks = await listPageWebhookUrls(trx, page.id);
  if (webhooks.includes(url)) {
    throw conflict('This webhook is subscribed to the page already', { webhook_url: ['Subscribed already'] });
  }
  if (webhooks.length >= WEBHOOKS_PER_PAGE) {
    const message = `A page takes at most ${WEBHOOKS_PER_PAGE} webhooks`;
    throw conflict(message, { webhook_url: [message] });
  }
  const id = randomUUID();
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  await insertSubscription(trx, {
    id,
    workspace_id: workspace.id,
    page_id: page.id,
    email: null,
    webhook_url: url,
    secret_sealed: ctx.secretBox.seal(secret),
    confirmed_at: follows.created_at,
    ...follows,
  });
  return { id, kind: 'webhook', confirmed: true, secret };
}

/**
 * An address's subscription waits for its confirmation: asked again meanwhile, the same one follows what was
 * asked last and its link is mailed again, at most CONFIRMATIONS_PER_DAY times a day across the workspace (429).
 */
async function addEmail(
  ctx: ServerContext,
  trx: Db,
  target: StatusTarget,
  email: string,
  follows: Follows,
): Promise<Subscribed> {
  const { workspace, page } = target;
  const mailed = await listConfirmationTimes(trx, workspace.id, email, isoNow(ctx, -PENDING_SECONDS));
  if (mailed.length >= CONFIRMATIONS_PER_DAY) {
    const until = Date.parse(mailed[0]!.created_at) + PENDING_SECONDS * 1000;
    const retryAfter = Math.max(1, Math.ceil((until - ctx.now().getTime()) / 1000));
    throw new HttpError(429, `${email} was sent ${CONFIRMATIONS_PER_DAY} confirmation mails today`, undefined, {
      'retry-after': String(retryAfter),
    });
  }
  const pending = await findPendingSubscription(trx, page.id, email);
  const id = pending?.id ?? randomUUID();
  if (pending) {
    // Its day starts again, with the link mailed now.
    await updateSubscription(trx, id, follows);
  } else {
    await insertSubscription(trx, {
      id,
      workspace_id: workspace.id,
      page_id: page.id,
      email,
      webhook_url: null,
      secret_sealed: null,
      confirmed_at: null,
      ...follows,
    });
  }
  await insertConfirmation(trx, { workspace_id: workspace.id, email, created_at: follows.created_at });
  const url = `${pageUrlOf(ctx, workspace, page)}/subscriptions/confirm?token=${await linkToken(ctx, 'confirm', id)}`;
  await enqueueMail(trx, {
    kind: 'mail',
    recipient: email,
    subject: `Confirm your subscription to ${page.title}`,
    body:
      `Someone (we hope you) asked to be told by email when ${page.title} has news.\n\n` +
      `Confirm it: ${url}\n\nIf it was not you, ignore this mail: nothing more will be sent.\n`,
  });
  return { id, kind: 'email', confirmed: false };
}

function pageUrlOf(
  ctx: ServerContext,
  workspace: Pick<WorkspaceRow, 'domain'>,
  page: Parameters<typeof statusPageUrl>[2],
) {
  return statusPageUrl(ctx, workspace, page);
}

/** The subscription of this page a link names, if it is still there. */
async function linkedSubscription(ctx: ServerContext, target: StatusTarget, purpose: LinkPurpose, token: string) {
  const id = await subscriptionOfLink(ctx, purpose, token);
  if (!id) return undefined;
  return findPageSubscription(ctx.database.db, target.page.id, id);
}

/** Whether a confirmation link names a subscription of this page (its page shows the Confirm button). */
export async function confirmLinkWorks(ctx: ServerContext, target: StatusTarget, token: string): Promise<boolean> {
  return (await linkedSubscription(ctx, target, 'confirm', token)) !== undefined;
}

/**
 * Confirms the subscription a link names: true when it is one of this page (again is fine). It replaces what
 * the address followed on the page before: one subscription, so one mail, per notice.
 */
export async function confirmSubscription(ctx: ServerContext, target: StatusTarget, token: string): Promise<boolean> {
  const found = await linkedSubscription(ctx, target, 'confirm', token);
  if (!found) return false;
  if (found.confirmed_at !== null) return true;
  await ctx.database.db.transaction().execute(async (trx) => {
    await updateSubscription(trx, found.id, { confirmed_at: isoNow(ctx) });
    if (found.email) await deleteOtherSubscriptions(trx, target.page.id, found.email, found.id);
  });
  return true;
}

/** One-click unsubscribe: true when it removed a subscription of this page, false when there was none. */
export async function unsubscribe(ctx: ServerContext, target: StatusTarget, token: string): Promise<boolean> {
  const id = await subscriptionOfLink(ctx, 'unsubscribe', token);
  if (!id) return false;
  return deletePageSubscription(ctx.database.db, { pageId: target.page.id, id });
}

/** Forgets unconfirmed subscriptions and the confirmation mails counted once their day is over. */
export async function sweepSubscriptions(ctx: ServerContext): Promise<void> {
  await deleteUnconfirmedBefore(ctx.database.db, isoNow(ctx, -PENDING_SECONDS));
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
 * Queues a notice event for its subscribers, in the event's transaction: one row, whatever their number, told
 * once the write committed (jobs/status-news.ts; the caller wakes it with `ctx.wakeStatusNews`). An event queued
 * already is not queued again.
 */
export async function queueNews(trx: Db, news: NoticeNews): Promise<void> {
  const { id, workspace_id, service_id, type, title, status, open } = news.notice;
  const kept: NoticeNews = { ...news, notice: { id, workspace_id, service_id, type, title, status, open } };
  await insertStatusNews(trx, {
    workspace_id,
    event_key: eventKeyOf(news),
    news: JSON.stringify(kept),
    ...pendingOutboxColumns(new Date().toISOString()),
  });
}

const eventKeyOf = (news: NoticeNews) => `${news.notice.id}:${news.key}`;

interface Told {
  subscriptionId: string;
  mail?: QueuedMail;
  webhook?: { url: string; body: string };
}

/**
 * Tells a notice event to every confirmed subscription of a public page that follows it: the page shows the
 * notice's service (and the subscription follows it, or the whole page), or, with `include_upstream` on a page
 * that shows upstream impact, a component it follows depends on the service within the page's depth, walked as
 * the page walks (never through an owner-only service). A service the page does not show is told as the page
 * tells it: its name and status, never the notice's title or text. Answers how many were told now.
 */
export async function tellNews(ctx: ServerContext, news: NoticeNews): Promise<number> {
  const { db } = ctx.database;
  const { notice } = news;
  const workspaceId = notice.workspace_id;
  const [workspace, pages, service] = await Promise.all([
    findWorkspaceById(db, workspaceId),
    // Subscribers have no account: a password or members page tells them nothing (until it is public again).
    listPublicStatusPages(db, workspaceId),
    findServiceOfNews(db, workspaceId, notice.service_id),
  ]);
  if (!workspace || !service || pages.length === 0) return 0;
  const components = await listComponents(
    db,
    workspaceId,
    pages.map((page) => page.id),
  );
  const pageOf = new Map(pages.map((page) => [page.id, page]));
  const shownOn = new Map(pages.map((page) => [page.id, new Map<string, Shown>()]));
  for (const component of components) shownOn.get(component.page_id)!.set(component.service_id, component);
  // Only walked when some page could tell it as upstream impact.
  const upstreamPossible = service.visibility !== 'owner' && pages.some((page) => page.show_upstream === 1);
  const dependents = upstreamPossible ? await dependentsWithin(db, workspaceId, service.id) : new Map<string, number>();
  const eventKey = eventKeyOf(news);
  let told = 0;
  let after = '';
  for (;;) {
    const batch = await listConfirmedSubscriptions(db, workspaceId, [...pageOf.keys()], after, BATCH);
    if (batch.length === 0) break;
    after = batch.at(-1)!.id;
    const messages: Told[] = [];
    for (const subscription of batch) {
      const page = pageOf.get(subscription.page_id)!;
      const shown = shownOn.get(page.id)!;
      const wanted = subscription.components ? (JSON.parse(subscription.components) as string[]) : [...shown.keys()];
      const direct = shown.has(service.id) && wanted.includes(service.id);
      const affects =
        subscription.include_upstream === 1 && page.show_upstream === 1
          ? wanted.filter((id) => shown.has(id) && (dependents.get(id) ?? Infinity) <= page.upstream_depth)
          : [];
      if (!direct && affects.length === 0) continue;
      const pageUrl = pageUrlOf(ctx, workspace, page);
      const about = shown.has(service.id)
        ? { notice, service, upstream: !direct }
        : { service, affects: affects.map((id) => shown.get(id)!) };
      messages.push(await messageOf(ctx, news, subscription, page, pageUrl, about));
    }
    told += await claimAndQueue(ctx, workspaceId, eventKey, messages);
    if (batch.length < BATCH) break;
  }
  return told;
}

type ToldService = Pick<ServiceRefRow, 'handle' | 'name' | 'health'>;
type Shown = Pick<ServiceRefRow, 'handle' | 'name'>;
type About =
  | { notice: NoticeNews['notice']; service: ToldService; upstream: boolean }
  | { service: ToldService; affects: Shown[] };

/** The mail or webhook body of one subscription: the notice itself, or (not on the page) its service's status. */
async function messageOf(
  ctx: ServerContext,
  news: NoticeNews,
  subscription: StatusSubscriptionRow,
  page: StatusPageRow,
  pageUrl: string,
  about: About,
): Promise<Told> {
  const { service } = about;
  const status = componentStatusOf(service.health);
  if (subscription.webhook_url) {
    const head = { type: news.event, page: { handle: page.handle, title: page.title, url: pageUrl } };
    const component = { handle: service.handle, name: service.name, status };
    const body =
      'notice' in about
        ? {
            ...head,
            notice: {
              id: about.notice.id,
              type: about.notice.type,
              title: about.notice.title,
              status: about.notice.status,
              open: about.notice.open === 1,
              message: news.message,
              url: `${pageUrl}/incidents/${about.notice.id}`,
            },
            component: { ...component, upstream: about.upstream },
          }
        : { ...head, component: { ...component, upstream: true, affects: about.affects.map((shown) => shown.handle) } };
    return { subscriptionId: subscription.id, webhook: { url: subscription.webhook_url, body: JSON.stringify(body) } };
  }
  const unsubscribeUrl = `${pageUrl}/unsubscribe?token=${await linkToken(ctx, 'unsubscribe', subscription.id)}`;
  let subject: string;
  let text: string;
  if ('notice' in about) {
    const { notice } = about;
    const kind = notice.type === 'incident' ? 'Incident' : 'Maintenance';
    subject = `[${page.title}] ${kind}: ${notice.title} (${news.headline ?? notice.status.replace('_', ' ')})`;
    text =
      `${kind} on ${service.name}${about.upstream ? ' (which a component you follow depends on)' : ''}: ${notice.title}\n` +
      `Status: ${notice.status.replace('_', ' ')}\n\n${news.message}\n\nDetails: ${pageUrl}/incidents/${notice.id}\n\n`;
  } else {
    const names = about.affects.map((shown) => shown.name).join(', ');
    const which = `${service.name}, which ${names} depend${about.affects.length === 1 ? 's' : ''} on`;
    subject = `[${page.title}] ${which}: ${COMPONENT_STATUS_LABELS[status]}`;
    text = `${which}, is now: ${COMPONENT_STATUS_LABELS[status]}.\n\nThe status page: ${pageUrl}\n\n`;
  }
  return {
    subscriptionId: subscription.id,
    mail: { kind: 'mail', recipient: subscription.email!, subject, body: `${text}Unsubscribe: ${unsubscribeUrl}\n` },
  };
}

/** One transaction for a batch: the subscriptions not yet told of the event are claimed, and their messages queued. */
async function claimAndQueue(
  ctx: ServerContext,
  workspaceId: string,
  eventKey: string,
  messages: readonly Told[],
): Promise<number> {
  if (messages.length === 0) return 0;
  return ctx.database.db.transaction().execute(async (trx) => {
    const fresh = await claimNotified(
      trx,
      eventKey,
      messages.map((message) => message.subscriptionId),
      isoNow(ctx),
    );
    const now = new Date().toISOString();
    const queued = messages.filter((message) => fresh.has(message.subscriptionId));
    await enqueueMails(
      trx,
      queued.flatMap((message) => (message.mail ? [message.mail] : [])),
    );
    const webhooks = queued.flatMap(({ subscriptionId, webhook }) =>
      webhook
        ? [
            {
              id: randomUUID(),
              workspace_id: workspaceId,
              subscription_id: subscriptionId,
              url: webhook.url,
              body: webhook.body,
              ...pendingOutboxColumns(now),
            },
          ]
        : [],
    );
    await insertWebhooks(trx, webhooks);
    return queued.length;
  });
}

/**
 * The services that depend on `serviceId`, each with its fewest steps to it (within the deepest page depth),
 * through services anyone in the workspace may see (a page never names an owner-only one, nor walks through it).
 */
async function dependentsWithin(db: Db, workspaceId: string, serviceId: string): Promise<Map<string, number>> {
  const [open, edges] = await Promise.all([listOpenServices(db, workspaceId), listWorkspaceEdges(db, workspaceId)]);
  const walked = new Set(open.map((service) => service.id));
  const dependentsOf = new Map<string, string[]>();
  for (const edge of edges) {
    if (!walked.has(edge.service_id) || !walked.has(edge.dependency_id)) continue;
    dependentsOf.set(edge.dependency_id, [...(dependentsOf.get(edge.dependency_id) ?? []), edge.service_id]);
  }
  const steps = new Map<string, number>();
  let frontier = [serviceId];
  for (let step = 1; step <= UPSTREAM_DEPTH.max && frontier.length > 0; step++) {
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

/** Moved to crypto/ so the alert channels sign the same way; kept here for what still imports it from here. */
export { webhookSignature } from '../../crypto/webhook-signature.js';

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
    listPageSubscriptions(db, caller.workspace.id, page.id),
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
  const removed = await deletePageSubscription(ctx.database.db, {
    workspaceId: caller.workspace.id,
    pageId: page.id,
    id,
  });
  if (!removed) throw notFound('The subscriber was not found');
}
