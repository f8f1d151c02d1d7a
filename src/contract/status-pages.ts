import { z } from 'zod';
import { httpUrl, line, text } from './common.js';
import {
  COMPONENT_STATUSES,
  CUSTOM_DOMAIN_STATUSES,
  PAGE_INDICATORS,
  STATUS_PAGE_ACCESS,
  UPSTREAM_DEPTH,
} from '../domain/status-pages.js';
import { HANDLE_PATTERN, HANDLE_RULE } from '../domain/validators.js';
import { noticeStatus, noticeType } from './notices.js';

/**
 * Public status pages (docs/decisions.md#status-pages, issue 27): what admins manage and what visitors and tools read.
 */
const pageHandle = line().min(1).max(64);
const serviceHandle = line().min(1).max(64);
/** A host name as a browser sends it: lower-case labels, at least one dot, no port. */
const hostName = line()
  .max(253)
  .regex(
    /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/,
    'A host name such as status.example.com',
  );

export const statusPageAccess = z.enum(STATUS_PAGE_ACCESS);

export const statusPageGroup = z.object({ name: z.string(), services: z.array(z.string()) });

export const statusPage = z
  .object({
    handle: z.string(),
    title: z.string(),
    description: z.string(),
    logo_url: z.string().nullable(),
    access: statusPageAccess,
    /** Whether a password is set (the password itself is never answered). */
    has_password: z.boolean(),
    custom_domain: z.string().nullable(),
    /**
     * Null without a custom domain. `pending` until a DNS TXT record `_beacon-challenge.{domain}` holding
     * `custom_domain_token` proved the domain (it serves nothing meanwhile); checked daily, and at once by
     * `POST /status-pages/{page}/actions/verify-domain`.
     */
    custom_domain_status: z.enum(CUSTOM_DOMAIN_STATUSES).nullable(),
    custom_domain_token: z.string().nullable(),
    /** The record to add: its name and value. */
    custom_domain_record: z.object({ type: z.literal('TXT'), name: z.string(), value: z.string() }).nullable(),
    /** When the record was last looked for, and why it was not found (null when it was). */
    custom_domain_checked_at: z.string().nullable(),
    custom_domain_check_error: z.string().nullable(),
    show_upstream: z.boolean(),
    upstream_depth: z.number().int(),
    groups: z.array(statusPageGroup),
    /** Where visitors read it. */
    url: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'StatusPage' });
export type StatusPage = z.infer<typeof statusPage>;

const groupInput = z.strictObject({
  name: line().trim().max(100),
  services: z.array(serviceHandle).max(500),
});

const pageFields = {
  title: line().trim().min(1).max(200),
  description: text().trim().max(2000).optional(),
  logo_url: httpUrl().max(2000).nullable().optional(),
  access: statusPageAccess.optional(),
  /** Write only; required when access is `password` and none is set yet. */
  password: line().min(8).max(200).nullable().optional(),
  custom_domain: hostName.nullable().optional(),
  show_upstream: z.boolean().optional(),
  upstream_depth: z.number().int().min(UPSTREAM_DEPTH.min).max(UPSTREAM_DEPTH.max).optional(),
  groups: z.array(groupInput).max(50).optional(),
};

export const statusPageCreate = z.strictObject({
  handle: pageHandle.regex(HANDLE_PATTERN, HANDLE_RULE),
  ...pageFields,
});
export type StatusPageCreate = z.infer<typeof statusPageCreate>;
/** The handle is fixed once the page exists; a field left out keeps its value. */
export const statusPageUpdate = z.strictObject({ ...pageFields, title: pageFields.title.optional() });
export type StatusPageUpdate = z.infer<typeof statusPageUpdate>;
export const statusPageParams = z.strictObject({ page: pageHandle });

// ---- what visitors and tools read ----

export const componentStatus = z.enum(COMPONENT_STATUSES);

export const statusDayNotice = z.object({ id: z.string(), type: noticeType, title: z.string() });

export const statusDay = z.object({
  date: z.string(),
  /** Percent of the day without a problem; null for a day with no data (before the service existed). */
  uptime: z.number().nullable(),
  status: z.union([componentStatus, z.literal('no_data')]),
  notices: z.array(statusDayNotice),
});

export const upstreamImpact = z.object({
  /** Handles from the component's dependency to the one with the problem (`workspace:handle` when remote). */
  path: z.array(z.string()),
  /** Names along the same path, for people. */
  names: z.array(z.string()),
  status: componentStatus,
});

export const statusComponent = z
  .object({
    handle: z.string(),
    name: z.string(),
    group: z.string(),
    status: componentStatus,
    /** Percent over the days with data, null when none has. */
    uptime_90d: z.number().nullable(),
    days: z.array(statusDay),
    affected_by: z.array(upstreamImpact),
  })
  .meta({ id: 'StatusComponent' });
export type StatusComponent = z.infer<typeof statusComponent>;

export const statusNoticeUpdate = z.object({ status: noticeStatus, body: z.string(), created_at: z.string() });

export const statusNotice = z
  .object({
    id: z.string(),
    type: noticeType,
    title: z.string(),
    status: noticeStatus,
    open: z.boolean(),
    /** The components (page services) it is about. */
    components: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
    starts_at: z.string().nullable(),
    ends_at: z.string().nullable(),
    /** Newest first, as status pages show them. */
    updates: z.array(statusNoticeUpdate),
    /** Sanitised HTML of the post-mortem, on a resolved incident. */
    postmortem_html: z.string().nullable(),
    url: z.string(),
  })
  .meta({ id: 'StatusNotice' });
