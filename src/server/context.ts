import type { Logger } from 'pino';
import type { Notification } from '../contract/feeds.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/connect.js';
import type { Mailer } from './integrations/smtp.js';
import type { SamlSigning } from './crypto/saml-signing.js';
import type { SecretBox } from './crypto/secret-box.js';

/** What every service needs: the database, the settings, mail and a clock (tests may move time). */
export interface ServerContext {
  config: Config;
  database: DatabaseHandle;
  mailer: Mailer;
  logger: Logger;
  /** The HS256 key for access tokens, imported once: jose would import raw bytes again on every verification. */
  jwtKey: CryptoKey;
  /** Seals and opens secrets from vendors (docs/decisions.md#integrations). */
  secretBox: SecretBox;
  /** The SAML service provider's signing key and certificate (crypto/saml-signing.ts). */
  samlSigning: () => Promise<SamlSigning>;
  /** Open event streams and what reaches them (docs/decisions.md#feeds). */
  live: LiveEventsHub;
  now(): Date;
  /** Set while this process runs the shared runner: reloads the checks at once after an API change. */
  refreshChecks?: () => void;
  /** Set while this process runs the mail outbox job: sends mail just queued at once. */
  wakeMail?: () => void;
  /** Set while this process runs the webhook outbox job: delivers status page webhooks just queued at once. */
  wakeWebhooks?: () => void;
  /** Set while this process runs the status news job: tells a notice event just written to its subscribers. */
  wakeStatusNews?: () => void;
  /** Set while this process runs the alert outbox: sends what was just queued for alert channels at once. */
  wakeAlerts?: () => void;
  /** Set while this process runs the maintenance reminders: looks again at once after a window was made or moved. */
  wakeMaintenance?: () => void;
}

export function isoNow(ctx: Pick<ServerContext, 'now'>, offsetSeconds = 0): string {
  return new Date(ctx.now().getTime() + offsetSeconds * 1000).toISOString();
}

/** Open event streams and the announcements that reach them (services/feeds/live-events.ts implements it). */
export interface LiveEventsHub {
  subscribe(workspaceId: string, userId: string, listener: StreamListener): () => void;
  onChatQueued(wake: () => void): () => void;
  onAlertWork(wake: () => void): () => void;
  closeStreams(): void;
  close(): Promise<void>;
  readonly openStreams: number;
}

/** What an open stream is told. */
export interface StreamListener {
  notification(notification: Notification): void;
  unread(count: number): void;
  /** The server is shutting down: end the response. */
  close(): void;
}
