import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { closeSharedAgents } from '../runner/probe.js';
import { buildApp } from './app.js';
import { closeContext, createContext, createLogger } from './bootstrap.js';
import type { Config } from './config.js';
import type { ServerContext } from './context.js';
import { demoTargetPorts, startDemoTarget } from './demo/target.js';
import { startChatOutbox } from './jobs/chat-outbox.js';
import { startEventRetention } from './jobs/event-retention.js';
import { startMailOutbox } from './jobs/mail-outbox.js';
import { startMaintenanceReminders } from './jobs/maintenance-reminders.js';
import { startSloAlerts } from './jobs/slo-alerts.js';
import { startStatusNews } from './jobs/status-news.js';
import { startScorecardRefresh, startScorecardSweep } from './jobs/scorecard-sweep.js';
import { startCatalogSync } from './jobs/catalog-sync.js';
import { startDomainProofs } from './jobs/domain-proofs.js';
import { startWebhookOutbox } from './jobs/webhook-outbox.js';
import { startAlertEscalation } from './jobs/alert-escalation.js';
import { startAlertOutbox } from './jobs/alert-outbox.js';
import { statusWatchOf } from './services/status-pages/status-live.js';
import { startSharedRunner } from './jobs/shared-runner.js';
import { bootstrapRegistrationLink } from './services/accounts/registration.js';

export interface RunningServer {
  app: FastifyInstance;
  ctx: ServerContext;
  url: string;
  /** Stops accepting requests, lets those in flight finish, stops the background jobs, then closes the database. */
  shutdown(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const logger = createLogger(config);
  const ctx = await createContext(config, logger);
  const app = await buildApp(ctx);
  await app.listen({ port: config.port, host: config.host });
  const runner = config.sharedRunner ? startSharedRunner(ctx) : undefined;
  if (runner) ctx.refreshChecks = () => void runner.refresh();
  const mailOutbox = startMailOutbox(ctx);
  const eventRetention = startEventRetention(ctx);
  const chatOutbox = startChatOutbox(ctx);
  const webhookOutbox = startWebhookOutbox(ctx);
  const alertOutbox = startAlertOutbox(ctx);
  const alertEscalation = startAlertEscalation(ctx);
  const statusNews = startStatusNews(ctx);
  const maintenanceReminders = startMaintenanceReminders(ctx);
  const sloAlerts = startSloAlerts(ctx);
  const scorecardSweep = startScorecardSweep(ctx);
  const scorecardRefresh = startScorecardRefresh(ctx);
  const catalogSync = startCatalogSync(ctx);
  const domainProofs = startDomainProofs(ctx);
  const demoTarget =
    config.demoTargetPort !== null ? await startDemoTarget(ctx, demoTargetPorts(config.demoTargetPort)) : undefined;
  const link = await bootstrapRegistrationLink(ctx);
  // Printed plainly, last and boxed rather than logged as JSON: it is the first thing a new user needs to read.
  if (link) {
    // After the start-up lines (the listening addresses and the jobs log theirs on the next turns of the event
    // loop), so it is the last thing on the screen.
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
    process.stdout.write(registrationBox(link));
  }
  let closing: Promise<void> | undefined;
  const shutdown = () =>
    (closing ??= (async () => {
      // Closing at once would reset kept-alive connections a client is about to send on: first answer every
      // request with 503 and Connection: close, until the connections are gone or the drain time is over.
      app.drain();
      // Event streams stay open until ended: end them, so their connections go now.
      ctx.live.closeStreams();
      statusWatchOf(ctx).closeAll();
      await connectionsGone(app.server, config.drainMs);
      await app.close();
      // Before the database closes: probes in flight finish and their results are written.
      await runner?.stop();
      // Sends in flight are marked sent before the database closes.
      await mailOutbox.stop();
      eventRetention.stop();
      await chatOutbox.stop();
      await statusNews.stop();
      await webhookOutbox.stop();
      await alertEscalation.stop();
      await alertOutbox.stop();
      maintenanceReminders.stop();
      sloAlerts.stop();
      scorecardSweep.stop();
      scorecardRefresh.stop();
      catalogSync.stop();
      domainProofs.stop();
      await demoTarget?.close();
      await closeSharedAgents();
      await closeContext(ctx);
    })());
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return { app, ctx, url: `http://localhost:${port}`, shutdown };
}

/** The one-time registration link in a box that stands out from the log lines around it. */
export function registrationBox(link: string): string {
  const lines = ['No workspace yet. Create the first one with this one-time link:', '', link];
  const width = Math.max(...lines.map((line) => line.length));
  const rule = `+${'-'.repeat(width + 2)}+`;
  return `\n${rule}\n${lines.map((line) => `| ${line.padEnd(width)} |`).join('\n')}\n${rule}\n\n`;
}

/** Waits until no connection to `server` is open, or `ms` passed. */
async function connectionsGone(server: Server, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const open = await new Promise<number>((resolve) =>
      server.getConnections((error, count) => resolve(error ? 0 : count)),
    );
    if (open === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** SIGTERM and SIGINT shut down gracefully; a second signal exits at once. */
export function handleSignals(server: RunningServer): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) process.exit(1);
    signalled = true;
    server.ctx.logger.info({ signal }, 'shutting down');
    server.shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        server.ctx.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
