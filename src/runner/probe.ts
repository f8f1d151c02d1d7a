import { performance } from 'node:perf_hooks';
import { Agent, type Dispatcher } from 'undici';
import { HEALTH_CHECK_BOUNDS } from '../domain/health.js';
import { createGuardedAgent, RefusedAddressError } from './guarded-agent.js';

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

export const ONLY_HTTP_ERROR = 'Only http and https endpoints can be checked';
/** Redirects followed (same host only) before the probe gives up. */
export const MAX_REDIRECTS = 3;
/** Bytes of a response body read (and discarded) before the rest is dropped. */
export const BODY_CAP_BYTES = 64 * 1024;

const REQUEST_HEADERS = { 'user-agent': 'Beacon-HealthCheck/1.0', accept: '*/*' };

let guardedAgent: Agent | undefined;
let openAgent: Agent | undefined;

/** The agent probes use by default, one per mode for the life of the process, so keep-alive connections are reused. */
function sharedAgent(allowPrivate: boolean): Agent {
  if (allowPrivate) return (openAgent ??= new Agent({ headersTimeout: 60_000, bodyTimeout: 60_000 }));
  return (guardedAgent ??= createGuardedAgent());
}

/** Closes the shared agents (graceful shutdown); later probes open new ones. */
export async function closeSharedAgents(): Promise<void> {
  const agents = [guardedAgent, openAgent];
  guardedAgent = openAgent = undefined;
  await Promise.all(agents.map((agent) => agent?.close()));
}

/**
 * Sends one health-check GET. The timeout covers the whole exchange (connect, redirects, headers and body);
 * success is a 2xx or an unfollowed 3xx. Redirects are followed to the same host only, at most MAX_REDIRECTS.
 * Never throws: every failure is `success: false` with an error saying why.
 */
export async function probe(check: ProbeCheck, options: ProbeOptions): Promise<ProbeResult> {
  const start = Date.now();
  const startedAt = performance.now();
  const finish = (outcome: Outcome): ProbeResult => ({
    start,
    time: Math.round(performance.now() - startedAt),
    ...outcome,
  });

  let url: URL;
  try {
    url = new URL(check.endpoint);
  } catch {
    return finish({ success: false, error: 'The endpoint is not a valid URL' });
  }
  if (!isHttp(url)) return finish({ success: false, error: ONLY_HTTP_ERROR });

  const timeoutSeconds = clampTimeout(check.timeoutSeconds);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('probe timed out')), timeoutSeconds * 1000);
  const seen: { status?: number } = {};
  try {
    const dispatcher = options.dispatcher ?? sharedAgent(options.allowPrivate);
    return finish(await exchange(url, dispatcher, controller.signal, seen));
  } catch (error) {
    const message = controller.signal.aborted ? `Timed out after ${timeoutSeconds} s` : describeError(error, url);
    return finish({ success: false, ...seen, error: message });
  } finally {
    clearTimeout(timer);
  }
}

type Outcome = Omit<ProbeResult, 'start' | 'time'>;

async function exchange(
  url: URL,
  dispatcher: Dispatcher,
  signal: AbortSignal,
  seen: { status?: number },
): Promise<Outcome> {
  let target = url;
  for (let redirects = 0; ; redirects++) {
    const response = await dispatcher.request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: 'GET',
      headers: REQUEST_HEADERS,
      signal,
    });
    const status = response.statusCode;
    seen.status = status;
    await discardBody(response.body);

    if (status >= 200 && status < 300) return { success: true, status };
    if (status < 300 || status >= 400) return { success: false, status, error: `HTTP status ${status}` };

    const location = firstHeader(response.headers.location);
    if (!location) return { success: true, status };
    let next: URL;
    try {
      next = new URL(location, target);
    } catch {
      return { success: false, status, error: 'Redirected to an invalid location' };
    }
    if (!isHttp(next))
      return { success: false, status, error: `Redirected to an unsupported scheme (${next.protocol})` };
    if (next.hostname !== url.hostname) {
      return { success: false, status, error: `Redirected to another host (${next.hostname}); not followed` };
    }
    if (redirects >= MAX_REDIRECTS) {
      return { success: false, status, error: `Too many redirects (more than ${MAX_REDIRECTS})` };
    }
    target = next;
  }
}

/** Reads the body up to BODY_CAP_BYTES and drops the rest; leaving the loop early destroys the stream. */
async function discardBody(body: Dispatcher.ResponseData['body']): Promise<void> {
  let read = 0;
  for await (const chunk of body) {
    read += (chunk as Buffer).length;
    if (read >= BODY_CAP_BYTES) break;
  }
}

function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

function clampTimeout(seconds: number): number {
  const { min, max } = HEALTH_CHECK_BOUNDS.timeout;
  if (!Number.isFinite(seconds)) return min;
  return Math.min(max, Math.max(min, seconds));
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const TLS_CODES = /^(ERR_TLS_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_|ERR_SSL_)/;

function describeError(error: unknown, url: URL): string {
  if (error instanceof RefusedAddressError) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
      return `Could not resolve ${url.hostname}`;
    case 'ECONNREFUSED':
      return 'Connection refused';
    case 'ECONNRESET':
      return 'Connection reset by the server';
    case 'UND_ERR_SOCKET':
      return 'Connection closed by the server';
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return 'Timed out connecting';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'Host unreachable';
  }
  if (typeof code === 'string' && TLS_CODES.test(code)) return `TLS error: ${message}`;
  return message || 'The probe failed';
}
