import { z } from 'zod';
import { line, text } from './common.js';
import { ASSERTION_OPS, CHECK_KINDS, DNS_RECORD_TYPES, ERROR_CLASSES, HTTP_METHODS } from '../domain/check-kinds.js';
import { HEALTH_CHECK_BOUNDS as BOUNDS, HEALTH_CHECK_DEFAULTS, IMPORTANCES } from '../domain/health.js';

/**
 * Health checks and the health reports (spec/catalogue.md sections 3, 5 and 7; docs/decisions.md#api-conventions and
 * #health-maths). Reports are plain arrays.
 */

/** Spec section 3: seconds in each non-good state during one UTC day. */
export const dailyHealthEntry = z
  .object({
    date: z.string().describe('UTC day, YYYY-MM-DD'),
    critical: z.number().int(),
    error: z.number().int(),
    warning: z.number().int(),
    maintenance: z.number().int(),
  })
  .meta({ id: 'DailyHealth' });
export type DailyHealthEntry = z.infer<typeof dailyHealthEntry>;

const isoTime = z.iso.datetime({ offset: true });

/** A report's time range, ISO times; each bound has a default (see the route). */
export const reportRange = z.strictObject({ from: isoTime.optional(), to: isoTime.optional() });

/** The health a failing check raises its service to (docs/decisions.md#health-maths). */
export const importance = z.enum(IMPORTANCES);

/** One assertion, typed (docs/decisions.md#checks); `assertions_text` is the same list one per line. */
export const assertion = z
  .strictObject({
    source: line().min(1).max(520).describe('status, latency_ms, header:<name>, body, json:<JSONata>, cert.*, ...'),
    op: z.enum(ASSERTION_OPS),
    value: z
      .union([
        z.number(),
        z.boolean(),
        line().max(500),
        z
          .array(z.union([z.number(), line().max(100)]))
          .min(1)
          .max(50),
      ])
      .optional()
      .describe('A number, string or boolean; for `in` a list whose strings `a..b` are ranges'),
    severity: importance.optional().describe("Default: the check's importance"),
  })
  .meta({ id: 'Assertion' });

const headerName = line()
  .min(1)
  .max(100)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Must be a header name');

/** What an http check sends (a tcp check sends `body` once connected). */
export const checkRequest = z
  .strictObject({
    method: z.enum(HTTP_METHODS).default('GET'),
    headers: z
      .record(headerName, line().max(2000))
      .default({})
      .refine((headers) => Object.keys(headers).length <= 30, 'At most 30 headers'),
    body: text().max(20_000).optional(),
  })
  .meta({ id: 'CheckRequest' });

/** Specs that check themselves (docs/decisions.md#spec-checks). */
/** What a check made from a spec names: the spec page (its handle) and the operation. */
export const specLinkInput = z.strictObject({
  page: line().min(1).max(200).describe('The handle of a published OpenAPI spec page of the same service'),
  operation_id: line().min(1).max(300).describe('The operationId, or "METHOD /path" for one without'),
});
export type SpecLinkInput = z.infer<typeof specLinkInput>;

/** What a check made from a spec lost, so that its `schema` assertion has no schema to judge by. */
export const specGone = z.enum(['operation', 'unpublished', 'deleted']);
export type SpecGone = z.infer<typeof specGone>;

export const specLink = z
  .object({
    page: z.string().nullable().describe('The spec page’s handle; null once the page was deleted'),
    operation_id: z.string(),
    method: z.string().nullable(),
    path: z.string().nullable(),
    version: z.string().nullable().describe('The spec’s info.version the check follows'),
    missing: z.boolean().describe('The check has no schema to judge by: its operation or its spec is gone'),
    gone: specGone
      .nullable()
      .describe(
        'What is gone: the operation (the newest version lacks it), or the spec (unpublished, deleted); null: nothing',
      ),
  })
  .meta({ id: 'SpecLink' });
export type SpecLink = z.infer<typeof specLink>;

export const healthCheck = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(CHECK_KINDS),
    /** The target per kind; empty for a heartbeat. */
    endpoint: z.string(),
    /** The runner's handle; null is the shared runner. */
    runner: z.string().nullable(),
    frequency: z.number().int(),
    allowed_failures: z.number().int(),
    importance,
    disabled: z.boolean(),
    paused: z.boolean(),
    timeout: z.number().int(),
    service: z.object({ handle: z.string() }),
    request: checkRequest.nullable(),
    starttls: z.enum(['smtp']).nullable(),
    record: z.enum(DNS_RECORD_TYPES).nullable(),
    assertions: z.array(assertion),
    assertions_text: z.string(),
    retries: z.number().int(),
    recover_after: z.number().int(),
    /** Heartbeats: seconds of slack after the period (or the schedule's time). */
    grace: z.number().int().nullable(),
    schedule: z.string().nullable(),
    time_zone: z.string().nullable(),
    /** Heartbeats, for editors only: the secret URL the job pings. */
    ping_url: z.string().nullable(),
    /**
     * Made from a published OpenAPI spec's operation (docs/decisions.md#spec-checks): its `schema` assertion reads it.
     */
    spec: specLink.nullable(),
  })
  .meta({ id: 'HealthCheck' });
export type HealthCheck = z.infer<typeof healthCheck>;

