/**
 * An alert's acknowledge link (docs/decisions.md#alerts): `/alerts/{id}/ack?token=` from a mail or a chat message.
 * A GET only shows the alert and a button, so a mail scanner that follows links acknowledges nothing; the button's
 * POST acknowledges. A page of the server's own (contract/server-pages.ts), plain HTML that works without the app
 * and without signing in: the signed token is the right to acknowledge that one alert, while it is open.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { healthLabel } from '../../domain/catalogue.js';
import type { ServerContext } from '../context.js';
import { isoNow } from '../context.js';
import { findAlert } from '../db/repositories/alerts.js';
import { acceptFormBodies, workspaceOfHost } from '../http.js';
import { answerAlert } from '../services/alerting/lifecycle.js';
import { alertOfLink, alertUrl } from '../services/alerting/messages.js';
import { escapeHtml } from '../status-render/escape.js';

interface LinkRequest {
  Params: { id: string };
  Querystring: { token?: string };
  Body: { token?: string };
}

function page(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · Beacon</title></head><body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5"><main><h1 style="font-size: 1.5rem">${escapeHtml(title)}</h1>${body}</main></body></html>`;
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(html);
}

export async function registerAlertLinks(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  /** The alert the link names on this host's workspace, or a page saying why there is none. */
  const linked = async (request: FastifyRequest<LinkRequest>, token: string | undefined) => {
    const workspace = await workspaceOfHost(ctx, request);
    const id = workspace && token ? await alertOfLink(ctx, workspace.id, token) : null;
    if (!workspace || !token || id !== request.params.id) return null;
    const alert = await findAlert(ctx.database.db, workspace.id, id);
    return alert ? { workspace, alert } : null;
  };
  const invalid = (reply: FastifyReply) =>
    page(reply, 404, 'This link does not work', '<p>It may have expired, or belong to another workspace.</p>');

  await app.register(async (scope) => {
    acceptFormBodies(scope);
    scope.get<LinkRequest>('/alerts/:id/ack', { schema: { hide: true } }, async (request, reply) => {
      const found = await linked(request, request.query.token);
      if (!found) return invalid(reply);
      const { alert, workspace } = found;
      const about = `<p><strong>${escapeHtml(alert.service_name)}</strong> (${escapeHtml(alert.team_name)}) · ${escapeHtml(healthLabel(alert.severity))}</p><p>${escapeHtml(alert.summary)}</p>`;
      const open = `<p><a href="${escapeHtml(alertUrl(ctx, workspace, alert.id))}">Open the alert in Beacon</a></p>`;
      if (alert.state !== 'open') {
        return page(reply, 200, `This alert is already ${alert.state}`, `${about}${open}`);
      }
      const form = `<form method="post"><input type="hidden" name="token" value="${escapeHtml(request.query.token!)}"><button type="submit" style="font-size: 1rem; padding: 0.5rem 1rem">Acknowledge</button></form>`;
      return page(reply, 200, 'Acknowledge this alert?', `${about}${form}${open}`);
    });
    scope.post<LinkRequest>('/alerts/:id/ack', { schema: { hide: true } }, async (request, reply) => {
      const found = await linked(request, request.body?.token);
      if (!found) return invalid(reply);
      const { alert, workspace } = found;
      const outcome = await ctx.database.db
        .transaction()
        .execute((trx) =>
          answerAlert(
            trx,
            alert,
            'acknowledge',
            { userId: null, name: 'Someone with the link', via: 'a link' },
            isoNow(ctx),
          ),
        );
      const open = `<p><a href="${escapeHtml(alertUrl(ctx, workspace, alert.id))}">Open the alert in Beacon</a></p>`;
      if (!outcome.applied) return page(reply, 409, outcome.refusal, open);
      ctx.wakeAlerts?.();
      return page(
        reply,
        200,
        'Acknowledged',
        `<p>The escalation has stopped, and everyone told has been told.</p>${open}`,
      );
    });
  });
}
