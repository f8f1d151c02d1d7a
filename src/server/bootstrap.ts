import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import type { Config } from './config.js';
import type { ServerContext } from './context.js';
import { openDatabase, type DatabaseHandle } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { getOrCreateSetting } from './db/repositories/settings.js';
import { createMailer, outboxDirOf } from './integrations/smtp.js';
import { LiveEvents } from './services/feeds/live-events.js';
import { loadSamlSigning } from './crypto/saml-signing.js';
import { loadSecretBox } from './crypto/secret-box.js';
import { randomToken } from './crypto/secrets.js';

export function openConfiguredDatabase(config: Config, logger?: Logger): DatabaseHandle {
  return config.databaseUrl
    ? openDatabase({
        engine: 'postgres',
        url: config.databaseUrl,
        schema: config.databaseSchema,
        connectTimeoutMs: config.dbConnectTimeoutMs,
        onConnectionError: (error) =>
          logger?.warn({ err: error }, 'a database connection broke; the next query opens a new one'),
      })
    : openDatabase({
        engine: 'sqlite',
        file: join(config.dataDir, 'beacon.sqlite'),
        busyTimeoutMs: config.sqliteBusyTimeoutMs,
      });
}

export function createLogger(config: Config): Logger {
  return pino({ level: config.logLevel });
}

/**
 * Opens the database, applies migrations and gathers what services need. The JWT key comes from
 * BEACON_JWT_SECRET or is created once and kept in the database, so every process shares it.
 */
export async function createContext(
  config: Config,
  logger: Logger,
  database = openConfiguredDatabase(config, logger),
): Promise<ServerContext> {
  const applied = await migrateToLatest(database);
  if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
  const secret = config.jwtSecret ?? (await getOrCreateSetting(database.db, 'jwt_secret', randomToken));
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: outboxDirOf(config.dataDir),
    logger,
  });
  const live = new LiveEvents({
    db: database.db,
    logger,
    ...(database.engine === 'postgres' && config.databaseUrl
      ? { postgres: { url: config.databaseUrl, schema: database.schema ?? 'public' } }
      : {}),
  });
  await live.start();
  return {
    config,
    database,
    live,
    secretBox: loadSecretBox(config),
    samlSigning: loadSamlSigning(config),
    mailer,
    logger,
    jwtKey: await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    ),
    now: () => new Date(),
  };
}

export async function closeContext(ctx: ServerContext): Promise<void> {
  await ctx.live.close();
  ctx.mailer.close();
  await ctx.database.close();
}
