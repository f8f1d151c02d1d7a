/**
 * The http kind's probe (docs/decisions.md#address-guard and #checks): one request with the check's method, headers and
 * body, redirects followed to the same host only, and everything the answer showed (status, headers, body up to a cap,
 * the certificate of an https answer) for the assertions to judge. An HTTP status is not a failure here.
 */
import { buildConnector, type Agent, type Dispatcher } from 'undici';
import type { HttpMethod, Observation, ProbeSpec } from '../domain/check-kinds.js';
import { certificateRecordingAgent, recordedCertificate } from './certificates.js';
import { createGuardedAgent } from './guarded-agent.js';
import {
  BODY_CAP_BYTES,
  describeError,
  isDroppedConnection,
  probeError,
  startDeadline,
  stopwatch,
  type ObserveOptions,
  type ProbeError,
} from './observe-support.js';

export const ONLY_HTTP_ERROR = 'Only http and https endpoints can be checked';
/** Redirects followed (same host only) before the probe gives up. */
export const MAX_REDIRECTS = 3;

const DEFAULT_HEADERS: Record<string, string> = { 'user-agent': 'Beacon-HealthCheck/1.0', accept: '*/*' };

let guardedAgent: Agent | undefined;
let openAgent: Agent | undefined;

/** The agent probes use by default, one per mode for the life of the process, so keep-alive connections are reused. */
function sharedAgent(allowPrivate: boolean): Agent {
  if (allowPrivate) {
    return (openAgent ??= certificateRecordingAgent(buildConnector({ timeout: 10_000 }), {
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    }));
  }
  return (guardedAgent ??= createGuardedAgent());
}

/** Closes the shared agents (graceful shutdown); later probes open new ones. */
export async function closeSharedAgents(): Promise<void> {
  const agents = [guardedAgent, openAgent];
  guardedAgent = openAgent = undefined;
  await Promise.all(agents.map((agent) => agent?.close()));
}

/**
 * Runs `use` with the agent HTTP traffic of these options goes through: the caller's, else a guarded agent of its
 * own when the caller narrowed the guard (lookup or policy; closed afterwards), else the shared one.
 */
export async function withHttpDispatcher<T>(
  options: ObserveOptions,
  use: (dispatcher: Dispatcher) => Promise<T>,
): Promise<T> {
  if (options.dispatcher) return use(options.dispatcher);
  if (options.allowPrivate || (!options.lookup && !options.policy)) return use(sharedAgent(options.allowPrivate));
  const agent = createGuardedAgent({ lookup: options.lookup, policy: options.policy });
  try {
    return await use(agent);
  } finally {
    void agent.destroy().catch(() => {});
  }
}

/** Sends one http check and reports what came back. Never throws; the check's timeout covers every hop. */
export async function observeHttp(spec: ProbeSpec, options: ObserveOptions): Promise<Observation> {
  const elapsed = stopwatch();
  let url: URL;
  try {
    url = new URL(spec.endpoint);
  } catch {
    return {
      connected: false,
      latency_ms: elapsed(),
      error: { class: 'protocol', message: 'The endpoint is not a valid URL' },
    };
  }
  if (!isHttp(url))
    return { connected: false, latency_ms: elapsed(), error: { class: 'protocol', message: ONLY_HTTP_ERROR } };

  const deadline = startDeadline(spec.timeoutSeconds);
  const seen: Seen = {};
  try {
    const answer = await withHttpDispatcher(options, (dispatcher) =>
      httpExchange(
        url,
        { method: spec.request?.method ?? 'GET', headers: spec.request?.headers, body: spec.request?.body },
        { dispatcher, signal: deadline.signal, capBytes: BODY_CAP_BYTES, otherHosts: false },
        seen,
      ),
    );
    return {
      connected: true,
      latency_ms: elapsed(),
      status: answer.status,
      headers: answer.headers,
      body: answer.body,
      ...(answer.cert && { cert: answer.cert }),
      ...(answer.error && { error: answer.error }),
    };
  } catch (error) {
    // Accepted, then closed or reset before any answer: the network's failure, not an answer's (retried).
    const dropped = seen.status === undefined && !deadline.signal.aborted && isDroppedConnection(error);
    return {
      connected: seen.status !== undefined,
      latency_ms: elapsed(),
      ...seen,
      error: dropped
        ? { class: 'refused', message: `${describeError(error, url.hostname)} before answering` }
        : probeError(error, url.hostname, deadline),
    };
  } finally {
    deadline.clear();
  }
}

