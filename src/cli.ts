import { get } from 'node:http';
import { Command, InvalidArgumentError } from 'commander';
import { alertsCommand } from './alerts-cli.js';
import { catalogCommand } from './catalog-cli.js';
import { startRunnerAgent } from './runner/agent.js';
import { workspaceOrigin, loadConfig } from './server/config.js';

/**
 * The server's modules, loaded by the commands that use them: the client commands (runner, catalog) start
 * without them.
 */
const bootstrap = () => import('./server/bootstrap.js');

/** Whether the server on this machine's `port` knows workspace `id` (so it reads the database just seeded). */
function serverReads(port: number, host: string, id: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = get(
      { host: '127.0.0.1', port, path: '/api/workspace', headers: { host }, timeout: 2000 },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          try {
            resolve(response.statusCode === 200 && (JSON.parse(body) as { id?: string }).id === id);
          } catch {
            resolve(false);
          }
        });
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

const program = new Command('beacon').description('Beacon: service catalogue and service health');

program
  .command('serve')
  .description('apply migrations and serve the API and the app on PORT')
  .action(async () => {
    const { handleSignals, startServer } = await import('./server/main.js');
    handleSignals(await startServer(loadConfig()));
  });

program
  .command('migrate')
  .description('apply pending database migrations')
  .action(async () => {
    const { openConfiguredDatabase } = await bootstrap();
    const { migrateToLatest } = await import('./server/db/migrate.js');
    const database = openConfiguredDatabase(loadConfig());
    try {
      const applied = await migrateToLatest(database);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
    } finally {
      await database.close();
    }
  });

const mail = program.command('mail').description('the mail outbox');
mail
  .command('status')
  .description('mail waiting to be sent, mail given up with its last error, mail sent in the last 24 h')
  .action(async () => {
    const { openConfiguredDatabase } = await bootstrap();
    const { mailStatus } = await import('./server/db/repositories/mail-outbox.js');
    const database = openConfiguredDatabase(loadConfig());
    try {
      const status = await mailStatus(database.db, new Date(Date.now() - 24 * 3600 * 1000).toISOString());
      const next = status.nextAttemptAt ? ` (next attempt ${status.nextAttemptAt})` : '';
      console.log(`pending: ${status.pending}${next}`);
      console.log(`failed: ${status.failedTotal}`);
      for (const row of status.failed) {
        const what = row.kind === 'password-reset' ? 'password reset' : `"${row.subject}"`;
        console.log(
          `  ${row.created_at} to ${row.recipient} ${what}, ${row.attempts} attempts: ${row.last_error ?? ''}`,
        );
      }
      if (status.failed.length < status.failedTotal)
        console.log(`  ... and ${status.failedTotal - status.failed.length} older`);
      console.log(`sent in the last 24 h: ${status.sentSince}`);
    } finally {
      await database.close();
    }
  });

const betaKey = program.command('beta-key').description('manage registration beta keys');
betaKey
  .command('create')
  .description('create a single-use beta key for an email; prints the key as the last line')
  .requiredOption('--email <email>', 'the email the key is for')
  .action(async (options: { email: string }) => {
    const { closeContext, createContext, createLogger } = await bootstrap();
    const { createBetaKey } = await import('./server/services/accounts/registration.js');
    const config = loadConfig();
    const ctx = await createContext({ ...config, logLevel: 'warn' }, createLogger({ ...config, logLevel: 'warn' }));
    try {
      const key = await createBetaKey(ctx, options.email);
      const link = new URL('/register', config.publicUrl);
      link.searchParams.set('beta_code', key);
      console.log(`Beta key for ${options.email.trim().toLowerCase()} (register at ${link.toString()}):`);
      console.log(key);
    } finally {
      await closeContext(ctx);
    }
  });

program
  .command('demo')
  .description('seed the demo workspace and print how to log in')
  .action(async () => {
    const { closeContext, createContext, createLogger } = await bootstrap();
    const { seedDemo } = await import('./server/demo/seed.js');
    const { findWorkspaceByDomain } = await import('./server/db/repositories/workspaces.js');
    const config = loadConfig();
    const ctx = await createContext({ ...config, logLevel: 'warn' }, createLogger({ ...config, logLevel: 'warn' }));
    try {
      const login = await seedDemo(ctx);
      const origin = workspaceOrigin(config, login.workspace);
      console.log(`Demo workspace ready at ${origin}/login`);
      console.log(`  email:    ${login.email}`);
      console.log(`  password: ${login.password}`);
      const seeded = await findWorkspaceByDomain(ctx.database.db, login.workspace);
      if (!seeded || !(await serverReads(config.port, new URL(origin).host, seeded.id))) {
        const where = config.databaseUrl ? 'DATABASE_URL' : `BEACON_DATA_DIR=${config.dataDir}`;
        console.log(
          `\nNo Beacon server on port ${config.port} reads this database yet. Start one with the same settings ` +
            `(${where}, PORT=${config.port}): npm run demo (it also serves the target the demo's checks probe)`,
        );
      } else if (config.demoTargetPort === null) {
        console.log(
          "\nThe demo's health checks probe a local target that `npm run demo` serves (with private targets allowed).",
        );
      }
    } finally {
      await closeContext(ctx);
    }
  });

program
  .command('runner')
  .description("run a team runner: probe the health checks assigned to it, from this machine's network")
  .requiredOption('--url <url>', 'the workspace address, e.g. https://acme.beacon.example')
  .option('--client-id <id>', 'client_id of an API client of the runner’s team', process.env.BEACON_CLIENT_ID)
  .option(
    '--client-secret <secret>',
    'its client_secret (or BEACON_CLIENT_SECRET, which keeps it out of the process list)',
    process.env.BEACON_CLIENT_SECRET,
  )
  .requiredOption('--runner <handle>', 'the runner’s handle')
  .option('--sync-interval <seconds>', 'seconds between syncs with the server', positiveInteger, 30)
  .action(
    async (options: {
      url: string;
      clientId?: string;
      clientSecret?: string;
      runner: string;
      syncInterval: number;
    }) => {
      if (!options.clientId || !options.clientSecret) {
        throw new Error('--client-id and --client-secret (or BEACON_CLIENT_ID and BEACON_CLIENT_SECRET) are required');
      }
      const log = (level: 'info' | 'warn' | 'error', message: string) =>
        (level === 'info' ? console.log : console.error)(
          `${new Date().toISOString()} runner ${options.runner}: ${message}`,
        );
      const agent = startRunnerAgent({
        url: options.url,
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        runner: options.runner,
        syncSeconds: options.syncInterval,
        log,
      });
      let signalled = false;
      const onSignal = (signal: NodeJS.Signals) => {
        if (signalled) process.exit(1);
        signalled = true;
        log('info', `${signal}: stopping`);
        agent.stop().then(
          () => {
            log('info', 'stopped');
            process.exit(0);
          },
          (error: unknown) => {
            log('error', `stop failed: ${String(error)}`);
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
      try {
        await agent.ready;
      } catch (error) {
        await agent.stop();
        throw error;
      }
      log('info', `running against ${new URL(options.url).origin}`);
    },
  );

catalogCommand(program);
alertsCommand(program);

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError('a whole number of seconds, at least 1');
  return parsed;
}

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
