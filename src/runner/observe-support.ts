/**
 * What the probes of every kind share (docs/decisions.md#checks): the options a runner passes, the timeout that bounds
 * a whole probe, and how a failure is put into an error class and words for the check's editor.
 */
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import type { ErrorClass } from '../domain/check-kinds.js';
import { HEALTH_CHECK_BOUNDS } from '../domain/health.js';
import { RefusedAddressError, type AddressPolicy, type LookupAll } from './guarded-agent.js';

export interface ObserveOptions {
  /**
   * False for the shared runner unless the operator set BEACON_ALLOW_PRIVATE_TARGETS=1: every connection (http,
   * tcp, tls, RDAP) is then checked by the SSRF guard. True for team runners, which run inside their owners'
   * networks. DNS queries go only to `dnsResolvers`, the operator's; the guard refuses private names and private
   * addresses in their answers (observe-dns.ts).
   */
  allowPrivate: boolean;
  /**
   * The undici agent for HTTP traffic (http checks and RDAP lookups) instead of the shared one. It replaces the
   * guard too: with allowPrivate false, pass one from createGuardedAgent(). Certificates of https answers are
   * reported only when it was made by createGuardedAgent() (or is the shared one).
   */
  dispatcher?: Dispatcher;
  /** Name resolution for every kind but dns (default dns.lookup, all addresses). */
  lookup?: LookupAll;
  /** Which addresses are refused when allowPrivate is false (default forbiddenKind); tests narrow it. */
  policy?: AddressPolicy;
  /**
   * DNS checks: resolvers as `ip`, `ip:port` or `[ipv6]:port` (BEACON_DNS_RESOLVERS); absent or empty, the
   * system's (dns.getServers()).
   */
  dnsResolvers?: string[];
  /** Domain checks: the RDAP bootstrap file (BEACON_RDAP_BOOTSTRAP_URL; default IANA's dns.json). */
  rdapBootstrapUrl?: string;
  /**
   * tls checks: extra trusted roots (PEM), added to Node's: a team runner's private CA, or a test's own.
   * (NODE_EXTRA_CA_CERTS does the same for the whole process and for https.)
   */
  ca?: string[];
}

/** Why a probe failed: its class (for charts and filters) and words for people. */
export interface ProbeError {
  class: ErrorClass;
  message: string;
}

/** Bytes of an answer kept (http body, what a tcp peer sent); the rest is not read. */
export const BODY_CAP_BYTES = 64 * 1024;

/** A check's timeout in seconds, within HEALTH_CHECK_BOUNDS (a bad value gets the shortest). */
export function clampTimeout(seconds: number): number {
  const { min, max } = HEALTH_CHECK_BOUNDS.timeout;
  if (!Number.isFinite(seconds)) return min;
  return Math.min(max, Math.max(min, seconds));
}

/** Milliseconds since the call, rounded: every observation's latency_ms. */
export function stopwatch(): () => number {
  const startedAt = performance.now();
  return () => Math.round(performance.now() - startedAt);
}

/** The one timeout a probe runs under: its signal aborts every step once the check's timeout has passed. */
export interface Deadline {
  signal: AbortSignal;
  seconds: number;
  /** The timeout error, as the editor reads it. */
  error: ProbeError;
  /** Ms left before the deadline (0 once past). */
  remaining(): number;
  clear(): void;
}

export function startDeadline(timeoutSeconds: number): Deadline {
  const seconds = clampTimeout(timeoutSeconds);
  const controller = new AbortController();
  const endsAt = performance.now() + seconds * 1000;
  const timer = setTimeout(() => controller.abort(new Error('probe timed out')), seconds * 1000);
  return {
    signal: controller.signal,
    seconds,
    error: { class: 'timeout', message: `Timed out after ${seconds} s` },
    remaining: () => Math.max(0, endsAt - performance.now()),
    clear: () => clearTimeout(timer),
  };
}

/** Settles as `promise` does, or rejects with the signal's reason once it aborts (the work itself goes on). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NODATA', 'EAI_NONAME', 'EAI_FAIL']);
const TLS_CODES = /^(ERR_TLS_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_|ERR_SSL_|HOSTNAME_MISMATCH)/;

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when `error` is a failure to resolve a name (dns.lookup's codes). */
export function isDnsError(error: unknown): boolean {
  return DNS_CODES.has(codeOf(error) ?? '');
}

/** The peer closed or reset the connection (what undici and Node say when it drops). */
const DROPPED_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

export function isDroppedConnection(error: unknown): boolean {
  return DROPPED_CODES.has(codeOf(error) ?? '');
}

/** Words for a failed connection or exchange with `host` (never the address a name resolved to). */
export function describeError(error: unknown, host: string): string {
  if (error instanceof RefusedAddressError) return error.message;
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (isDnsError(error)) return `Could not resolve ${host}`;
  switch (code) {
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
  if (code && TLS_CODES.test(code)) return `TLS error: ${message}`;
  return message || 'The probe failed';
}

/** The class of a failed connection or exchange (see {@link describeError}). */
export function classifyError(error: unknown): ErrorClass {
  if (error instanceof RefusedAddressError) return 'refused';
  if (isDnsError(error)) return 'dns';
  const code = codeOf(error) ?? '';
  if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'refused';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return 'timeout';
  if (TLS_CODES.test(code)) return 'tls';
  return 'protocol';
}

/** A failure as an observation's error; once the deadline has passed, whatever broke is the timeout. */
export function probeError(error: unknown, host: string, deadline?: Deadline): ProbeError {
  if (deadline?.signal.aborted) return deadline.error;
  return { class: classifyError(error), message: describeError(error, host) };
}

/**
 * A failure to open a raw connection (tcp, tls) to `host:port`. A refused port, a filtered one (the connect
 * timing out) and an unreachable network answer exactly alike, so the shared runner tells an editor no more
 * than "could not connect" and cannot be used to scan ports (docs/decisions.md#checks, issue 26 item 6). A refused
 * address and a name that does not resolve say so.
 */
export function connectError(error: unknown, host: string, endpoint: string): ProbeError {
  if (error instanceof RefusedAddressError) return { class: 'refused', message: error.message };
  if (isDnsError(error)) return { class: 'dns', message: `Could not resolve ${host}` };
  return { class: 'refused', message: `Could not connect to ${endpoint}` };
}
