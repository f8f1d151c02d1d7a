/**
 * The team runner agent (`beacon runner`, docs/api.md#api-clients-and-team-runners): runs inside a team's own network
 * and probes the health checks assigned to its runner, private targets included. It speaks only the public API:
 *
 * 1. POST /api/token, grant_type=client_credentials, for a client of the runner's team (renewed before expiry,
 *    and at once after a 401);
 * 2. POST /api/runners/{runner}/actions/sync every `syncSeconds`: the checks to run (id, endpoint, frequency and
 *    timeout in seconds); it reports the last error it ran into, which the server shows as the runner's status;
 * 3. probes each check at its frequency, never overlapping itself (CheckScheduler), with the probe engine;
 * 4. POST /api/runners/{runner}/results every `flushMs` with what finished meanwhile (kept and retried while the
 *    server cannot be reached).
 */
import { isIP } from 'node:net';
import { Agent, fetch } from 'undici';
import { localhostAwareLookup } from './localhost-lookup.js';
import { RUNNER_RESULTS_MAX } from '../domain/health.js';
import type { ProbeSpec } from '../domain/check-kinds.js';
// Type-only: the agent speaks the API's wire types but ships none of the contract's code (eslint.boundaries.js).
import type { TokenResponse } from '../contract/accounts.js';
import type {
  RunnerCheck,
  RunnerResultInput,
  RunnerResultsAccepted,
  RunnerSync,
  RunnerSyncRequest,
} from '../contract/clients.js';
import { startProbeLoop, type ProbeLoop } from './probe-loop.js';
import { specSchemas, type SpecSchemas } from './response-schemas.js';
import { runCheck, runnableCheck, type RunnableCheck, type RunOutcome, type SeenValues } from './run-check.js';
import { CheckScheduler } from './schedule.js';

export interface RunnerAgentOptions {
  /** The workspace's origin, e.g. https://acme.beacon.example (names under .localhost resolve to loopback). */
  url: string;
  clientId: string;
  clientSecret: string;
  /** The runner's handle. */
  runner: string;
  /** Seconds between syncs (default 30). */
  syncSeconds?: number;
  /** Milliseconds between result posts (default 1000). */
  flushMs?: number;
  /** Where the agent says what it does (default: nothing). */
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

export interface RunnerAgent {
  /** Resolves after the first sync succeeded (rejects if it failed: bad URL, credentials or runner). */
  ready: Promise<void>;
  /** Stops syncing and scheduling, waits for probes in flight, posts what is left, and closes connections. */
  stop(): Promise<void>;
}

/**
 * A check as the sync answers it and a result as the API takes it: the runner API's own types (src/contract). The
 * sync never lists a heartbeat (the server looks at its pings itself), so every check it sends is probed.
 */
type AgentCheck = Omit<RunnerCheck, 'kind'> & { kind: ProbeSpec['kind'] };
type AgentSync = Omit<RunnerSync, 'checks'> & { checks: AgentCheck[] };
type AgentResult = RunnerResultInput;

/** What the scheduler holds per check: the check as synced, made runnable once per version of it. */
interface ScheduledAgentCheck {
  id: string;
  frequencySeconds: number;
  check: AgentCheck;
  /** The synced definition it was made from, to know when it changed. */
  version: string;
  runnable: RunnableCheck;
}

/** Compiled specs by their text: the checks of one spec share one compiler, and a new version gets its own. */
const compiledSpecs = new Map<string, SpecSchemas>();
const COMPILED_SPECS_KEPT = 50;

function schemasOf(document: Record<string, unknown>): SpecSchemas {
  const key = JSON.stringify(document);
  let schemas = compiledSpecs.get(key);
  if (!schemas) {
    schemas = specSchemas(document);
    compiledSpecs.set(key, schemas);
    if (compiledSpecs.size > COMPILED_SPECS_KEPT) compiledSpecs.delete(compiledSpecs.keys().next().value!);
  }
  return schemas;
}

function runnableOf(check: AgentCheck): RunnableCheck {
  const spec: ProbeSpec = {
    kind: check.kind,
    endpoint: check.endpoint,
    timeoutSeconds: check.timeout,
    ...(check.request ? { request: check.request } : {}),
    ...(check.starttls ? { starttls: check.starttls } : {}),
    ...(check.record ? { record: check.record } : {}),
  };
  // A check made from a spec validates answers against the document it came with, compiled once per version.
  const schema = check.spec ? schemasOf(check.spec.document).validator(check.spec.operation_id) : null;
  return runnableCheck(spec, check.assertions, check.importance, check.retries, schema ?? undefined);
}

/** Results kept at most while the server cannot be reached (posted RUNNER_RESULTS_MAX at a time). */
const BUFFER_MAX = 50_000;
/** A token is renewed when less than this share of its life is left. */
const RENEW_SHARE = 0.2;

class AgentHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function startRunnerAgent(options: RunnerAgentOptions): RunnerAgent {
  const base = new URL(options.url);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('--url must be an http(s) URL');
  if (isIP(base.hostname)) {
    // The workspace is read from the host name: an address cannot name one.
    throw new Error('--url must name the workspace host (e.g. https://acme.beacon.example), not an IP address');
  }
  const syncMs = Math.max(1, options.syncSeconds ?? 30) * 1000;
  const flushMs = options.flushMs ?? 1000;
  const log = options.log ?? (() => undefined);
  const runnerPath = `/api/runners/${encodeURIComponent(options.runner)}`;
  const api = new Agent({ connect: { lookup: localhostAwareLookup }, keepAliveTimeout: 10_000 });

