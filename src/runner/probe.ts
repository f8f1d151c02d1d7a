import type { Dispatcher } from 'undici';
import type { Observation } from '../domain/check-kinds.js';
import { observeHttp } from './observe-http.js';

export { closeSharedAgents, MAX_REDIRECTS, ONLY_HTTP_ERROR } from './observe-http.js';
export { BODY_CAP_BYTES } from './observe-support.js';

/** What a probe needs of a health check (catalogue spec section 3: endpoint, timeout in seconds, within bounds). */
export interface ProbeCheck {
  endpoint: string;
  timeoutSeconds: number;
}

export interface ProbeOptions {
  /**
   * False for the shared runner unless the operator set BEACON_ALLOW_PRIVATE_TARGETS=1: connections then go
   * through the guarded agent. True for team runners, which run inside their owners' networks.
   */
  allowPrivate: boolean;
  /**
   * Overrides the shared agent (tests, or a runner with its own agent). It replaces the guard too: with
   * allowPrivate false, pass an agent from createGuardedAgent().
   */
  dispatcher?: Dispatcher;
}

/** One health-check result (catalogue spec section 3: results have time, start, success). */
export interface ProbeResult {
  /** When the probe started, epoch ms. */
  start: number;
  /** How long the whole exchange took, ms. */
  time: number;
  success: boolean;
  /** The status of the last response received, when there was one. */
  status?: number;
  /** Why the probe failed, for people to read. */
  error?: string;
}

/**
 * Sends one health-check GET and judges it the way checks without assertions always were: success is a 2xx or an
 * unfollowed 3xx. The observation itself is observeHttp's (same timeout, redirect rules and guard).
 * Never throws: every failure is `success: false` with an error saying why.
 */
export async function probe(check: ProbeCheck, options: ProbeOptions): Promise<ProbeResult> {
  const start = Date.now();
  const seen = await observeHttp(
    { kind: 'http', endpoint: check.endpoint, timeoutSeconds: check.timeoutSeconds },
    { allowPrivate: options.allowPrivate, dispatcher: options.dispatcher },
  );
  return { start, time: seen.latency_ms, ...judge(seen) };
}

function judge(seen: Observation): Omit<ProbeResult, 'start' | 'time'> {
  const { status, error } = seen;
  const withStatus = status === undefined ? {} : { status };
  if (error) return { success: false, ...withStatus, error: error.message };
  if (status !== undefined && status >= 200 && status < 400) return { success: true, status };
  return { success: false, ...withStatus, error: `HTTP status ${status}` };
}
