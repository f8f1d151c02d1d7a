import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

/** Every setting the server reads from the environment; README.md documents each variable. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** The built web app (vite's output). */
  webDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL schema to use (search_path); lets tests and benches run side by side. */
  databaseSchema: string | undefined;
  baseDomain: string;
  publicUrl: URL;
  signupHost: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  jwtSecret: string | undefined;
  tokenTtlSeconds: number;
  sessionTtlSeconds: number;
  resetKeyTtlSeconds: number;
  maxUploadBytes: number;
  authRateLimitPerMinute: number;
  authCacheTtlMs: number;
  logLevel: string;
  trustProxy: boolean;
  /** Run the shared health-check runner inside `beacon serve` (DESIGN.md 5). */
  sharedRunner: boolean;
  /** Let the shared runner probe private, loopback and link-local addresses (demos, single-host setups). */
  allowPrivateTargets: boolean;
  /** Raw health-check results older than this are deleted. */
  resultRetentionDays: number;
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return parsed;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env.PORT, 8080, 'PORT');
  const baseDomain = (env.BEACON_BASE_DOMAIN ?? 'localhost').toLowerCase();
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.BEACON_DATA_DIR ?? './data'),
    webDir: resolve(env.BEACON_WEB_DIR ?? fileURLToPath(new URL('../../dist/app', import.meta.url))),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.BEACON_DATABASE_SCHEMA || undefined,
    baseDomain,
    publicUrl: new URL(env.BEACON_PUBLIC_URL ?? `http://${baseDomain}:${port}`),
    signupHost: env.BEACON_SIGNUP_HOST?.toLowerCase() || undefined,
    smtpUrl: env.BEACON_SMTP_URL || undefined,
    mailFrom: env.BEACON_MAIL_FROM ?? 'Beacon <beacon@localhost>',
    jwtSecret: env.BEACON_JWT_SECRET || undefined,
    tokenTtlSeconds: integer(env.BEACON_TOKEN_TTL, 900, 'BEACON_TOKEN_TTL'),
    sessionTtlSeconds: integer(env.BEACON_SESSION_TTL, 30 * 24 * 3600, 'BEACON_SESSION_TTL'),
    resetKeyTtlSeconds: integer(env.BEACON_RESET_KEY_TTL, 3600, 'BEACON_RESET_KEY_TTL'),
    maxUploadBytes: integer(env.BEACON_MAX_UPLOAD_BYTES, 2 * 1024 * 1024, 'BEACON_MAX_UPLOAD_BYTES'),
    authRateLimitPerMinute: integer(env.BEACON_AUTH_RATE_LIMIT, 120, 'BEACON_AUTH_RATE_LIMIT'),
    authCacheTtlMs: integer(env.BEACON_AUTH_CACHE_TTL_MS, 2000, 'BEACON_AUTH_CACHE_TTL_MS'),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: env.BEACON_TRUST_PROXY === '1',
    sharedRunner: env.BEACON_SHARED_RUNNER !== '0',
    allowPrivateTargets: env.BEACON_ALLOW_PRIVATE_TARGETS === '1',
    resultRetentionDays: integer(env.BEACON_RESULT_RETENTION_DAYS, 7, 'BEACON_RESULT_RETENTION_DAYS'),
  };
}

/** The origin of a workspace: the public URL with the workspace's label in front of the host. */
export function workspaceOrigin(config: Config, domain: string): string {
  const url = new URL(config.publicUrl);
  url.hostname = `${domain}.${url.hostname}`;
  return url.origin;
}

export { workspaceLabelOf } from '../domain/hosts.js';
