import type { FastifyInstance } from 'fastify';
import {
  alertChannelOperations,
  alertOperations,
  alertPolicyOperations,
  alertVendorOperations,
} from '../../contract/operations/alerts.js';
import type { ServerContext } from '../context.js';
import { route, routes } from '../operations.js';
import { actOnAlert, getAlert, listAlerts } from '../services/alerts/alerts.js';
import {
  changeChannel,
  channelDeliveries,
  createChannel,
  getChannel,
  listTeamChannels,
  listWorkspaceChannels,
  removeChannel,
  testChannel,
} from '../services/alerts/channels.js';
import {
  getServiceChannels,
  getTeamPolicy,
  getWorkspacePolicy,
  setServiceChannels,
  setTeamPolicy,
  setWorkspacePolicy,
} from '../services/alerts/policies.js';
import { answerFromOpsgenie, answerFromPagerDuty, answerFromSlack } from '../services/alerts/vendor-answers.js';

const header = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

/** Alerts, their channels and policies (docs/api.md, "Alerts"). */
export function alertRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) => {
    await routes(ctx, app, alertOperations, {
      listAlerts: ({ caller, query }) => listAlerts(ctx, caller, query),
      getAlert: ({ caller, params }) => getAlert(ctx, caller, params.id),
      acknowledgeAlert: ({ caller, params }) => actOnAlert(ctx, caller, params.id, 'acknowledge'),
      resolveAlert: ({ caller, params, body }) => actOnAlert(ctx, caller, params.id, 'resolve', body?.reason),
    });
    await routes(ctx, app, alertChannelOperations, {
      listAlertChannels: ({ caller }) => listWorkspaceChannels(ctx, caller),
      createAlertChannel: ({ caller, body }) => createChannel(ctx, caller, body),
      listTeamAlertChannels: ({ caller, params }) => listTeamChannels(ctx, caller, params.team),
      createTeamAlertChannel: ({ caller, params, body }) => createChannel(ctx, caller, body, params.team),
      getAlertChannel: ({ caller, params }) => getChannel(ctx, caller, params.id),
      updateAlertChannel: ({ caller, params, body }) => changeChannel(ctx, caller, params.id, body),
      deleteAlertChannel: async ({ caller, params }) => {
        await removeChannel(ctx, caller, params.id);
        return null;
      },
      testAlertChannel: ({ caller, params }) => testChannel(ctx, caller, params.id),
      listAlertChannelDeliveries: ({ caller, params }) => channelDeliveries(ctx, caller, params.id),
    });
    await routes(ctx, app, alertPolicyOperations, {
      getAlertPolicy: ({ caller }) => getWorkspacePolicy(ctx, caller),
      setAlertPolicy: ({ caller, body }) => setWorkspacePolicy(ctx, caller, body),
      getTeamAlertPolicy: ({ caller, params }) => getTeamPolicy(ctx, caller, params.team),
      setTeamAlertPolicy: ({ caller, params, body }) => setTeamPolicy(ctx, caller, params.team, body),
      getServiceAlertChannels: ({ caller, params }) => getServiceChannels(ctx, caller, params.service),
      setServiceAlertChannels: ({ caller, params, body }) =>
        setServiceChannels(ctx, caller, params.service, body.channels),
    });
    // The vendors sign the exact bytes they sent: these routes alone read their bodies raw.
    await app.register(async (vendors) => {
      vendors.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
        done(null, body),
      );
      vendors.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
        done(null, body),
      );
      const rawOf = (body: unknown) =>
        Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : '');
      route(ctx, vendors, alertVendorOperations.receivePagerDutyWebhook, ({ request }) =>
        answerFromPagerDuty(ctx, rawOf(request.body), header(request.headers['x-pagerduty-signature'])),
      );
      route(ctx, vendors, alertVendorOperations.receiveOpsgenieWebhook, ({ request }) =>
        answerFromOpsgenie(ctx, rawOf(request.body), header(request.headers.authorization)),
      );
      route(ctx, vendors, alertVendorOperations.receiveSlackAction, ({ request }) =>
        answerFromSlack(ctx, rawOf(request.body).toString('utf8'), {
          signature: header(request.headers['x-slack-signature']),
          timestamp: header(request.headers['x-slack-request-timestamp']),
        }),
      );
    });
  };
}
