import { fileURLToPath } from 'node:url';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { EVENT_RETENTION_DAYS } from '../domain/events.js';

/** Every setting the server reads from the environment; docs/operations.md documents each variable. */
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
  /** Attempts at sending a mail before it is marked failed. */
  mailMaxAttempts: number;
  /** Wait before a failed mail is tried again, seconds; doubled after each failure. */
  mailRetrySeconds: number;
  jwtSecret: string | undefined;
  tokenTtlSeconds: number;
  sessionTtlSeconds: number;
  resetKeyTtlSeconds: number;
  maxUploadBytes: number;
  authRateLimitPerMinute: number;
  /** Registration and beta-key checks per address and minute. */
  registerRateLimitPerMinute: number;
  authCacheTtlMs: number;
  /** Bytes of catalogue answers one process keeps (cache/catalogue-cache.ts); 0 keeps none. */
  readCacheBytes: number;
  logLevel: string;
  /** Which proxies' X-Forwarded-For to believe: none, a hop count, or their addresses (Fastify `trustProxy`). */
  trustProxy: false | number | string[];
  /** Run the shared health-check runner inside `beacon serve` (docs/operations.md#configuration). */
  sharedRunner: boolean;
  /** Let the shared runner probe private, loopback and link-local addresses (demos, single-host setups). */
  allowPrivateTargets: boolean;
  /** DNS checks ask only these resolvers (`ip[:port]`); empty: the system's (docs/decisions.md#checks). */
  dnsResolvers: string[];
  /** IANA's RDAP bootstrap for domain checks (RFC 9224 JSON). */
  rdapBootstrapUrl: string;
  /** The demo target's first port (demo/target.ts); null: no demo target in this process. */
  demoTargetPort: number | null;
  /** "Test" runs of checks per workspace and minute. */
  checkTestsPerMinute: number;
  /** Raw health-check results older than this are deleted (their aggregates stay: domain/check-aggregates.ts). */
  resultRetentionHours: number;
  /**
   * How long an entity its source no longer describes stays (orphaned) before it is removed
   * (docs/decisions.md#catalogue-as-code).
   */
  catalogOrphanGraceHours: number;
  /** Days events (and their notifications) are kept (docs/decisions.md#feeds). */
  eventRetentionDays: number;
  /** Status pages' event streams one process holds open at most (services/status-pages/status-live.ts). */
  statusStreamsMax: number;
  /** PostgreSQL: how long a query waits for a connection before failing (503) while the database is away. */
  dbConnectTimeoutMs: number;
  /** SQLite: how long a write waits for another process's lock before failing (503). */
  sqliteBusyTimeoutMs: number;
  /** After SIGTERM, how long requests (kept-alive connections included) get 503 with Connection: close. */
  drainMs: number;
  /** Slack (docs/decisions.md#integrations): on when the Slack app's client id and secret are set. */
  slack: SlackConfig | null;
  /** Stripe billing (docs/decisions.md#integrations): on when the secret key is set; off, nothing is limited. */
  stripe: StripeConfig | null;
  /** Where the alert channels' vendors are (docs/decisions.md#alerts): configuration, so tests use stand-ins. */
  alertVendors: VendorUrls;
  /** The AES-256-GCM key for secrets from vendors (base64 or hex, 32 bytes); else one kept in the data dir. */
  encryptionKey: string | undefined;
  /** The SAML service provider's signing key and certificate (PEM or file paths); else made once in the data dir. */
  samlSpKey: string | undefined;
  samlSpCert: string | undefined;
}

/** Where the vendors live: configuration, so tests point them at local stand-ins. */
export interface VendorUrls {
  /** PagerDuty Events API v2 base (POST {base}/v2/enqueue). */
  pagerduty: string;
  /** Opsgenie Alert API bases, by region. */
  opsgenie: { us: string; eu: string };
  /** Telegram Bot API base (POST {base}/bot{token}/sendMessage). */
  telegram: string;
}

export interface SlackConfig {
  clientId: string;
  clientSecret: string;
  /** The Web API's base URL, with its trailing slash. */
  apiUrl: string;
  /** Where an admin authorises the Slack app. */
  authorizeUrl: string;
  /** The app's signing secret: verifies its interactivity requests (alert buttons); null turns them off. */
  signingSecret: string | null;
}

