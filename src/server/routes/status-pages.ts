import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { statusPageOperations, statusReadOperations } from '../../contract/operations/status-pages.js';
import { COMPONENT_STATUS_LABELS, recentUptime } from '../../domain/status-pages.js';
import type { Answer } from '../cache/answer-cache.js';
import { workspaceLabelOf } from '../config.js';
import type { ServerContext } from '../context.js';
import { perContext } from '../per-context.js';
import type { FrontAnswer, FrontDoor } from '../front-door.js';
import { HttpError, notFound } from '../errors.js';
import { acceptFormBodies } from '../http.js';
import { JSON_TYPE, routes, serialized } from '../operations.js';
import { statusWatchOf } from '../services/status-pages/status-live.js';
import {
  confirmLinkWorks,
  confirmSubscription,
  listSubscribers,
  removeSubscriber,
  subscribe,
  unsubscribe,
} from '../services/status-pages/status-subscriptions.js';
import { acceptsEncoding, codingOf, CUSTOM_DOMAIN_ROBOTS_TXT, sendAnswer, sendRobots } from './web.js';
import {
  createStatusPage,
  deleteStatusPage,
  getStatusPage,
  listStatusPages,
  updateStatusPage,
  verifyStatusPageDomain,
} from '../services/status-pages/status-pages.js';
import {
  componentOf,
  heldStatusAnswer,
  isUnprovedDomain,
  keptStatusAnswer,
  pageOfCustomDomain,
  statusHistory,
  statusNoticeOf,
  statusTargetOf,
  statusView,
  summaryOf,
  type StatusTarget,
} from '../services/status-pages/status-view.js';
import { mayRead, requireReader, unlockPage } from '../services/status-pages/status-access.js';
import { renderAtomFeed } from '../status-render/atom.js';
import { renderBadgeSvg, statusBadge, uptimeBadge } from '../status-render/badge-svg.js';
import {
  renderLockedPageHtml,
  renderMessagePageHtml,
  renderNoticePageHtml,
  renderStatusPage,
  liveScriptSource,
} from '../status-render/page-html.js';

const HTML_TYPE = 'text/html; charset=utf-8';

/** Unlock attempts per address and minute: a password page is not a place to guess passwords. */
const UNLOCK_PER_MINUTE = 10;
/** Subscriptions per address and minute: each may mail someone, so a page is not a way to spam. */
const SUBSCRIBE_PER_MINUTE = 10;

