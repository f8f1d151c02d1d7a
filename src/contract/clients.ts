import { z } from 'zod';
import { line, text } from './common.js';
import { CLIENT_SCOPES } from '../domain/scopes.js';
import { IMPORTANCES, RUNNER_RESULTS_MAX } from '../domain/health.js';
import {
  ASSERTION_ACTUAL_MAX,
  ASSERTION_OPS,
  CHECK_KINDS,
  DNS_RECORD_TYPES,
  ERROR_CLASSES,
} from '../domain/check-kinds.js';
import { assertion, checkRequest } from './health.js';

/**
 * Team API clients and team runners (spec/catalogue.md sections 3, 5 and 7), and the runner agent's protocol
 * (`beacon runner`, docs/api.md#api-clients-and-team-runners).
 */

const handle = line().min(1).max(64);
const name = line().trim().min(1).max(120);
const description = text().trim().min(1).max(2000);

export const clientScope = z.enum(CLIENT_SCOPES);

export const client = z
  .object({
    id: z.string(),
    handle: z.string(),
    name: z.string(),
    description: z.string(),
    scopes: z.array(clientScope),
    client_id: z.string(),
    /** Only in the answers to create and update-secret: it is stored hashed and cannot be read again. */
    client_secret: z.string().optional(),
    team: z.object({ id: z.string(), handle: z.string() }),
    /**
     * Why the client may not have tokens, or null: it held a workspace-wide scope (`beacon.catalog.manage`) that no
     * workspace admin or owner granted, or its granter is no longer one. A workspace admin setting its scopes, or
     * a team admin setting them without such a scope, enables it again.
     */
    disabled_reason: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Client' });
export type Client = z.infer<typeof client>;

const scopes = z
  .array(clientScope)
  .min(1, 'Pick at least one scope')
  .max(CLIENT_SCOPES.length)
  .refine((list) => new Set(list).size === list.length, 'Each scope once');

/** Spec 5: name, description and at least one scope; the handle is made from the name when left out. */
export const clientCreate = z.strictObject({ name, description, scopes, handle: handle.optional() });
export type ClientCreate = z.infer<typeof clientCreate>;
export const clientUpdate = z.strictObject({
  name: name.optional(),
  description: description.optional(),
  scopes: scopes.optional(),
});
export type ClientUpdate = z.infer<typeof clientUpdate>;
export const clientParams = z.strictObject({ team: handle, client: handle });

export const syncStatus = z.enum(['never', 'ok', 'error']);

export const runner = z
  .object({
    id: z.string(),
    handle: z.string(),
    name: z.string(),
    description: z.string(),
    sync_status: syncStatus,
    /** ISO time of the agent's latest sync, null before the first. */
    last_sync: z.string().nullable(),
    team: z.object({ id: z.string(), handle: z.string() }),
  })
  .meta({ id: 'Runner' });
export type Runner = z.infer<typeof runner>;

/** Spec 5: name and description required; the handle (unique in the workspace) is made from the name when left out. */
export const runnerCreate = z.strictObject({ name, description, handle: handle.optional() });
export type RunnerCreate = z.infer<typeof runnerCreate>;
export const runnerUpdate = z.strictObject({ name, description });
export type RunnerUpdate = z.infer<typeof runnerUpdate>;
export const teamRunnerParams = z.strictObject({ team: handle, runner: handle });
export const runnerParams = z.strictObject({ runner: handle });

/** What the agent reports at a sync: the error it last ran into, if any (shown as the runner's status). */
export const runnerSyncRequest = z.strictObject({ error: text().max(2000).nullable().optional() });
export type RunnerSyncRequest = z.infer<typeof runnerSyncRequest>;

export const runnerCheck = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(CHECK_KINDS),
    endpoint: z.string(),
    /** Seconds between runs. */
    frequency: z.number().int(),
    /** Seconds. */
    timeout: z.number().int(),
    importance: z.enum(IMPORTANCES),
    request: checkRequest.nullable(),
    starttls: z.enum(['smtp']).nullable(),
    record: z.enum(DNS_RECORD_TYPES).nullable(),
    /** The assertions to judge each run by (the kind's defaults when the check has none of its own). */
    assertions: z.array(assertion),
    /** A network error is tried again this many times within the run (0 or 1). */
    retries: z.number().int(),
    /**
     * A check made from a spec (docs/decisions.md#spec-checks): the published document and the operation, for `schema`.
     */
    spec: z
      .object({ operation_id: z.string(), document: z.record(z.string(), z.unknown()) })
      .nullable()
      .optional(),
  })
  .meta({ id: 'RunnerCheck' });
export type RunnerCheck = z.infer<typeof runnerCheck>;

export const runnerSync = z
  .object({
    runner: z.object({ handle: z.string(), name: z.string() }),
    /** The enabled, unpaused checks assigned to this runner: the agent runs exactly these until its next sync. */
    checks: z.array(runnerCheck),
  })
  .meta({ id: 'RunnerSync' });
export type RunnerSync = z.infer<typeof runnerSync>;

export const runnerResult = z.strictObject({
  check_id: line().min(1).max(64),
  /** When the probe started, ISO time. */
  start: z.iso.datetime({ offset: true }),
  /** Duration in ms. */
  time: z.number().int().min(0).max(3_600_000),
  success: z.boolean(),
  status: z.number().int().min(100).max(599).optional(),
  /** Why it failed; text from agents older than check kinds (issue 26). */
  error: z
    .union([text().max(2000), z.strictObject({ class: z.enum(ERROR_CLASSES), message: text().max(2000) })])
    .optional(),
  latency_ms: z.number().int().min(0).max(3_600_000).optional(),
  assertions: z
    .array(
      z.strictObject({
        source: line().max(520),
        op: z.enum(ASSERTION_OPS),
        expected: text().max(1000),
        actual: text()
          .max(ASSERTION_ACTUAL_MAX + 1)
          .nullable(),
        pass: z.boolean(),
        severity: z.enum(IMPORTANCES),
      }),
    )
    .max(20)
    .optional(),
  cert: z
    .strictObject({
      days_left: z.number().int(),
      not_after: line().max(40),
      subject: line().max(1000),
      issuer: line().max(1000),
    })
    .optional(),
  severity: z.enum(IMPORTANCES).optional(),
});
export type RunnerResultInput = z.infer<typeof runnerResult>;

export const runnerResults = z.strictObject({ results: z.array(runnerResult).min(1).max(RUNNER_RESULTS_MAX) });
export type RunnerResults = z.infer<typeof runnerResults>;

export const runnerResultsAccepted = z.object({
  accepted: z.number().int(),
  /** Check ids of results not written: the check is gone or no longer this runner's. */
  dropped: z.array(z.string()),
});
export type RunnerResultsAccepted = z.infer<typeof runnerResultsAccepted>;