  const scheduler = new CheckScheduler<ScheduledAgentCheck>();
  /** Each check's assertion values at its last run, for `changed`. */
  const seen = new Map<string, SeenValues>();
  let buffer: AgentResult[] = [];
  let token: { value: string; renewAt: number } | undefined;
  let tokenRequest: Promise<string> | undefined;
  let lastError: string | null = null;
  let stopped = false;
  let syncing: Promise<void> | undefined;
  let flushing: Promise<void> | undefined;
  const timers: NodeJS.Timeout[] = [];

  const fail = (message: string) => {
    lastError = message;
    log('warn', message);
  };

  const send = async (path: string, init: { method: string; body?: unknown; token?: string }) => {
    const response = await fetch(new URL(path, base), {
      method: init.method,
      dispatcher: api,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: reported by status below
    }
    if (!response.ok) {
      const message = (json as { message?: string } | undefined)?.message ?? response.statusText;
      throw new AgentHttpError(response.status, `${init.method} ${path}: ${response.status} ${message}`);
    }
    return json;
  };

  const accessToken = (): Promise<string> => {
    if (token && Date.now() < token.renewAt) return Promise.resolve(token.value);
    return (tokenRequest ??= (async () => {
      const answer = (await send('/api/token', {
        method: 'POST',
        body: {
          grant_type: 'client_credentials',
          client_id: options.clientId,
          client_secret: options.clientSecret,
        },
      })) as TokenResponse;
      token = {
        value: answer.access_token,
        renewAt: Date.now() + answer.expires_in * 1000 * (1 - RENEW_SHARE),
      };
      return token.value;
    })().finally(() => {
      tokenRequest = undefined;
    }));
  };

  /** An API call with the token; after a 401 (token revoked or expired early) once more with a new token. */
  const call = async (path: string, body: unknown) => {
    try {
      return await send(path, { method: 'POST', body, token: await accessToken() });
    } catch (error) {
      if (!(error instanceof AgentHttpError) || error.status !== 401) throw error;
      token = undefined;
      return send(path, { method: 'POST', body, token: await accessToken() });
    }
  };

  const sync = () =>
    (syncing ??= (async () => {
      const answer = (await call(`${runnerPath}/actions/sync`, {
        error: lastError,
      } satisfies RunnerSyncRequest)) as AgentSync;
      lastError = null;
      scheduler.update(
        answer.checks.map((check) => {
          const version = JSON.stringify(check);
          const current = scheduler.get(check.id)?.check;
          const runnable = current?.version === version ? current.runnable : runnableOf(check);
          return { id: check.id, frequencySeconds: check.frequency, check, version, runnable };
        }),
        Date.now(),
      );
      log('info', `synced: ${answer.checks.length} check(s)`);
    })().finally(() => {
      syncing = undefined;
    }));

  const record = (check: AgentCheck, { run, seen: values }: RunOutcome) => {
    seen.set(check.id, values);
    buffer.push({
      ...run,
      check_id: check.id,
      start: new Date(run.start).toISOString(),
      ...(run.error ? { error: { class: run.error.class, message: run.error.message.slice(0, 2000) } } : {}),
    });
    // While the server is unreachable the oldest results give way.
    if (buffer.length > BUFFER_MAX) buffer = buffer.slice(buffer.length - BUFFER_MAX);
  };

  const flush = () =>
    (flushing ??= (async () => {
      while (buffer.length > 0) {
        const batch = buffer.slice(0, RUNNER_RESULTS_MAX);
        try {
          const answer = (await call(`${runnerPath}/results`, { results: batch })) as RunnerResultsAccepted;
          buffer = buffer.slice(batch.length);
          if (answer.dropped.length > 0) log('info', `results dropped for checks ${answer.dropped.join(', ')}`);
        } catch (error) {
          if (error instanceof AgentHttpError && error.status === 400) {
            // The server will never take this batch: drop it rather than retry for ever.
            buffer = buffer.slice(batch.length);
            fail(`results refused: ${error.message}`);
            continue;
          }
          fail(`could not send results: ${error instanceof Error ? error.message : String(error)}`);
          return;
        }
      }
    })().finally(() => {
      flushing = undefined;
    }));

  const every = (ms: number, fn: () => Promise<unknown>) => {
    const timer = setInterval(() => {
      if (!stopped) void fn().catch(() => undefined);
    }, ms);
    timers.push(timer);
  };

  let loop: ProbeLoop | undefined;
  const ready = sync().then(() => {
    if (stopped) return;
    loop = startProbeLoop<ScheduledAgentCheck, RunOutcome>({
      scheduler,
      // Team runners run inside their owners' networks and may probe private targets (docs/decisions.md#address-guard).
      run: ({ id, runnable }) => runCheck(runnable, { allowPrivate: true }, seen.get(id)),
      onResult: ({ check }, outcome) => record(check, outcome),
      onError: ({ check }, error) => log('error', `check ${check.id} failed to run: ${String(error)}`),
    });
    every(syncMs, () =>
      sync().catch((error: unknown) => fail(`sync failed: ${error instanceof Error ? error.message : String(error)}`)),
    );
    every(flushMs, flush);
  });

  let stopping: Promise<void> | undefined;
  return {
    ready,
    stop: () =>
      (stopping ??= (async () => {
        stopped = true;
        for (const timer of timers) clearInterval(timer);
        await Promise.allSettled([ready, syncing]);
        await loop?.stop();
        await flushing;
        await flush();
        await api.close();
      })()),
  };
}
