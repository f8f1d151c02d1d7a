/**
 * The probe engine of every probing kind (docs/decisions.md#checks), the same for the shared runner, team runners and
 * the "Test" action: it observes, it never judges. What it saw goes to the assertions (an HTTP 500 is an observation
 * here, a failure only when an assertion says so); only a probe that could not observe at all carries an error.
 */
import type { Observation, ProbeSpec } from '../domain/check-kinds.js';
import { observeDns } from './observe-dns.js';
import { observeDomain } from './observe-domain.js';
import { observeHttp } from './observe-http.js';
import { abortable, clampTimeout, stopwatch, type ObserveOptions } from './observe-support.js';
import { observeTcp } from './observe-tcp.js';
import { observeTls } from './observe-tls.js';

export type { ObserveOptions } from './observe-support.js';

/**
 * Probes `spec` once, within its timeout. Never throws: a failure is `connected: false` (for dns and domain, no
 * answer) with `error: { class, message }`; latency_ms is always set.
 */
export async function observe(spec: ProbeSpec, options: ObserveOptions): Promise<Observation> {
  const elapsed = stopwatch();
  // Each kind ends by its own deadline; this bound (a second past it) only keeps a bug from stalling the check,
  // which never runs again while a run of it is in flight.
  const seconds = clampTimeout(spec.timeoutSeconds);
  const hardStop = new AbortController();
  const timer = setTimeout(() => hardStop.abort(new Error('probe stalled')), (seconds + 1) * 1000);
  try {
    return await abortable(observeKind(spec, options, elapsed), hardStop.signal);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      connected: false,
      latency_ms: elapsed(),
      error: hardStop.signal.aborted
        ? { class: 'timeout', message: `Timed out after ${seconds} s` }
        : { class: 'protocol', message: message || 'The probe failed' },
    };
  } finally {
    clearTimeout(timer);
  }
}

async function observeKind(spec: ProbeSpec, options: ObserveOptions, elapsed: () => number): Promise<Observation> {
  switch (spec.kind) {
    case 'http':
      return observeHttp(spec, options);
    case 'tcp':
      return observeTcp(spec, options);
    case 'tls':
      return observeTls(spec, options);
    case 'dns':
      return observeDns(spec, options);
    case 'domain':
      return observeDomain(spec, options);
    default:
      return {
        connected: false,
        latency_ms: elapsed(),
        error: {
          class: 'protocol',
          message: `Checks of kind ${String((spec as { kind: unknown }).kind)} are not probed`,
        },
      };
  }
}
