/**
 * The probe engine of every probing kind (DESIGN.md 12), the same for the shared runner, team runners and the
 * "Test" action: it observes, it never judges. What it saw goes to the assertions (an HTTP 500 is an observation
 * here, a failure only when an assertion says so); only a probe that could not observe at all carries an error.
 */
import type { Observation, ProbeSpec } from '../domain/check-kinds.js';
import { observeDns } from './observe-dns.js';
import { observeDomain } from './observe-domain.js';
import { observeHttp } from './observe-http.js';
import { stopwatch, type ObserveOptions } from './observe-support.js';
import { observeTcp } from './observe-tcp.js';
import { observeTls } from './observe-tls.js';

export type { ObserveOptions } from './observe-support.js';

/**
 * Probes `spec` once, within its timeout. Never throws: a failure is `connected: false` (for dns and domain, no
 * answer) with `error: { class, message }`; latency_ms is always set.
 */
export async function observe(spec: ProbeSpec, options: ObserveOptions): Promise<Observation> {
  const elapsed = stopwatch();
  try {
    switch (spec.kind) {
      case 'http':
        return await observeHttp(spec, options);
      case 'tcp':
        return await observeTcp(spec, options);
      case 'tls':
        return await observeTls(spec, options);
      case 'dns':
        return await observeDns(spec, options);
      case 'domain':
        return await observeDomain(spec, options);
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
  } catch (error) {
    // Each kind catches its own failures; this only keeps a bug from failing the runner.
    const message = error instanceof Error ? error.message : String(error);
    return {
      connected: false,
      latency_ms: elapsed(),
      error: { class: 'protocol', message: message || 'The probe failed' },
    };
  }
}
