/**
 * Check kinds and what their probes observe (docs/decisions.md#checks, issue 26): the words shared by the contract, the
 * assertion language (assertion-text.ts), the probe engine (src/runner) and the app. Types and constants only.
 */
import type { Importance } from './health.js';

export const CHECK_KINDS = ['http', 'tcp', 'tls', 'dns', 'domain', 'heartbeat'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

/** Kinds a runner probes; a heartbeat is pinged instead. */
export const PROBED_KINDS = ['http', 'tcp', 'tls', 'dns', 'domain'] as const satisfies readonly CheckKind[];

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SOA', 'CAA'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Why a probe failed, for people and for charts: name resolution, a refused (or filtered) port, ... */
export const ERROR_CLASSES = ['dns', 'refused', 'timeout', 'tls', 'assertion', 'protocol'] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

export const ASSERTION_OPS = [
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'in',
  'contains',
  'not_contains',
  'matches',
  'not_matches',
  'exists',
  'missing',
  'changed',
] as const;
export type AssertionOp = (typeof ASSERTION_OPS)[number];

/**
 * What an assertion compares with: a number, a string, a boolean, or for `in` a list of values where a string
 * `a..b` is an inclusive numeric range (`[200, "300..399"]`). `exists`, `missing` and `changed` take none.
 */
export type AssertionValue = string | number | boolean | (string | number)[];

/**
 * One assertion (typed form). `source` is one of: `status`, `latency_ms`, `header:<name>`, `body`,
 * `json:<JSONata expression>`, `cert.days_left`, `cert.valid`, `cert.fingerprint`, `dns.rcode`, `dns.answers`,
 * `domain.days_left`, `connected`, `schema`. `severity` defaults to the check's importance.
 */
export interface Assertion {
  source: string;
  op: AssertionOp;
  value?: AssertionValue;
  severity?: Importance;
}

/** An assertion as evaluated on one result: both sides as text (`actual` at most 200 characters; null: missing). */
export interface AssertionResult {
  source: string;
  op: AssertionOp;
  expected: string;
  actual: string | null;
  pass: boolean;
  severity: Importance;
}

/** The certificate a TLS handshake (or an https answer) showed; days left are the chain's minimum. */
export interface CertInfo {
  days_left: number;
  /** The earliest `valid_to` in the chain, ISO time. */
  not_after: string;
  /** The leaf's subject and issuer, as one line each (CN first). */
  subject: string;
  issuer: string;
  /** SHA-256 fingerprint of the leaf, colon-separated hex (as Node prints it). */
  fingerprint: string;
  /** The chain verifies against the trusted roots and names the host. */
  valid: boolean;
  /** Why it does not verify (Node's authorizationError, or a hostname mismatch). */
  error?: string;
}

/** What one probe saw: the input of the assertions. A field left out was not seen (assertions on it: missing). */
export interface Observation {
  /** A connection (or, for dns and domain, an answer) was made. */
  connected: boolean;
  latency_ms: number;
  status?: number;
  /** Response headers, names lower-cased, repeated ones joined by ', '. */
  headers?: Record<string, string>;
  /** The response body (http) or what the peer sent back (tcp), as text, capped. */
  body?: string;
  cert?: CertInfo;
  dns?: { rcode: string; answers: string[] };
  /** Registration expiry from RDAP; null when the TLD has no RDAP service or the answer names no expiry. */
  domain?: { days_left: number | null; expires_at: string | null; unknown_reason?: string };
  /** Set when the probe itself failed (before any assertion was evaluated). */
  error?: { class: ErrorClass; message: string };
}

/** What a runner needs to probe one check. */
export interface ProbeSpec {
  kind: (typeof PROBED_KINDS)[number];
  /** http(s) URL; `host:port` for tcp and tls; a name for dns and domain. */
  endpoint: string;
  timeoutSeconds: number;
  /** http: method, headers and body; tcp: `body` is sent once connected. */
  request?: { method?: HttpMethod; headers?: Record<string, string>; body?: string };
  /** tls: upgrade a plain connection first. */
  starttls?: 'smtp';
  /** dns: the record type asked for (default A). */
  record?: DnsRecordType;
}

/** What a result says beyond the spec's `{ time, start, success }` (docs/decisions.md#checks). */
export interface ResultDetails {
  latency_ms?: number;
  error?: { class: ErrorClass; message: string };
  assertions?: AssertionResult[];
  cert?: Pick<CertInfo, 'days_left' | 'not_after' | 'subject' | 'issuer'>;
  /** The worst failing assertion's severity (the check's importance when the probe itself failed). */
  severity?: Importance;
}

/** One run of a check as runners report it and results store it. */
export interface CheckRun extends ResultDetails {
  /** When the run started, epoch ms. */
  start: number;
  /** How long it took, ms. */
  time: number;
  success: boolean;
  status?: number;
}

/** Longest `actual` kept per assertion. */
export const ASSERTION_ACTUAL_MAX = 200;

/**
 * What a value that could not be known reads as (a domain whose TLD has no RDAP service): its assertion passes, with
 * `actual` this and `expected` saying why ({@link notJudged}). Unknown is never failing (docs/decisions.md#checks).
 */
export const UNKNOWN_ACTUAL = 'unknown';

/** An assertion's `expected` when it was not judged: the expected value and the reason. */
export const notJudged = (expected: string, reason: string) => `${expected} (not judged: ${reason})`;

/** The reason an assertion was not judged, from its `expected` ({@link notJudged}); null when it was judged. */
export function notJudgedReason(assertion: Pick<AssertionResult, 'expected' | 'actual'>): string | null {
  if (assertion.actual !== UNKNOWN_ACTUAL) return null;
  return /\(not judged: (.*)\)$/.exec(assertion.expected)?.[1] ?? null;
}