export interface HttpRequest {
  method: HttpMethod;
  headers?: Record<string, string>;
  body?: string;
}

export interface ExchangeOptions {
  dispatcher: Dispatcher;
  signal: AbortSignal;
  /** Bytes of the final body kept; the rest is not read. */
  capBytes: number;
  /** Follow redirects to other hosts (RDAP, whose registries redirect) rather than to the same host only. */
  otherHosts: boolean;
}

/** What the last answer of an exchange showed. `error` says why a redirect was not followed. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  cert?: Observation['cert'];
  error?: ProbeError;
}

/** What the exchange saw before it failed (a timeout while the body was read keeps the status). */
type Seen = Pick<Observation, 'status' | 'headers' | 'cert'>;

/**
 * One request and the redirects after it, at most MAX_REDIRECTS: a 303 (and a 301 or 302 answering a POST) turns
 * into a GET without body, as browsers do. Throws on network failures; an unfollowed redirect is an answer with
 * an error. Every hop goes through `dispatcher`, so the guard checks each one.
 */
export async function httpExchange(
  url: URL,
  request: HttpRequest,
  options: ExchangeOptions,
  seen: Seen = {},
): Promise<HttpAnswer> {
  const headers = { ...DEFAULT_HEADERS };
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  let target = url;
  let { method, body } = request;
  for (let redirects = 0; ; redirects++) {
    const response = await options.dispatcher.request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method,
      headers,
      body: method === 'HEAD' ? undefined : body,
      signal: options.signal,
    });
    const status = response.statusCode;
    const cert = recordedCertificate(options.dispatcher, target);
    Object.assign(seen, { status, headers: joinHeaders(response.headers) }, cert && { cert });
    const location = status >= 300 && status < 400 ? firstHeader(response.headers.location) : undefined;
    // A redirect's body is read too (up to the cap, then dropped) so its connection can be kept alive.
    const text = await readBody(response.body, options.capBytes);
    const answer: HttpAnswer = { status, headers: seen.headers ?? {}, body: text, ...(cert && { cert }) };
    if (!location) return answer;

    const refuse = (message: string): HttpAnswer => ({ ...answer, error: { class: 'protocol', message } });
    let next: URL;
    try {
      next = new URL(location, target);
    } catch {
      return refuse('Redirected to an invalid location');
    }
    if (!isHttp(next)) return refuse(`Redirected to an unsupported scheme (${next.protocol})`);
    if (!options.otherHosts && next.hostname !== url.hostname) {
      return refuse(`Redirected to another host (${next.hostname}); not followed`);
    }
    if (redirects >= MAX_REDIRECTS) return refuse(`Too many redirects (more than ${MAX_REDIRECTS})`);
    if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      delete headers['content-type'];
    }
    target = next;
  }
}

/**
 * The body as text, up to `capBytes` (a character cut at the cap becomes U+FFFD); leaving the loop early
 * destroys the stream, so a never-ending body is not waited for.
 */
async function readBody(body: Dispatcher.ResponseData['body'], capBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let read = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    chunks.push(buffer);
    read += buffer.length;
    if (read >= capBytes) break;
  }
  return Buffer.concat(chunks).subarray(0, capBytes).toString('utf8');
}

/** Header names lower-cased (undici's already are), a repeated header joined by ', '. */
function joinHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const joined: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    joined[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return joined;
}

function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
