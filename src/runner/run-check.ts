/**
 * One run of a check, the same for the shared runner, a team runner and the "Test" button (docs/decisions.md#checks):
 * the kind's probe observes (a network error tried again within the run when `retries` says so), the assertions
 * judge what it saw, and the run says why it failed: the probe's error, else the first failing assertion with
 * its actual value. The check's outcome is the worst failing assertion's severity.
 */
import type { Assertion, CheckRun, Observation, ProbeSpec } from '../domain/check-kinds.js';
import type { Importance } from '../domain/health.js';
import {
  changedValues,
  compileAssertions,
  evaluate,
  worstSeverity,
  type CompiledAssertions,
  type EvaluateOptions,
} from './assertions.js';
import { observe, type ObserveOptions } from './observe.js';

export interface RunnableCheck {
  spec: ProbeSpec;
  assertions: CompiledAssertions;
  importance: Importance;
  /** 0 or 1: how many times a network error is tried again within the run. */
  retries: number;
  /** A check made from a spec: validates a body against its operation's response schema (`schema`). */
  schema?: EvaluateOptions['schema'];
}

/** A check ready to run many times: its assertions compiled once (JSONata and regexes). */
export function runnableCheck(
  spec: ProbeSpec,
  assertions: Assertion[],
  importance: Importance,
  retries: number,
  schema?: EvaluateOptions['schema'],
): RunnableCheck {
  return { spec, assertions: compileAssertions(assertions), importance, retries, ...(schema ? { schema } : {}) };
}

/** Errors worth a second try within the run: the network (a connection dropped before answering too), not the answer. */
const RETRIED = new Set(['dns', 'refused', 'timeout']);

/** The values `changed` assertions compare the next run with, by source (assertions.ts changedValues). */
export type SeenValues = Record<string, string | null>;

export interface RunOutcome {
  run: CheckRun;
  seen: SeenValues;
}

/** Runs `check` once; `previous` is what the last run saw (for `changed`). Never throws. */
export async function runCheck(
  check: RunnableCheck,
  options: ObserveOptions,
  previous?: SeenValues,
): Promise<RunOutcome> {
  const start = Date.now();
  let observation: Observation = await observe(check.spec, options);
  for (let retry = 0; retry < check.retries && observation.error && RETRIED.has(observation.error.class); retry++)
    observation = await observe(check.spec, options);
  const assertions = await evaluate(check.assertions, observation, {
    importance: check.importance,
    ...(previous ? { previous } : {}),
    ...(check.schema ? { schema: check.schema } : {}),
  });
  const failed = assertions.filter((assertion) => !assertion.pass);
  const seen = changedValues(assertions, previous);
  const firstFailed = failed[0];
  const error =
    observation.error ??
    (firstFailed && {
      class: 'assertion' as const,
      message: `${firstFailed.source} ${firstFailed.op} ${firstFailed.expected}: got ${firstFailed.actual ?? 'missing'}`,
    });
  const severity = observation.error ? check.importance : worstSeverity(assertions);
  const run: CheckRun = {
    start,
    time: observation.latency_ms,
    success: !error,
    latency_ms: observation.latency_ms,
    ...(observation.status !== undefined ? { status: observation.status } : {}),
    ...(error ? { error } : {}),
    ...(assertions.length > 0 ? { assertions } : {}),
    ...(observation.cert
      ? {
          cert: {
            days_left: observation.cert.days_left,
            not_after: observation.cert.not_after,
            subject: observation.cert.subject,
            issuer: observation.cert.issuer,
          },
        }
      : {}),
    ...(error && severity ? { severity } : {}),
  };
  return { run, seen };
}
