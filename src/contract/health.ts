import { z } from 'zod';
import { httpUrl, line } from './common.js';
import { HEALTH_CHECK_BOUNDS as BOUNDS, HEALTH_CHECK_DEFAULTS, IMPORTANCES } from '../domain/health.js';

/**
 * Health checks and the health reports (spec/catalogue.md sections 3, 5 and 7; DESIGN.md 4a and 5). Reports
 * are plain arrays.
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

/** The health a failing check raises its service to (DESIGN.md 5). */
export const importance = z.enum(IMPORTANCES);

export const healthCheck = z
  .object({
    id: z.string(),
    name: z.string(),
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
  })
  .meta({ id: 'HealthCheck' });
export type HealthCheck = z.infer<typeof healthCheck>;

/** Spec section 5 and 9; DESIGN.md 5: frequency and timeout in seconds. */
const fields = {
  name: line().trim().min(1).max(120),
  endpoint: httpUrl().max(2000),
  /** A runner's handle; omitted (or null) is the shared runner. */
  runner: line().min(1).max(64).nullable().optional(),
  frequency: z.number().int().min(BOUNDS.frequency.min).max(BOUNDS.frequency.max),
  timeout: z.number().int().min(BOUNDS.timeout.min).max(BOUNDS.timeout.max),
  allowed_failures: z.number().int().min(BOUNDS.allowed_failures.min).max(BOUNDS.allowed_failures.max),
  importance,
  disabled: z.boolean(),
  paused: z.boolean(),
};

/** Create: the spec's defaults fill whatever is left out (the app omits disabled, paused and an empty runner). */
export const healthCheckCreate = z.strictObject({
  name: fields.name,
  endpoint: fields.endpoint,
  runner: fields.runner,
  frequency: fields.frequency.default(HEALTH_CHECK_DEFAULTS.frequency),
  timeout: fields.timeout.default(HEALTH_CHECK_DEFAULTS.timeout),
  allowed_failures: fields.allowed_failures.default(HEALTH_CHECK_DEFAULTS.allowed_failures),
  importance: importance.default(HEALTH_CHECK_DEFAULTS.importance),
  disabled: fields.disabled.default(false),
  paused: fields.paused.default(false),
});
export type HealthCheckCreate = z.infer<typeof healthCheckCreate>;

/** PATCH takes the full body (spec section 7); only the runner may be left out (the shared runner). */
export const healthCheckUpdate = z.strictObject(fields);
export type HealthCheckUpdate = z.infer<typeof healthCheckUpdate>;

/** Aggregates report query: a range and a bucket size (DESIGN.md 4a). */
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

export const healthCheckResult = z
  .object({
    /** Duration in ms. */
    time: z.number().int(),
    /** When the check started, ISO time. */
    start: z.string(),
    success: z.boolean(),
    status: z.number().int().optional(),
    error: z.string().optional(),
  })
  .meta({ id: 'HealthCheckResult' });
export type HealthCheckResult = z.infer<typeof healthCheckResult>;

export const healthCheckParams = z.strictObject({ id: line().min(1).max(64) });