/** Status pages: the admins' API, and what visitors and tools read (docs/decisions.md#status-pages). */
export function statusPageRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) => {
    routes(ctx, app, statusPageOperations, {
      listStatusPages: ({ caller }) => listStatusPages(ctx, caller),
      createStatusPage: ({ caller, body }) => createStatusPage(ctx, caller, body),
      getStatusPage: ({ caller, params }) => getStatusPage(ctx, caller, params.page),
      updateStatusPage: ({ caller, params, body }) => updateStatusPage(ctx, caller, params.page, body),
      verifyStatusPageDomain: ({ caller, params }) => verifyStatusPageDomain(ctx, caller, params.page),
      deleteStatusPage: async ({ caller, params }) => {
        await deleteStatusPage(ctx, caller, params.page);
        return null;
      },
      listStatusSubscribers: ({ caller, params }) => listSubscribers(ctx, caller, params.page),
      removeStatusSubscriber: async ({ caller, params }) => {
        await removeSubscriber(ctx, caller, params.page, params.id);
        return null;
      },
    });
    const readable = async (request: FastifyRequest, handle: string) => {
      const target = await statusTargetOf(ctx, request, handle);
      await requireReader(ctx, request, target);
      return target;
    };
    const { unlockStatusPage, unsubscribeFromStatusPage, subscribeToStatusPage, confirmStatusSubscription, ...reads } =
      statusReadOperations;
    routes(ctx, app, reads, {
      // Made once per change of the page, serialised (and checked against the contract) then.
      statusSummary: async ({ request, params, reply }) => {
        const target = await readable(request, params.page);
        void reply.headers(SUMMARY_HEADERS);
        if (revalidated(request, reply, readEtag(target, 'summary.json'))) return reply.code(304).send();
        const answer = await keptStatusAnswer(ctx, target, 'summary.json', async () =>
          serialized(reply, summaryOf(await statusView(ctx, target), target)),
        );
        return sendAnswer(reply, answer, JSON_TYPE);
      },
      statusView: async ({ request, params, reply }) => {
        const target = await readable(request, params.page);
        void reply.header('cache-control', 'no-cache');
        if (revalidated(request, reply, readEtag(target, 'view.json'))) return reply.code(304).send();
        const answer = await keptStatusAnswer(ctx, target, 'view.json', async () =>
          serialized(reply, await statusView(ctx, target)),
        );
        return sendAnswer(reply, answer, JSON_TYPE);
      },
      statusHistory: async ({ request, params, query, reply }) => {
        const target = await readable(request, params.page);
        void reply.header('cache-control', 'no-cache');
        const etag = readEtag(target, `history ${query.cursor} ${query.limit}`);
        if (revalidated(request, reply, etag)) return reply.code(304).send();
        return statusHistory(ctx, target, query);
      },
      statusShields: async ({ request, params, reply }) => {
        const target = await readable(request, params.page);
        const component = componentOf(await statusView(ctx, target), params.service);
        void reply.header('cache-control', 'no-cache').header('access-control-allow-origin', '*');
        if (revalidated(request, reply, readEtag(target, `shields ${component.handle}`))) return reply.code(304).send();
        return {
          schemaVersion: 1 as const,
          label: component.name,
          message: COMPONENT_STATUS_LABELS[component.status].toLowerCase(),
          color: SHIELDS_COLOR[component.status],
        };
      },
    });
    // The locked page's form posts without JavaScript too.
    await app.register(async (forms) => {
      acceptFormBodies(forms);
      routes(
        ctx,
        forms,
        { unlockStatusPage, unsubscribeFromStatusPage, subscribeToStatusPage, confirmStatusSubscription },
        {
          subscribeToStatusPage: async ({ request, params, body, reply }) => {
            const target = await readable(request, params.page);
            const form = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded');
            let subscription;
            try {
              subscription = await subscribe(ctx, target, body);
            } catch (error) {
              if (!form || !(error instanceof HttpError)) throw error;
              if (error.headers) void reply.headers(error.headers);
              return sendHtml(reply, messagePage(target, 'Not subscribed', error.message), error.statusCode);
            }
            ctx.wakeMail?.();
            if (!form) return subscription;
            const message = `We mailed ${body.email ?? 'you'} a link: open it and confirm to start getting updates.`;
            return sendHtml(reply.code(201), messagePage(target, 'Check your inbox', message), 201);
          },
          // The button of the confirmation link's page: a mail scanner opening the link confirms nothing.
          confirmStatusSubscription: async ({ request, params, body, reply }) => {
            const target = await statusTargetOf(ctx, request, params.page);
            const confirmed = await confirmSubscription(ctx, target, body.token);
            if (request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
              return sendHtml(
                reply,
                confirmed
                  ? messagePage(
                      target,
                      'Subscription confirmed',
                      `You will be told by email when ${target.page.title} has news. Every mail has a link to stop.`,
                    )
                  : brokenLinkPage(target),
                confirmed ? 200 : 400,
              );
            }
            if (!confirmed) throw notFound('No such subscription');
            return null;
          },
          unsubscribeFromStatusPage: async ({ request, params, body, reply }) => {
            const target = await statusTargetOf(ctx, request, params.page);
            const removed = await unsubscribe(ctx, target, body.token);
            const form = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded');
            if (form) {
              const message = removed
                ? `You will get no more mail from ${target.page.title}.`
                : 'This link is not valid, or you were already unsubscribed.';
              return sendHtml(
                reply,
                renderMessagePageHtml({
                  title: target.page.title,
                  heading: removed ? 'Unsubscribed' : 'Nothing to unsubscribe',
                  message,
                  backUrl: target.basePath || '/',
                }),
              );
            }
            if (!removed) throw notFound('No such subscription');
            return null;
          },
          unlockStatusPage: async ({ request, params, body, reply }) => {
            const target = await statusTargetOf(ctx, request, params.page);
            const form = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded');
            try {
              await unlockPage(ctx, target, body.password, reply);
            } catch (error) {
              if (form && error instanceof HttpError) return sendLocked(reply, target, error.message, 401);
              throw error;
            }
            return form ? reply.redirect(`${target.basePath || '/'}`, 303) : null;
          },
        },
        {
          unlockStatusPage: { config: { rateLimit: { max: UNLOCK_PER_MINUTE, timeWindow: '1 minute' } } },
          subscribeToStatusPage: { config: { rateLimit: { max: SUBSCRIBE_PER_MINUTE, timeWindow: '1 minute' } } },
        },
      );
    });
  };
}

