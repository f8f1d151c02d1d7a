import { Command, InvalidArgumentError } from 'commander';
import { startRunnerAgent } from './runner/agent.js';
import { workspaceOrigin, loadConfig } from './server/config.js';
import { closeContext, createContext, createLogger, openConfiguredDatabase } from './server/bootstrap.js';
import { migrateToLatest } from './server/db/migrate.js';
import { handleSignals, startServer } from './server/main.js';
import { seedDemo } from './server/services/demo.js';
import { createBetaKey } from './server/services/registration.js';

const program = new Command('beacon').description('Beacon: service catalogue and service health');

program
  .command('serve')
  .description('apply migrations and serve the API and the app on PORT')
  .action(async () => {
    handleSignals(await startServer(loadConfig()));
  });

program
  .command('migrate')
  .description('apply pending database migrations')
  .action(async () => {
    const database = openConfiguredDatabase(loadConfig());
    try {
      const applied = await migrateToLatest(database);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
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
    const config = loadConfig();
    const ctx = await createContext({ ...config, logLevel: 'warn' }, createLogger({ ...config, logLevel: 'warn' }));
    try {
      const login = await seedDemo(ctx);
      console.log(`Demo workspace ready at ${workspaceOrigin(config, login.workspace)}/login`);
      console.log(`  email:    ${login.email}`);
      console.log(`  password: ${login.password}`);
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

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError('a whole number of seconds, at least 1');
  return parsed;
}

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