function slackConfig(env: NodeJS.ProcessEnv): SlackConfig | null {
  const clientId = env.BEACON_SLACK_CLIENT_ID?.trim();
  const clientSecret = env.BEACON_SLACK_CLIENT_SECRET?.trim();
  if (!clientId || !clientSecret) return null;
  const apiUrl = env.BEACON_SLACK_API_URL?.trim() || 'https://slack.com/api/';
  return {
    clientId,
    clientSecret,
    apiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`,
    authorizeUrl: env.BEACON_SLACK_AUTHORIZE_URL?.trim() || 'https://slack.com/oauth/v2/authorize',
    signingSecret: env.BEACON_SLACK_SIGNING_SECRET?.trim() || null,
  };
}

export interface StripeConfig {
  secretKey: string;
  /** Handed to the browser for Stripe.js. */
  publishableKey: string;
  /** Checks the signature of Stripe's webhooks; without it every webhook is refused. */
  webhookSecret: string | null;
  /** Stripe's API origin (a local stand-in in tests). */
  apiUrl: URL;
}

function stripeConfig(env: NodeJS.ProcessEnv): StripeConfig | null {
  const secretKey = env.BEACON_STRIPE_SECRET_KEY?.trim();
  if (!secretKey) return null;
  const publishableKey = env.BEACON_STRIPE_PUBLISHABLE_KEY?.trim();
  if (!publishableKey) throw new Error('BEACON_STRIPE_PUBLISHABLE_KEY must be set with BEACON_STRIPE_SECRET_KEY');
  return {
    secretKey,
    publishableKey,
    webhookSecret: env.BEACON_STRIPE_WEBHOOK_SECRET?.trim() || null,
    apiUrl: new URL(env.BEACON_STRIPE_API_URL?.trim() || 'https://api.stripe.com'),
  };
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return parsed;
}

/** proxy-addr's names for address ranges, accepted in a trusted-proxy list. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * BEACON_TRUST_PROXY: a hop count (`1`: believe the nearest proxy only) or a comma list of the proxies'
 * addresses or CIDRs. Never "every hop": a client could then name any address it likes in X-Forwarded-For.
 */
function trustProxy(value: string | undefined): false | number | string[] {
  const text = value?.trim() ?? '';
  if (text === '' || text === '0') return false;
  if (/^\d+$/.test(text)) return Number(text);
  const list = text.split(',').map((entry) => entry.trim());
  for (const entry of list) {
    const [address = '', bits, ...rest] = entry.split('/');
    const cidr = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(address) === 6 ? 128 : 32));
    if (!PROXY_RANGES.includes(entry) && (rest.length > 0 || !isIP(address) || !cidr))
      throw new Error(`BEACON_TRUST_PROXY must be a hop count or a comma list of proxy addresses, got "${entry}"`);
  }
  return list;
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
    mailMaxAttempts: integer(env.BEACON_MAIL_MAX_ATTEMPTS, 10, 'BEACON_MAIL_MAX_ATTEMPTS'),
    mailRetrySeconds: integer(env.BEACON_MAIL_RETRY_SECONDS, 30, 'BEACON_MAIL_RETRY_SECONDS'),
    jwtSecret: env.BEACON_JWT_SECRET || undefined,
    tokenTtlSeconds: integer(env.BEACON_TOKEN_TTL, 900, 'BEACON_TOKEN_TTL'),
    sessionTtlSeconds: integer(env.BEACON_SESSION_TTL, 30 * 24 * 3600, 'BEACON_SESSION_TTL'),
    resetKeyTtlSeconds: integer(env.BEACON_RESET_KEY_TTL, 3600, 'BEACON_RESET_KEY_TTL'),
    maxUploadBytes: integer(env.BEACON_MAX_UPLOAD_BYTES, 2 * 1024 * 1024, 'BEACON_MAX_UPLOAD_BYTES'),
    authRateLimitPerMinute: integer(env.BEACON_AUTH_RATE_LIMIT, 120, 'BEACON_AUTH_RATE_LIMIT'),
    registerRateLimitPerMinute: integer(env.BEACON_REGISTER_RATE_LIMIT, 10, 'BEACON_REGISTER_RATE_LIMIT'),
    authCacheTtlMs: integer(env.BEACON_AUTH_CACHE_TTL_MS, 2000, 'BEACON_AUTH_CACHE_TTL_MS'),
    readCacheBytes: integer(env.BEACON_READ_CACHE_MB, 32, 'BEACON_READ_CACHE_MB') * 1024 * 1024,
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: trustProxy(env.BEACON_TRUST_PROXY),
    sharedRunner: env.BEACON_SHARED_RUNNER !== '0',
    allowPrivateTargets: env.BEACON_ALLOW_PRIVATE_TARGETS === '1',
    dnsResolvers: (env.BEACON_DNS_RESOLVERS ?? '')
      .split(',')
      .map((resolver) => resolver.trim())
      .filter(Boolean),
    rdapBootstrapUrl: env.BEACON_RDAP_BOOTSTRAP_URL?.trim() || 'https://data.iana.org/rdap/dns.json',
    demoTargetPort: env.BEACON_DEMO_TARGET_PORT
      ? integer(env.BEACON_DEMO_TARGET_PORT, 0, 'BEACON_DEMO_TARGET_PORT')
      : null,
    checkTestsPerMinute: integer(env.BEACON_CHECK_TEST_RATE_LIMIT, 30, 'BEACON_CHECK_TEST_RATE_LIMIT'),
    resultRetentionHours: integer(env.BEACON_RESULT_RETENTION_HOURS, 48, 'BEACON_RESULT_RETENTION_HOURS'),
    catalogOrphanGraceHours: integer(env.BEACON_CATALOG_ORPHAN_GRACE_HOURS, 72, 'BEACON_CATALOG_ORPHAN_GRACE_HOURS'),
    eventRetentionDays: integer(env.BEACON_EVENT_RETENTION_DAYS, EVENT_RETENTION_DAYS, 'BEACON_EVENT_RETENTION_DAYS'),
    statusStreamsMax: integer(env.BEACON_STATUS_STREAMS_MAX, 10_000, 'BEACON_STATUS_STREAMS_MAX'),
    dbConnectTimeoutMs: integer(env.BEACON_DB_CONNECT_TIMEOUT_MS, 5000, 'BEACON_DB_CONNECT_TIMEOUT_MS'),
    sqliteBusyTimeoutMs: integer(env.BEACON_DB_BUSY_TIMEOUT_MS, 5000, 'BEACON_DB_BUSY_TIMEOUT_MS'),
    drainMs: integer(env.BEACON_DRAIN_MS, 5000, 'BEACON_DRAIN_MS'),
    slack: slackConfig(env),
    stripe: stripeConfig(env),
    alertVendors: alertVendorUrls(env),
    encryptionKey: env.BEACON_ENCRYPTION_KEY?.trim() || undefined,
    samlSpKey: env.BEACON_SAML_SP_KEY?.trim() || undefined,
    samlSpCert: env.BEACON_SAML_SP_CERT?.trim() || undefined,
  };
}

/** BEACON_PAGERDUTY_EVENTS_URL, BEACON_OPSGENIE_API_URL (both regions when set), BEACON_TELEGRAM_API_URL. */
function alertVendorUrls(env: NodeJS.ProcessEnv): VendorUrls {
  const opsgenie = env.BEACON_OPSGENIE_API_URL?.trim();
  return {
    pagerduty: env.BEACON_PAGERDUTY_EVENTS_URL?.trim() || 'https://events.pagerduty.com',
    opsgenie: opsgenie
      ? { us: opsgenie, eu: opsgenie }
      : { us: 'https://api.opsgenie.com', eu: 'https://api.eu.opsgenie.com' },
    telegram: env.BEACON_TELEGRAM_API_URL?.trim() || 'https://api.telegram.org',
  };
}

/** The origin of a workspace: the public URL with the workspace's label in front of the host. */
export function workspaceOrigin(config: Config, domain: string): string {
  const url = new URL(config.publicUrl);
  url.hostname = `${domain}.${url.hostname}`;
  return url.origin;
}

export { workspaceLabelOf } from '../domain/hosts.js';