const SHIELDS_COLOR = {
  operational: 'brightgreen',
  under_maintenance: 'blue',
  degraded_performance: 'yellow',
  partial_outage: 'orange',
  major_outage: 'red',
} as const;

function messagePage(target: StatusTarget, heading: string, message: string): string {
  return renderMessagePageHtml({ title: target.page.title, heading, message, backUrl: target.basePath || '/' });
}

function brokenLinkPage(target: StatusTarget): string {
  const message = 'The link is not valid or has expired. Subscribe again from the status page.';
  return messagePage(target, 'This link does not work', message);
}

/**
 * A document's CSP for a status page: its own inline style, its one inline script (`script`: by nonce, or by
 * hash where the document is made once for every visitor), nothing else.
 */
function pageSecurity(reply: FastifyReply, script: { nonce: string } | { source: string }): void {
  void reply.header('content-security-policy', contentSecurityPolicy(script));
}

function contentSecurityPolicy(script: { nonce: string } | { source: string }): string {
  const allowed =
    'nonce' in script
      ? `'nonce-${script.nonce}'`
      : `'sha256-${createHash('sha256').update(script.source).digest('base64')}'`;
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src ${allowed}`,
    "img-src 'self' https: data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The page's own URLs below its base: what its live script and forms call. */
function pageUrls(target: StatusTarget) {
  return {
    basePath: target.basePath,
    liveUrl: `${target.basePath}/events`,
    subscribeUrl: `/api/status/${target.page.handle}/subscriptions`,
  };
}

/**
 * The page's headers that follow from what it shows, made once per target (a target is kept per versions of its
 * page): its ETag, which its versions name, and its policy, which allows its one inline script by hash.
 */
const pageHeadersOf = new WeakMap<StatusTarget, { etag: string; policy: string }>();
function pageHeaders(target: StatusTarget) {
  let headers = pageHeadersOf.get(target);
  if (!headers) {
    headers = {
      etag: `W/"${createHash('sha1').update(target.versions).digest('base64url')}"`,
      policy: contentSecurityPolicy({ source: liveScriptSource(pageUrls(target).liveUrl) }),
    };
    pageHeadersOf.set(target, headers);
  }
  return headers;
}

/**
 * The ETag of one of the page's reads (`read` names it, with its query): like the page's, its versions name what it
 * shows, so it is made without the answer, and a read whose versions stand answers 304.
 */
const readEtagsOf = new WeakMap<StatusTarget, Map<string, string>>();
function readEtag(target: StatusTarget, read: string): string {
  let etags = readEtagsOf.get(target);
  if (!etags) readEtagsOf.set(target, (etags = new Map()));
  let etag = etags.get(read);
  if (!etag) {
    etag = `W/"${createHash('sha1').update(`${target.versions} ${read}`).digest('base64url')}"`;
    etags.set(read, etag);
  }
  return etag;
}

/** Whether If-None-Match names `etag` (or is `*`): the request holds the answer already (RFC 9110 13.1.2). */
function holds(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || weak(tag) === weak(etag));
}

/** Sets a read's ETag; true when the request holds that answer (answer 304, with the headers set so far). */
function revalidated(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  void reply.header('etag', etag);
  return holds(request.headers['if-none-match'], etag);
}

const PAGE_VARY = 'cookie, accept-encoding';
const SUMMARY_HEADERS = { 'cache-control': 'no-cache', 'access-control-allow-origin': '*' } as const;
/** What the front door serves: a page at `/status/{page}`, and its summary (the handles the contract allows). */
const FRONT_PAGE = /^\/status\/([a-z0-9][a-z0-9-]{0,63})$/;
const FRONT_SUMMARY = /^\/api\/status\/([a-z0-9][a-z0-9-]{0,63})\/summary\.json$/;

/**
 * The status page and its summary.json at the front door (front-door.ts): on a workspace's host, for a public
 * page, once the answer at the page's current versions is kept, with the headers its route gives (`base` is what
 * the app's hook adds to every page or API answer). A request the door does not serve goes to the routes below.
 */
export function statusFrontDoor(
  ctx: ServerContext,
  base: { page: Readonly<Record<string, string>>; api: Readonly<Record<string, string>> },
): FrontDoor {
  return (request) => {
    const url = request.url ?? '';
    const page = FRONT_PAGE.exec(url);
    const summary = page ? null : FRONT_SUMMARY.exec(url);
    const handle = page?.[1] ?? summary?.[1];
    // A custom domain's host answers its page at its own paths (the onRequest hook below).
    if (!handle || !workspaceLabelOf(request.headers.host, ctx.config.baseDomain)) return null;
    return frontAnswer(ctx, base, request, page !== null, handle).then((answer) => {
      if (answer) frontDoorServed(ctx).count++;
      return answer;
    });
  };
}

type BaseHeaders = Parameters<typeof statusFrontDoor>[1];

/** The page (or its summary) for a request at the door: null when the door does not serve it (statusFrontDoor). */
async function frontAnswer(
  ctx: ServerContext,
  base: BaseHeaders,
  request: IncomingMessage,
  page: boolean,
  handle: string,
): Promise<FrontAnswer | null> {
  const target = await statusTargetOf(ctx, request, handle);
  if (target.page.access !== 'public') return null;
  const accepted = request.headers['accept-encoding'];
  if (page) {
    const { etag, policy } = pageHeaders(target);
    const headers = { ...base.page, etag, 'cache-control': 'no-cache' };
    if (holds(request.headers['if-none-match'], etag)) return { status: 304, headers, body: null };
    const answer = await heldStatusAnswer(ctx, target, 'page.html');
    if (!answer) return null;
    return answered(answer, accepted, {
      ...headers,
      'content-security-policy': policy,
      vary: PAGE_VARY,
      'content-type': HTML_TYPE,
    });
  }
  const etag = readEtag(target, 'summary.json');
  const headers = { ...base.api, ...SUMMARY_HEADERS, etag };
  if (holds(request.headers['if-none-match'], etag)) return { status: 304, headers, body: null };
  const answer = await heldStatusAnswer(ctx, target, 'summary.json');
  if (!answer) return null;
  return answered(answer, accepted, { ...headers, vary: 'accept-encoding', 'content-type': JSON_TYPE });
}

/** How many answers the front door gave in this process (the tests tell the door's answers from the routes'). */
export const frontDoorServed = perContext(() => ({ count: 0 }));

/** A kept answer at the door, in the coding the request accepts (as sendAnswer gives it). */
async function answered(
  answer: Answer,
  accepted: string | undefined,
  headers: Record<string, string>,
): Promise<FrontAnswer> {
  const coding = codingOf(answer, accepted);
  if (coding === null) return { status: 200, headers, body: answer.body };
  return { status: 200, headers: { ...headers, 'content-encoding': coding }, body: await answer.encoded(coding) };
}

/** An HTML document, compressed when the browser takes it (a page of bars is mostly repeated markup). */
function sendHtml(reply: FastifyReply, html: string, status = 200): FastifyReply {
  const accepted = reply.request.headers['accept-encoding'];
  const coding = acceptsEncoding(accepted, 'br') ? 'br' : acceptsEncoding(accepted, 'gzip') ? 'gzip' : null;
  void reply
    .code(status)
    .header('cache-control', 'no-cache')
    .header('vary', 'cookie, accept-encoding')
    .type('text/html; charset=utf-8');
  if (!coding) return reply.send(html);
  const body =
    coding === 'br'
      ? brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
      : gzipSync(html, { level: 6 });
  return reply.header('content-encoding', coding).send(body);
}

function sendLocked(reply: FastifyReply, target: StatusTarget, error: string | undefined, status = 401) {
  const nonce = randomBytes(16).toString('base64');
  pageSecurity(reply, { nonce });
  const unlockUrl = `/api/status/${target.page.handle}/unlock`;
  return sendHtml(reply, renderLockedPageHtml({ title: target.page.title, unlockUrl, error, nonce }), status);
}

/** The page's own paths below its base (`/`, `/incidents/:id`, feeds, badges); null when not one of them. */
async function serveStatusPath(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  target: StatusTarget,
  rest: string,
): Promise<FastifyReply | null> {
  const path = rest.split('?')[0]!.replace(/\/+$/, '');
  const token = new URLSearchParams(rest.split('?')[1] ?? '').get('token') ?? '';
  // The links in mails carry their own token: no password or session needed.
  // Opening the link only asks: its button posts the token (as the unsubscribe page does).
  if (path === '/subscriptions/confirm') {
    const works = token !== '' && (await confirmLinkWorks(ctx, target, token));
    if (!works) return sendHtml(reply, brokenLinkPage(target), 400);
    return sendHtml(
      reply,
      renderMessagePageHtml({
        title: target.page.title,
        heading: 'Confirm your subscription',
        message: `Get an email when ${target.page.title} has news?`,
        form: {
          action: `/api/status/${target.page.handle}/subscriptions/confirm`,
          button: 'Confirm',
          fields: { token },
        },
        backUrl: target.basePath || '/',
      }),
    );
  }
  if (path === '/unsubscribe') {
    return sendHtml(
      reply,
      renderMessagePageHtml({
        title: target.page.title,
        heading: 'Unsubscribe',
        message: `Stop getting mail about ${target.page.title}?`,
        form: {
          action: `/api/status/${target.page.handle}/unsubscribe`,
          button: 'Unsubscribe',
          fields: { token },
        },
        backUrl: target.basePath || '/',
      }),
    );
  }
  const verdict = await mayRead(ctx, request, target);
  if (verdict !== true) {
    if (verdict === 'members') {
      return sendHtml(
        reply,
        renderLockedPageHtml({
          title: target.page.title,
          unlockUrl: '',
          error: 'Sign in to the workspace to read this page.',
        }),
        401,
      );
    }
    return sendLocked(reply, target, undefined);
  }
  if (path === '/events') {
    const watch = statusWatchOf(ctx);
    watch.admit(request.ip);
    reply.hijack();
    watch.open(target.workspace.id, reply.raw, request.ip);
    return reply;
  }
  const options = pageUrls(target);
  if (path === '') {
    // The page is made once per change of what it shows, for every visitor: its versions name its content.
    const { etag, policy } = pageHeaders(target);
    void reply.header('etag', etag).header('cache-control', 'no-cache');
    if (holds(request.headers['if-none-match'], etag)) return reply.code(304).send();
    const answer = await keptStatusAnswer(ctx, target, 'page.html', async () =>
      renderStatusPage(await statusView(ctx, target), options),
    );
    void reply.header('content-security-policy', policy);
    return sendAnswer(reply, answer, HTML_TYPE, PAGE_VARY);
  }
  const view = await statusView(ctx, target);
  const notice = path.match(/^\/incidents\/([A-Za-z0-9-]{1,64})$/);
  if (notice) {
    const found = await statusNoticeOf(ctx, target, view, notice[1]!);
    const nonce = randomBytes(16).toString('base64');
    pageSecurity(reply, { nonce });
    return sendHtml(reply, renderNoticePageHtml(view, found, { ...options, nonce }));
  }
  if (path === '/feed.atom') {
    const notices = [...view.active, ...view.scheduled, ...view.recent];
    return sendAtom(reply, view.page.url, `${view.page.url}/feed.atom`, view.page.title, view.page.updated_at, notices);
  }
  const feed = path.match(/^\/components\/([A-Za-z0-9-]{1,64})\/feed\.atom$/);
  if (feed) {
    const component = componentOf(view, feed[1]!);
    const notices = [...view.active, ...view.scheduled, ...view.recent].filter((item) =>
      item.components.includes(component.handle),
    );
    const self = `${view.page.url}/components/${component.handle}/feed.atom`;
    return sendAtom(reply, view.page.url, self, `${view.page.title}: ${component.name}`, view.page.updated_at, notices);
  }
  const badge = path.match(/^\/badges\/([A-Za-z0-9-]{1,64})\.svg$/);
  if (badge) {
    const component = componentOf(view, badge[1]!);
    const kind = (request.query as Record<string, unknown> | undefined)?.kind === 'uptime' ? 'uptime' : 'status';
    const svg = renderBadgeSvg(
      kind === 'uptime'
        ? uptimeBadge({ name: component.name, uptime_90d: recentUptime(component.days, 30) }, 30)
        : statusBadge(component),
    );
    return reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .type('image/svg+xml; charset=utf-8')
      .send(svg);
  }
  return null;
}

function sendAtom(
  reply: FastifyReply,
  pageUrl: string,
  selfUrl: string,
  title: string,
  updated: string,
  notices: Parameters<typeof renderAtomFeed>[0]['notices'],
) {
  const xml = renderAtomFeed({ id: selfUrl, title, selfUrl, pageUrl, updated, notices });
  return reply.header('cache-control', 'no-cache').type('application/atom+xml; charset=utf-8').send(xml);
}

/**
 * The pages visitors open (outside /api): `/status/{page}...` on a workspace's host, and every path of a custom
 * domain that names a page (its root is the page). Registered on the root app, before the web app.
 */
export function registerStatusDocuments(app: FastifyInstance, ctx: ServerContext): void {
  app.get<{ Params: { page: string; '*': string } }>(
    '/status/:page/*',
    { schema: { hide: true } },
    async (request, reply) => {
      const target = await statusTargetOf(ctx, request, request.params.page);
      const query = request.url.includes('?') ? `?${request.url.split('?')[1]}` : '';
      const served = await serveStatusPath(ctx, request, reply, target, `/${request.params['*']}${query}`);
      return served ?? reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    },
  );
  app.get<{ Params: { page: string } }>('/status/:page', { schema: { hide: true } }, async (request, reply) => {
    const target = await statusTargetOf(ctx, request, request.params.page);
    return (await serveStatusPath(ctx, request, reply, target, ''))!;
  });
  // Open pages' streams would hold the server's close.
  app.addHook('preClose', (done) => {
    statusWatchOf(ctx).closeAll();
    done();
  });
  // A custom domain's host answers its page's paths before any other route does.
  app.addHook('onRequest', async (request, reply) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || request.url.startsWith('/api/')) return;
    const target = await pageOfCustomDomain(ctx, request);
    // A domain named but not proved serves nothing, not even the web app (issue 48).
    if (!target && (await isUnprovedDomain(ctx, request))) return notFoundText(reply);
    if (!target) return;
    if (request.url.split('?')[0] === '/robots.txt') return sendRobots(reply, CUSTOM_DOMAIN_ROBOTS_TXT);
    const served = await serveStatusPath(ctx, request, reply, target, request.url);
    if (!served) await notFoundText(reply);
  });
}

const notFoundText = (reply: FastifyReply) => reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