/** Spec section 5 and 9; docs/decisions.md#health-maths and #checks: frequency and timeout in seconds. */
const fields = {
  name: line().trim().min(1).max(120),
  kind: z.enum(CHECK_KINDS),
  /** Checked per kind by the server (domain/check-targets.ts). */
  endpoint: line().trim().max(2000),
  /** A runner's handle; omitted (or null) is the shared runner. */
  runner: line().min(1).max(64).nullable().optional(),
  frequency: z.number().int().min(BOUNDS.frequency.min).max(BOUNDS.frequency.max),
  timeout: z.number().int().min(BOUNDS.timeout.min).max(BOUNDS.timeout.max),
  allowed_failures: z.number().int().min(BOUNDS.allowed_failures.min).max(BOUNDS.allowed_failures.max),
  importance,
  disabled: z.boolean(),
  paused: z.boolean(),
  request: checkRequest.nullable().optional(),
  starttls: z.enum(['smtp']).nullable().optional(),
  record: z.enum(DNS_RECORD_TYPES).nullable().optional(),
  /** Either, not both; neither: the kind's defaults. */
  assertions: z.array(assertion).max(20).optional(),
  assertions_text: text().max(10_000).optional(),
  retries: z.number().int().min(0).max(1),
  recover_after: z.number().int().min(1).max(10),
  grace: z.number().int().min(0).max(BOUNDS.frequency.max).nullable().optional(),
  schedule: line().min(9).max(100).nullable().optional().describe('Cron, 5 fields'),
  time_zone: line().min(1).max(64).nullable().optional().describe('IANA time zone of the schedule, default UTC'),
  spec: specLinkInput.nullable().optional().describe('http checks: the spec operation it checks; null unlinks'),
};

/** Create: the spec's defaults fill whatever is left out (the app omits disabled, paused and an empty runner). */
export const healthCheckCreate = z.strictObject({
  name: fields.name,
  kind: fields.kind.default('http'),
  endpoint: fields.endpoint.default(''),
  runner: fields.runner,
  frequency: fields.frequency.default(HEALTH_CHECK_DEFAULTS.frequency),
  timeout: fields.timeout.default(HEALTH_CHECK_DEFAULTS.timeout),
  allowed_failures: fields.allowed_failures.default(HEALTH_CHECK_DEFAULTS.allowed_failures),
  importance: importance.default(HEALTH_CHECK_DEFAULTS.importance),
  disabled: fields.disabled.default(false),
  paused: fields.paused.default(false),
  request: fields.request,
  starttls: fields.starttls,
  record: fields.record,
  assertions: fields.assertions,
  assertions_text: fields.assertions_text,
  retries: fields.retries.default(0),
  recover_after: fields.recover_after.default(1),
  grace: fields.grace,
  schedule: fields.schedule,
  time_zone: fields.time_zone,
  spec: fields.spec,
});
export type HealthCheckCreate = z.infer<typeof healthCheckCreate>;

/**
 * PATCH takes the spec's full body (spec section 7); the runner may be left out (the shared runner), and the
 * fields check kinds added (docs/decisions.md#checks) keep their values when left out, so a client that knows only the
 * spec's fields keeps working.
 */
export const healthCheckUpdate = z.strictObject({
  ...fields,
  kind: fields.kind.optional(),
  endpoint: fields.endpoint,
  retries: fields.retries.optional(),
  recover_after: fields.recover_after.optional(),
});
export type HealthCheckUpdate = z.infer<typeof healthCheckUpdate>;

/** One run of a check, saved nowhere: what "Test" answers. */
export const healthCheckTest = healthCheckCreate;

/** Aggregates report query: a range and a bucket size (docs/api.md#health-check-reports). */
export const aggregateReportQuery = z.strictObject({
  from: isoTime.optional(),
  to: isoTime.optional(),
  bucket: z.enum(['minute', 'hour', 'day']).default('hour'),
});

/** One bucket of a check's results: probes, failures and the latency (ms) of the successful ones. */
export const healthCheckAggregate = z
  .object({
    /** The bucket's start, ISO time. */
    time: z.string(),
    probes: z.number().int(),
    failures: z.number().int(),
    p50: z.number().int().nullable(),
    p95: z.number().int().nullable(),
    max: z.number().int().nullable(),
  })
  .meta({ id: 'HealthCheckAggregate' });

export const assertionResult = z
  .object({
    source: z.string(),
    op: z.enum(ASSERTION_OPS),
    expected: z.string(),
    /** What was seen, at most 200 characters; null: missing. */
    actual: z.string().nullable(),
    pass: z.boolean(),
    severity: importance,
  })
  .meta({ id: 'AssertionResult' });

export const resultError = z.object({ class: z.enum(ERROR_CLASSES), message: z.string() }).meta({ id: 'ResultError' });

export const healthCheckResult = z
  .object({
    /** Duration in ms. */
    time: z.number().int(),
    /** When the check started, ISO time. */
    start: z.string(),
    success: z.boolean(),
    status: z.number().int().optional(),
    latency_ms: z.number().int().optional(),
    error: resultError.optional(),
    assertions: z.array(assertionResult).optional(),
    cert: z
      .object({ days_left: z.number().int(), not_after: z.string(), subject: z.string(), issuer: z.string() })
      .optional(),
    /** The worst failing assertion's severity; absent on success. */
    severity: importance.optional(),
  })
  .meta({ id: 'HealthCheckResult' });
export type HealthCheckResult = z.infer<typeof healthCheckResult>;

export const healthCheckParams = z.strictObject({ id: line().min(1).max(64) });

/** A ping URL's token: 256 random bits, base64url. */
export const heartbeatParams = z.strictObject({
  // The length inside the pattern: one rule, which generators of valid inputs (the fuzzer) can follow.
  token: line().regex(/^[A-Za-z0-9_-]{20,100}$/),
});
export const heartbeatQuery = z.strictObject({ exit_code: z.coerce.number().int().min(0).max(255).optional() });
