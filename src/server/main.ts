import type { FastifyInstance } from 'fastify';
import { closeSharedAgents } from '../runner/probe.js';
import { buildApp } from './app.js';
import { closeContext, createContext, createLogger } from './bootstrap.js';
import type { Config } from './config.js';
import type { ServerContext } from './context.js';
import { startSharedRunner } from './jobs/shared-runner.js';
import { bootstrapRegistrationLink } from './services/registration.js';

export interface RunningServer {
  app: FastifyInstance;
  ctx: ServerContext;
  url: string;
  /** Stops accepting requests, lets those in flight finish, stops the shared runner, then closes the database. */
  shutdown(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const logger = createLogger(config);
  const ctx = await createContext(config, logger);
  const app = await buildApp(ctx);
  await app.listen({ port: config.port, host: config.host });
  const runner = config.sharedRunner ? startSharedRunner(ctx) : undefined;
  if (runner) ctx.refreshChecks = () => void runner.refresh();
  const link = await bootstrapRegistrationLink(ctx);
  // Printed plainly rather than logged as JSON: it is the first thing a new user needs to read.
  if (link)
    process.stdout.write(`\nNo workspace yet. Create the first one with this one-time link:\n\n    ${link}\n\n`);
  let closing: Promise<void> | undefined;
  const shutdown = () =>
    (closing ??= (async () => {
      await app.close();
      // Before the database closes: probes in flight finish and their results are written.
      await runner?.stop();
      await closeSharedAgents();
      await closeContext(ctx);
    })());
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return { app, ctx, url: `http://localhost:${port}`, shutdown };
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