export type StatusNotice = z.infer<typeof statusNotice>;

export const statusIndicator = z.enum(PAGE_INDICATORS);

/** The page as its own renderer reads it (the HTML page and its live updates). */
export const statusView = z
  .object({
    page: z.object({
      handle: z.string(),
      title: z.string(),
      description: z.string(),
      logo_url: z.string().nullable(),
      url: z.string(),
      updated_at: z.string(),
    }),
    status: z.object({ indicator: statusIndicator, description: z.string() }),
    components: z.array(statusComponent),
    active: z.array(statusNotice),
    scheduled: z.array(statusNotice),
    recent: z.array(statusNotice),
  })
  .meta({ id: 'StatusView' });
export type StatusView = z.infer<typeof statusView>;

/** Statuspage's v2 `summary.json`, so its readers work unchanged (docs/decisions.md#status-pages). */
const summaryComponent = z.object({
  id: z.string(),
  name: z.string(),
  status: componentStatus,
  created_at: z.string(),
  updated_at: z.string(),
  position: z.number().int(),
  description: z.string().nullable(),
  showcase: z.boolean(),
  start_date: z.string().nullable(),
  group_id: z.string().nullable(),
  page_id: z.string(),
  group: z.boolean(),
  only_show_if_degraded: z.boolean(),
});
const summaryIncident = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  impact: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  monitoring_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
  shortlink: z.string(),
  started_at: z.string(),
  page_id: z.string(),
  scheduled_for: z.string().nullable().optional(),
  scheduled_until: z.string().nullable().optional(),
  incident_updates: z.array(
    z.object({
      id: z.string(),
      status: z.string(),
      body: z.string(),
      incident_id: z.string(),
      created_at: z.string(),
      updated_at: z.string(),
      display_at: z.string(),
    }),
  ),
  components: z.array(summaryComponent),
});
export const statusSummary = z
  .object({
    page: z.object({
      id: z.string(),
      name: z.string(),
      url: z.string(),
      time_zone: z.string(),
      updated_at: z.string(),
    }),
    status: z.object({ indicator: statusIndicator, description: z.string() }),
    components: z.array(summaryComponent),
    incidents: z.array(summaryIncident),
    scheduled_maintenances: z.array(summaryIncident),
  })
  .meta({ id: 'StatusSummary' });
export type StatusSummary = z.infer<typeof statusSummary>;

export const statusUnlock = z.strictObject({ password: line().min(1).max(200) });

export const statusHistoryQuery = z.strictObject({
  cursor: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export const statusComponentParams = z.strictObject({ page: pageHandle, service: serviceHandle });
export const statusBadgeParams = z.strictObject({
  page: pageHandle,
  /** `{service}.svg` */
  badge: line()
    .min(5)
    .max(80)
    .regex(/^[A-Za-z0-9-]{1,64}\.svg$/, 'A service handle with .svg'),
});
export const statusBadgeQuery = z.strictObject({ kind: z.enum(['status', 'uptime']).default('status') });
export const statusNoticeParams = z.strictObject({ page: pageHandle, id: line().min(1).max(64) });

/** Shields.io's endpoint badge JSON. */
export const shieldsEndpoint = z
  .object({ schemaVersion: z.literal(1), label: z.string(), message: z.string(), color: z.string() })
  .meta({ id: 'ShieldsEndpoint' });

// ---- subscriptions ----

/**
 * docs/decisions.md#status-pages: an email (confirmed by a mailed link) or a signed webhook; some components or the
 * whole page.
 */
export const statusSubscribe = z.strictObject({
  email: line().trim().max(254).email('An email address').optional(),
  webhook_url: httpUrl().max(2000).optional(),
  components: z.array(serviceHandle).max(500).optional(),
  include_upstream: z.boolean().default(false),
});
export type StatusSubscribe = z.infer<typeof statusSubscribe>;

export const statusSubscription = z
  .object({
    id: z.string(),
    kind: z.enum(['email', 'webhook']),
    /** An email waits for its confirmation; a webhook is told at once. */
    confirmed: z.boolean(),
    /** The webhook's signing secret, answered once: `X-Beacon-Signature: t=...,v1=HMAC-SHA256(secret, t.body)`. */
    secret: z.string().optional(),
  })
  .meta({ id: 'StatusSubscription' });

/** A subscriber as the page's admins see it. */
export const statusSubscriber = z
  .object({
    id: z.string(),
    kind: z.enum(['email', 'webhook']),
    address: z.string(),
    components: z.array(z.string()).nullable(),
    include_upstream: z.boolean(),
    confirmed: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: 'StatusSubscriber' });
export type StatusSubscriber = z.infer<typeof statusSubscriber>;

export const statusSubscriberParams = z.strictObject({ page: pageHandle, id: line().min(1).max(64) });

/** The token of an unsubscribe link (one form post from the link's page, or a JSON call). */
export const statusUnsubscribe = z.strictObject({ token: line().min(1).max(2000) });

/** The token of a confirmation link: its page's Confirm button posts it (opening the link confirms nothing). */
export const statusConfirm = z.strictObject({ token: line().min(1).max(2000) });
