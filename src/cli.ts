import { Command } from 'commander';
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

program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
