import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { AlertAction, AlertChannelKind, AlertSeverity, AlertSource, AlertState } from '../../domain/alerts.js';
import type { PlanId, SubscriptionStatus } from '../../domain/billing.js';
import type { CheckKind, DnsRecordType, ErrorClass } from '../../domain/check-kinds.js';

/**
 * Kysely table types. Times are ISO-8601 UTC strings on both engines (they sort as text);
 * booleans are 0/1 integers; binary data is a Buffer (blob / bytea).
 */
export interface WorkspacesTable {
  id: string;
  domain: string;
  name: string;
  status: 'active' | 'inactive' | 'suspended';
  login: string | null;
  created_at: string;
}

export interface UsersTable {
  id: string;
  workspace_id: string;
  handle: string;
  name: string;
  email: string;
  password_hash: string;
  bio: string | null;
  profile: string | null;
  description: string | null;
  icon_asset_id: string | null;
  role: 'guest' | 'member' | 'admin' | 'owner';
  super_admin: number;
  last_login: string | null;
  created_at: string;
  /** Generated: lower(name handle email), trigram-indexed for search. */
  search_text: Generated<string>;
}

export interface SessionsTable {
  id: string;
  workspace_id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** Set for a session begun through SAML: what single logout needs. */
  sso_provider_id?: string | null;
  saml_name_id?: string | null;
  saml_session_index?: string | null;
}

export interface BetaKeysTable {
  key: string;
  /** null: a bootstrap key that any email may use. */
  email: string | null;
  created_at: string;
  used_at: string | null;
  workspace_id: string | null;
}

export interface InvitesTable {
  id: string;
  workspace_id: string;
  email: string;
  code_hash: string;
  invited_by: string | null;
  last_sent: string;
  created_at: string;
  accepted_at: string | null;
}

export interface PasswordResetsTable {
  key_hash: string;
  workspace_id: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
}

/**
 * Mail waiting to be sent, being sent, sent or given up (jobs/mail-outbox.ts). A `password-reset` row is a
 * request: the job looks the account up and writes the mail when it sends, so the request does no lookup.
 */
export interface MailOutboxTable {
  id: string;
  kind: 'mail' | 'password-reset';
  /** password-reset: the workspace label the request named. */
  workspace_domain: string | null;
  recipient: string;
  subject: string;
  /** Emptied once sent: invite links must not linger in the database. */
  body: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface AssetsTable {
  id: string;
  workspace_id: string;
  content_type: string;
  data: Buffer;
  created_at: string;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  workspace_id: string;
  /** The login tried (lowercased email), whether or not such a user exists; null on rows from before 008. */
  account: string | null;
  address: string;
  at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/** SQLite only: the FTS5 trigram indexes over search_text (migrations 002, 003). */
export interface FtsTable {
  search_text: string;
}

export interface TeamsTable {
  id: string;
  workspace_id: string;
  handle: string;
  name: string;
  description: string | null;
  icon_asset_id: string | null;
  parent_id: string | null;
  created_at: string;
  /**
   * Team policies (docs/decisions.md#open-decisions): a new service's visibility; 1 when team members may create
   * services.
   */
  default_visibility: Generated<'public' | 'workspace' | 'owner'>;
  members_create_services: Generated<number>;
  search_text: Generated<string>;
}

export interface ServiceDependenciesTable {
  workspace_id: string;
  service_id: string;
  dependency_id: string;
  created_at: string;
}

/**
 * A one-way link: members of `workspace_id` see the public services of `remote_workspace_id` (docs/decisions.md#graph).
 */
export interface WorkspaceRemotesTable {
  workspace_id: string;
  remote_workspace_id: string;
  created_at: string;
}

export interface RemoteDependenciesTable {
  workspace_id: string;
  service_id: string;
  remote_domain: string;
  remote_handle: string;
  /** The remote service's name when it was last seen, shown while it is unavailable. */
  remote_name: string;
  created_at: string;
}

export interface TeamMembersTable {
  workspace_id: string;
  team_id: string;
  user_id: string;
  role: 'admin' | 'member';
  created_at: string;
}

export interface ServicesTable {
  id: string;
  workspace_id: string;
  handle: string;
  name: string;
  description: string | null;
  icon_asset_id: string | null;
  owner_team_id: string;
  visibility: 'public' | 'workspace' | 'owner';
  stage: 'development' | 'live' | 'eol';
  health: 'good' | 'maintenance' | 'warning' | 'error' | 'critical';
  /** JSON array of {name, url}. */
  links: string;
  starred_count: Generated<number>;
  created_at: string;
  updated_at: string;
  search_text: Generated<string>;
}

export interface StarsTable {
  workspace_id: string;
  user_id: string;
  service_id: string;
  created_at: string;
}

export interface MutesTable {
  workspace_id: string;
  user_id: string;
  profile_type: 'service' | 'team' | 'user';
  profile_id: string;
  activity: number;
  notifications: number;
  created_at: string;
}

/**
 * docs/decisions.md#health-maths: every change of a service's health, at `at` (epoch ms; bigint, a string from
 * node-pg).
 */
export interface HealthTransitionsTable {
  workspace_id: string;
  service_id: string;
  at: number | string;
  health: 'good' | 'maintenance' | 'warning' | 'error' | 'critical';
  source: 'manual' | 'check' | 'notice';
}

export interface HealthChecksTable {
  id: string;
  workspace_id: string;
  service_id: string;
  name: string;
  endpoint: string;
  /** The runner's handle; null is the shared runner. */
  runner_id: string | null;
  frequency: number;
  timeout: number;
  allowed_failures: number;
  importance: 'warning' | 'error' | 'critical';
  disabled: number;
  paused: number;
  created_at: string;
  updated_at: string;
  /** 1 while more than allowed_failures runs in a row failed (written by whichever runner ran it). */
  failing: Generated<number>;
  /** The shared-runner process holding the check, and until when (epoch ms); see jobs/shared-runner.ts. */
  lease_owner: string | null;
  lease_until: number | string | null;
  /** docs/decisions.md#checks (migration 023). */
  kind: Generated<CheckKind>;
  /** JSON of the contract's CheckRequest. */
  request: string | null;
  starttls: 'smtp' | null;
  record: DnsRecordType | null;
  /** JSON array of typed assertions; null: the kind's defaults. */
  assertions: string | null;
  retries: Generated<number>;
  recover_after: Generated<number>;
  grace: number | null;
  schedule: string | null;
  time_zone: string | null;
  ping_token_hash: string | null;
  ping_token_sealed: string | null;
  /** Epoch ms (bigint, a string from node-pg). */
  last_ping_at: number | string | null;
  last_ping_kind: 'success' | 'fail' | null;
  last_ping_exit_code: number | null;
  failing_severity: 'warning' | 'error' | 'critical' | null;
  recovering: Generated<number>;
  /** docs/decisions.md#spec-checks (migration 031): the OpenAPI spec page and operation the check was made from. */
  spec_page_id: string | null;
  spec_operation_id: string | null;
  /** The operation's method and path when linked: a new version's operation is matched by them without its id. */
  spec_method: string | null;
  spec_path: string | null;
  /** The page's published_at when linked: which published version the check follows. */
  spec_published_at: string | null;
  /** That version's `info.version`, to show. */
  spec_version: string | null;
  /** 1 when the spec's newest version no longer has the operation. */
  spec_missing: Generated<number>;
}

/** An operation whose answers break its published spec now (docs/decisions.md#spec-checks, migration 031). */
export interface ApiDriftTable {
  id: string;
  workspace_id: string;
  service_id: string;
  page_id: string;
  operation_id: string;
  method: string;
  path: string;
  spec_version: string | null;
  check_id: string | null;
  since: string;
  last_seen: string;
  /** JSON: { status, pointer, message, value }. */
  example: string;
}
export type ApiDriftRow = Selectable<ApiDriftTable>;

/** A complete past UTC day of a service's daily health (seconds per state), cached from the transition log. */
export interface HealthDailyTable {
  workspace_id: string;
  service_id: string;
  date: string;
  critical: number;
  error: number;
  warning: number;
  maintenance: number;
}

export interface SharedRunnersTable {
  id: string;
  /** Epoch ms of its latest heartbeat. */
  seen_at: number | string;
}

export interface NoticesTable {
  id: string;
  workspace_id: string;
  service_id: string;
  type: 'incident' | 'maintenance';
  title: string;
  status: string;
  open: number;
  health: 'good' | 'maintenance' | 'warning' | 'error' | 'critical' | null;
  created_at: string;
  updated_at: string;
  /** A maintenance window (ISO times), shown on status pages; either may be left out. */
  starts_at: string | null;
  ends_at: string | null;
  /** Markdown, sanitised as pages are when shown; on a resolved incident. */
  postmortem: string | null;
}

export interface NoticeHistoryTable {
  notice_id: string;
  seq: number;
  status: string;
  message: string;
  time: string;
}

/** Something that happened to a profile (a service, team or user): the feeds and notifications read these. */
export interface EventsTable {
  id: string;
  workspace_id: string;
  profile_type: 'service' | 'team' | 'user';
  profile_id: string;
  type: string;
  actor_id: string | null;
  /** Who caused it, by name when it happened: a user, an API client or a runner. */
  agent_name: Generated<string>;
  /** JSON. */
  data: string;
  created_at: string;
}

/** A page of a service (docs/decisions.md#pages): its draft, and the copy readers see once published. */
export interface PagesTable {
  id: string;
  workspace_id: string;
  service_id: string;
  section: 'announcements' | 'release-notes' | 'api-docs' | 'open-api-specs';
  handle: string;
  title: string;
  content: string;
  lock: number;
  revisions: number;
  created_at: string;
  updated_at: string;
  /** The name of who saved it last. */
  updated_by: string;
  published_title: string | null;
  published_content: string | null;
  published_at: string | null;
  published_updated_at: string | null;
  published_by: string | null;
}
export type PageRow = Selectable<PagesTable>;

export interface PageRevisionsTable {
  page_id: string;
  seq: number;
  title: string;
  content: string;
  saved_at: string;
  saved_by: string;
}

/**
 * A Slack workspace linked to a Beacon workspace (docs/decisions.md#integrations); `token` is the bot token, sealed.
 */
export interface SlackWorkspacesTable {
  id: string;
  workspace_id: string;
  slack_team_id: string;
  slack_team_name: string;
  bot_user_id: string | null;
  /** The name of the admin who linked it. */
  installed_by: string;
  token: string;
  created_at: string;
  updated_at: string;
}

/** A person's Slack identity (chat connect). */
export interface SlackUsersTable {
  user_id: string;
  workspace_id: string;
  slack_team_id: string;
  slack_user_id: string;
  created_at: string;
}

/** The chat channel of a service, one per provider. */
export interface ServiceChannelsTable {
  id: string;
  workspace_id: string;
  service_id: string;
  provider: 'slack';
  channel_id: string;
  created_at: string;
  updated_at: string;
}

/** An event to post to a service's channel: leased, retried with backoff, sent once (jobs/chat-outbox.ts). */
export interface ChatOutboxTable {
  id: string;
  workspace_id: string;
  event_id: string;
  service_id: string;
  provider: 'slack';
  channel_id: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  /** A notice's message (migration 019): its thread, and its place in the notice's history (order of sending). */
  notice_id: string | null;
  notice_seq: number | null;
}
export type ChatOutboxRow = Selectable<ChatOutboxTable>;

/** The root message of a notice in a channel (migration 019): later events update it and reply in its thread. */
export interface ChatThreadsTable {
  workspace_id: string;
  notice_id: string;
  provider: 'slack';
  channel_id: string;
  ts: string;
  created_at: string;
  updated_at: string;
}

/** A SAML identity provider of a workspace (docs/decisions.md#integrations). */
export interface SsoProvidersTable {
  id: string;
  workspace_id: string;
  handle: string;
  name: string;
  is_default: number;
  sso_enabled: number;
  slo_enabled: number;
  idp_sso_url: string | null;
  idp_slo_url: string | null;
  idp_entity_id: string | null;
  /** The IdP's signing certificate, PEM. */
  idp_x509: string | null;
  created_at: string;
  updated_at: string;
}
export type SsoProviderRow = Selectable<SsoProvidersTable>;

/** A public status page (docs/decisions.md#status-pages). */
export interface StatusPagesTable {
  id: string;
  workspace_id: string;
  handle: string;
  title: string;
  description: string;
  logo_url: string | null;
  access: 'public' | 'password' | 'members';
  password_hash: string | null;
  /** Lower-case host name; any number of pages may name one, one may hold it verified (migration 039). */
  custom_domain: string | null;
  /** What the `_beacon-challenge.{domain}` TXT record must hold; set with the domain. */
  custom_domain_token: string | null;
  /** When the record was last found (null: pending, the domain serves nothing). */
  custom_domain_verified_at: string | null;
  custom_domain_checked_at: string | null;
  /** Why the last check did not find the record. */
  custom_domain_check_error: string | null;
  /** Epoch ms of the next check (bigint, a string from node-pg). */
  custom_domain_next_check_at: number | string | null;
  show_upstream: number;
  upstream_depth: number;
  created_at: string;
  updated_at: string;
}
export type StatusPageRow = Selectable<StatusPagesTable>;

/** Someone told of a status page's notices: an email (once confirmed) or a signed webhook. */
export interface StatusSubscriptionsTable {
  id: string;
  workspace_id: string;
  page_id: string;
  email: string | null;
  webhook_url: string | null;
  secret_sealed: string | null;
  /** JSON array of service ids; null for the whole page. */
  components: string | null;
  include_upstream: number;
  confirmed_at: string | null;
  created_at: string;
}
export type StatusSubscriptionRow = Selectable<StatusSubscriptionsTable>;

/** A service's SLO (docs/decisions.md#slos-and-scorecards) and the burn-rate alerts firing at its last reading. */
export interface ServiceSlosTable {
  service_id: string;
  workspace_id: string;
  /** The target in thousandths of a percent: 99.9 % is 99,900. */
  target_thousandths: number;
  window_days: number;
  fast_firing: number;
  slow_firing: number;
  created_at: string;
  updated_at: string;
}
export type ServiceSloRow = Selectable<ServiceSlosTable>;

/** A scorecard (docs/decisions.md#slos-and-scorecards): levels, rules and applies-to as JSON (teams by id). */
export interface ScorecardsTable {
  id: string;
  workspace_id: string;
  handle: string;
  name: string;
  description: string;
  applies_to: string;
  levels: string;
  rules: string;
  /** Epoch ms every service was last evaluated at (bigint, a string from node-pg). */
  evaluated_at: Generated<number | string>;
  created_at: string;
  updated_at: string;
}
export type ScorecardRow = Selectable<ScorecardsTable>;

/** A service's current results on a scorecard; `rules` is JSON of the rule results. */
export interface ScorecardResultsTable {
  scorecard_id: string;
  service_id: string;
  workspace_id: string;
  owner_team_id: string;
  service_name: string;
  /** 1 for an owner-only service. */
  owner_only: number;
  /** The reached level's position among the scorecard's levels; -1 when none is reached. */
  level_rank: number;
  score: number | null;
  rules: string;
  /** Epoch ms (bigint, a string from node-pg). */
  evaluated_at: number | string;
}
export type ScorecardResultRow = Selectable<ScorecardResultsTable>;

/** Results per scorecard, owner team, visibility and level, kept by triggers (migration 028). */
export interface ScorecardCountsTable {
  scorecard_id: string;
  owner_team_id: string;
  owner_only: number;
  level_rank: number;
  n: number;
}

/** Every change of a service's results, as it was from `at` (epoch ms). */
export interface ScorecardResultChangesTable {
  scorecard_id: string;
  service_id: string;
  workspace_id: string;
  at: number | string;
  level_rank: number;
  score: number | null;
  rules: string;
}

export interface ScorecardExemptionsTable {
  id: string;
  workspace_id: string;
  scorecard_id: string;
  service_id: string;
  rule_key: string;
  reason: string;
  expires_at: string;
  created_by: string;
  created_at: string;
}
export type ScorecardExemptionRow = Selectable<ScorecardExemptionsTable>;

/** A write of a fact a scorecard rule reads, logged by triggers for the refresh (migration 040). */
export interface ScorecardTouchesTable {
  id: Generated<number | string>;
  workspace_id: string;
  service_id: string | null;
  team_id: string | null;
}

/**
 * A source of descriptor files (docs/decisions.md#catalogue-as-code): uploaded files, or a URL synced on a schedule.
 */
export interface CatalogSourcesTable {
  id: string;
  workspace_id: string;
  name: string;
  url: string | null;
  mode: 'authoritative' | 'seed';
  interval_minutes: number;
  /** An upload source's files (JSON of { path, content }). */
  files: string | null;
  etag: string | null;
  digest: string | null;
  last_sync_at: string | null;
  last_sync_status: 'ok' | 'unchanged' | 'failed' | null;
  /** JSON of the last sync's counts per action. */
  last_sync_counts: string | null;
  last_sync_error: string | null;
  /** Epoch ms (bigint, a string from node-pg). */
  next_sync_at: number | string | null;
  /** Sent as `Authorization: Bearer`; sealed with the secret box, never answered. */
  token_sealed: string | null;
  created_at: string;
  updated_at: string;
}
export type CatalogSourceRow = Selectable<CatalogSourcesTable>;

/** An entity a source describes, and how it stands: synced, errored, orphaned, conflict. */
export interface CatalogEntitiesTable {
  source_id: string;
  workspace_id: string;
  kind: 'service' | 'team';
  handle: string;
  entity_id: string | null;
  path: string;
  line: number;
  state: 'synced' | 'errored' | 'orphaned' | 'conflict';
  reason: string | null;
  state_since: string;
  synced_at: string;
  /** JSON list of the settings its annotations decide (migration 030); null for a team, or none. */
  settings: string | null;
}
export type CatalogEntityRow = Selectable<CatalogEntitiesTable>;

/** A plan waiting to be applied: the files it read and the digest of the changes it answered. */
export interface CatalogPlansTable {
  id: string;
  workspace_id: string;
  source_id: string | null;
  files: string;
  digest: string;
  created_at: string;
  /** Epoch ms (bigint, a string from node-pg). */
  expires_at: number | string;
}
export type CatalogPlanRow = Selectable<CatalogPlansTable>;

/** A webhook delivery to make (the outboxes' columns, outbox.ts). */
export interface WebhookOutboxTable {
  id: string;
  workspace_id: string;
  subscription_id: string;
  url: string;
  body: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}
export type WebhookOutboxRow = Selectable<WebhookOutboxTable>;

/** A service's alert (migration 041, services/alerting/): open -> acknowledged -> resolved. */
export interface AlertsTable {
  id: string;
  workspace_id: string;
  service_id: string;
  source: AlertSource;
  severity: AlertSeverity;
  state: AlertState;
  /** What opened it, one sentence (the check that failed, the burn rate). */
  summary: string;
  opened_at: string;
  acknowledged_at: string | null;
  /** The user who acknowledged it (null: a vendor or a link without a user; the timeline says who). */
  acknowledged_by: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
  /** Why it was resolved by hand. */
  reason: string | null;
  escalation_round: number | null;
  escalation_level: number | null;
  next_escalation_at: string | null;
}
export type AlertRow = Selectable<AlertsTable>;

/** One step of an alert's life. */
export interface AlertTimelineTable {
  id: string;
  alert_id: string;
  at: string;
  kind: string;
  channel_id: string | null;
  /** Whom it was sent to: a user's handle, a team's, an address. */
  target: string | null;
  status: string | null;
  message: string;
}
export type AlertTimelineRow = Selectable<AlertTimelineTable>;

/** Where alerts are told: the workspace's (team_id null) or a team's. */
export interface AlertChannelsTable {
  id: string;
  workspace_id: string;
  team_id: string | null;
  name: string;
  kind: AlertChannelKind;
  /** JSON: the kind's settings without its secrets. */
  config: string;
  /** The sealed JSON of the secret settings (crypto/secret-box.ts), or null. */
  secrets: string | null;
  failing: number;
  failures_in_row: number;
  created_at: string;
  updated_at: string;
}
export type AlertChannelRow = Selectable<AlertChannelsTable>;

/** A team's alert policy, or the workspace's default (team_key ''). */
export interface AlertPoliciesTable {
  workspace_id: string;
  team_key: string;
  /** JSON: [{ severities, channels }]. */
  rules: string;
  /** JSON: [{ after_seconds, targets }]. */
  escalation: string;
  repeat: number;
  notify_when_impacted: number;
  updated_at: string;
}
export type AlertPolicyRow = Selectable<AlertPoliciesTable>;

export interface ServiceAlertChannelsTable {
  workspace_id: string;
  service_id: string;
  channel_id: string;
}

/** The alert channels' outbox and delivery log (db/repositories/outbox.ts columns). */
export interface AlertDeliveriesTable {
  id: string;
  workspace_id: string;
  channel_id: string;
  /** Null for a channel's test. */
  alert_id: string | null;
  action: AlertAction;
  /** JSON: domain/alerts.ts AlertMessage. */
  message: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  code: number | null;
  attempted_at: string | null;
  created_at: string;
  sent_at: string | null;
}
export type AlertDeliveryRow = Selectable<AlertDeliveriesTable>;

/** A notice event waiting to be told to a workspace's subscribers (migration 038, jobs/status-news.ts). */
export interface StatusNewsTable {
  id: string;
  workspace_id: string;
  /** Queued once: the notice's id and the history entry's time (or the maintenance window's moment). */
  event_key: string;
  /** JSON: services/status-pages/status-subscriptions.ts NoticeNews. */
  news: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}
export type StatusNewsRow = Selectable<StatusNewsTable>;

/** A confirmation mail sent to an address for a subscription of the workspace's pages (at most 3 a day). */
export interface StatusConfirmationsTable {
  workspace_id: string;
  email: string;
  created_at: string;
}

export interface StatusNotifiedTable {
  subscription_id: string;
  event_key: string;
  created_at: string;
}

/** A service shown on a status page, in a named group; groups and services are ordered by `position`. */
export interface StatusPageComponentsTable {
  page_id: string;
  service_id: string;
  workspace_id: string;
  group_name: string;
  position: number;
}

/** An AuthnRequest this workspace sent, until its response comes (node-saml's InResponseTo cache). */
export interface SamlRequestsTable {
  id: string;
  workspace_id: string;
  value: string;
  created_at: string;
}

/** The first answer of a replayable write, per caller and Idempotency-Key (docs/api.md#conventions). */
export interface IdempotencyKeysTable {
  workspace_id: string;
  caller: string;
  key: string;
  fingerprint: string;
  /** Null while the first request runs. */
  status: number | null;
  body: string | null;
  created_at: string;
}

/** One recipient of an event (docs/decisions.md#feeds); the notification's id is its event's. */
export interface NotificationsTable {
  workspace_id: string;
  user_id: string;
  event_id: string;
  created_at: string;
  read: Generated<number>;
}

export interface HealthCheckResultsTable {
  check_id: string;
  workspace_id: string;
  /** Epoch ms (bigint, a string from node-pg). */
  start: number | string;
  /** Duration in ms. */
  time: number;
  success: number;
  status: number | null;
  error: string | null;
  error_class: ErrorClass | null;
  /** JSON array of AssertionResult. */
  assertions: string | null;
  /** JSON of the certificate seen: days_left, not_after, subject, issuer. */
  cert: string | null;
  severity: 'warning' | 'error' | 'critical' | null;
}

/** A team's API client (client_credentials): the secret only as its SHA-256; a new secret bumps the version. */
export interface ClientsTable {
  id: string;
  workspace_id: string;
  team_id: string;
  handle: string;
  name: string;
  description: string;
  /** JSON array of scope names (domain/scopes.ts). */
  scopes: string;
  client_id: string;
  secret_hash: string;
  secret_version: number;
  /** The workspace admin or owner who granted its workspace-wide scopes (domain/scopes.ts), if it holds any. */
  granted_by: string | null;
  /** Set while the client may not have tokens, saying why (migration 037, or its granter lost the right). */
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** A team runner: a `beacon runner` agent that probes the checks naming its handle. */
export interface RunnersTable {
  id: string;
  workspace_id: string;
  team_id: string;
  handle: string;
  name: string;
  description: string;
  sync_status: 'never' | 'ok' | 'error';
  /** What the agent reported at its latest sync when that was an error. */
  sync_error: string | null;
  last_sync: string | null;
  created_at: string;
  updated_at: string;
}

/** Services per workspace, owner team and owner-only or not, kept by triggers (migration 018). */
export interface ServiceCountsTable {
  workspace_id: string;
  owner_team_id: string;
  owner_only: number;
  n: number;
}

/** Per-minute and per-hour aggregates of a check's results (domain/check-aggregates.ts). */
export interface HealthCheckAggregatesTable {
  check_id: string;
  bucket: 'minute' | 'hour';
  /** Epoch ms (bigint, a string from node-pg). */
  bucket_start: number | string;
  workspace_id: string;
  probes: number;
  failures: number;
  max: number | null;
  /** `bin:count` pairs. */
  histogram: string;
}

/** docs/decisions.md#integrations: the workspace's Stripe customer and its subscription as Stripe last reported it. */
export interface BillingAccountsTable {
  workspace_id: string;
  customer_id: string;
  subscription_id: string | null;
  subscription_item_id: string | null;
  subscription_status: SubscriptionStatus | null;
  plan: PlanId | null;
  seats: number | null;
  product_name: string | null;
  /** Epoch seconds, as Stripe gives it. */
  period_end: number | null;
  cancel_at_period_end: number;
  created_at: string;
  updated_at: string;
}

/** Stripe webhook events already applied (a redelivery is applied once). */
export interface StripeEventsTable {
  id: string;
  type: string;
  workspace_id: string | null;
  received_at: string;
}

export interface Database {
  workspaces: WorkspacesTable;
  users: UsersTable;
  users_fts: FtsTable;
  teams: TeamsTable;
  service_dependencies: ServiceDependenciesTable;
  workspace_remotes: WorkspaceRemotesTable;
  remote_dependencies: RemoteDependenciesTable;
  teams_fts: FtsTable;
  team_members: TeamMembersTable;
  services: ServicesTable;
  services_fts: FtsTable;
  stars: StarsTable;
  mutes: MutesTable;
  health_transitions: HealthTransitionsTable;
  health_checks: HealthChecksTable;
  api_drift: ApiDriftTable;
  health_check_results: HealthCheckResultsTable;
  health_check_aggregates: HealthCheckAggregatesTable;
  service_counts: ServiceCountsTable;
  shared_runners: SharedRunnersTable;
  health_daily: HealthDailyTable;
  notices: NoticesTable;
  notice_history: NoticeHistoryTable;
  events: EventsTable;
  notifications: NotificationsTable;
  pages: PagesTable;
  page_revisions: PageRevisionsTable;
  slack_workspaces: SlackWorkspacesTable;
  slack_users: SlackUsersTable;
  service_channels: ServiceChannelsTable;
  chat_outbox: ChatOutboxTable;
  chat_threads: ChatThreadsTable;
  sso_providers: SsoProvidersTable;
  status_pages: StatusPagesTable;
  status_page_components: StatusPageComponentsTable;
  status_subscriptions: StatusSubscriptionsTable;
  status_notified: StatusNotifiedTable;
  service_slos: ServiceSlosTable;
  scorecards: ScorecardsTable;
  scorecard_results: ScorecardResultsTable;
  scorecard_counts: ScorecardCountsTable;
  scorecard_result_changes: ScorecardResultChangesTable;
  scorecard_exemptions: ScorecardExemptionsTable;
  scorecard_touches: ScorecardTouchesTable;
  catalog_sources: CatalogSourcesTable;
  catalog_entities: CatalogEntitiesTable;
  catalog_plans: CatalogPlansTable;
  webhook_outbox: WebhookOutboxTable;
  status_news: StatusNewsTable;
  alerts: AlertsTable;
  alert_timeline: AlertTimelineTable;
  alert_channels: AlertChannelsTable;
  alert_policies: AlertPoliciesTable;
  service_alert_channels: ServiceAlertChannelsTable;
  alert_deliveries: AlertDeliveriesTable;
  status_confirmations: StatusConfirmationsTable;
  billing_accounts: BillingAccountsTable;
  stripe_events: StripeEventsTable;
  saml_requests: SamlRequestsTable;
  idempotency_keys: IdempotencyKeysTable;
  sessions: SessionsTable;
  beta_keys: BetaKeysTable;
  invites: InvitesTable;
  password_resets: PasswordResetsTable;
  mail_outbox: MailOutboxTable;
  assets: AssetsTable;
  login_failures: LoginFailuresTable;
  settings: SettingsTable;
  clients: ClientsTable;
  runners: RunnersTable;
}

export type WorkspaceRow = Selectable<WorkspacesTable>;
export type UserRow = Omit<Selectable<UsersTable>, 'search_text'>;
export type NewUser = Insertable<UsersTable>;
export type UserPatch = Updateable<UsersTable>;
export type InviteRow = Selectable<InvitesTable>;
export type MailOutboxRow = Selectable<MailOutboxTable>;
export type TeamRow = Omit<Selectable<TeamsTable>, 'search_text'>;
export type ServiceRow = Omit<Selectable<ServicesTable>, 'search_text'>;
export type HealthCheckRow = Selectable<HealthChecksTable>;
export type ClientRow = Selectable<ClientsTable>;
export type RunnerRow = Selectable<RunnersTable>;
export type BillingAccountRow = Selectable<BillingAccountsTable>;
