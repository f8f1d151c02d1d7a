import type { HealthCheck } from '../../contract/health.js';
import type { BodyOf } from '../../contract/operation.js';
import type { healthOperations } from '../../contract/operations/health.js';
import { defaultAssertions, formatAssertions, parseAssertion, validateAssertion } from '../../domain/assertion-text.js';
import type { CheckKind, DnsRecordType, HttpMethod } from '../../domain/check-kinds.js';
import { endpointError } from '../../domain/check-targets.js';
import { HEALTH_CHECK_BOUNDS, HEALTH_CHECK_DEFAULTS, type Importance } from '../../domain/health.js';

export type HealthCheckCreate = BodyOf<typeof healthOperations.createHealthCheck>;
export type HealthCheckUpdate = BodyOf<typeof healthOperations.updateHealthCheck>;

/** The health-check form as typed: numbers stay text until they are valid. */
export interface HealthCheckDraft {
  kind: CheckKind;
  name: string;
  /** The target per kind (docs/decisions.md#checks); unused by a heartbeat. */
  endpoint: string;
  /** A runner's handle; '' is the shared runner. Unused by a heartbeat. */
  runner: string;
  frequency: string;
  timeout: string;
  allowed_failures: string;
  importance: Importance;
  disabled: boolean;
  paused: boolean;
  /** http: what is sent; headers one `Name: value` per line. */
  method: HttpMethod;
  headers: string;
  body: string;
  /** tcp: text sent once connected ('' sends nothing). */
  send: string;
  /** tls: upgrade a plain connection first. */
  starttls: 'none' | 'smtp';
  /** dns: the record type asked for. */
  record: DnsRecordType;
  /** heartbeat: seconds of slack, an optional cron schedule and its time zone. */
  grace: string;
  schedule: string;
  time_zone: string;
  /** Retry a network error once within the run (retries 1). */
  retry: boolean;
  recover_after: string;
  /** The assertions in their text form, one per line. */
  assertions: string;
}

export type DraftField =
  | 'name'
  | 'endpoint'
  | 'frequency'
  | 'timeout'
  | 'allowed_failures'
  | 'importance'
  | 'headers'
  | 'grace'
  | 'schedule'
  | 'time_zone'
  | 'recover_after'
  | 'assertions';

/** Kinds a runner probes: they have a target, a runner and a timeout; a heartbeat has none of them. */
export const isProbed = (kind: CheckKind): boolean => kind !== 'heartbeat';

/** The target field of each probed kind: its label and what it takes. */
export const ENDPOINT_FIELDS: Record<Exclude<CheckKind, 'heartbeat'>, { label: string; hint: string }> = {
  http: { label: 'Endpoint', hint: 'The URL to check, http or https.' },
  tcp: { label: 'Host and port', hint: 'host:port, e.g. db.example.com:5432.' },
  tls: { label: 'Host and port', hint: 'host:port of a TLS port, e.g. mail.example.com:465.' },
  dns: { label: 'Record name', hint: 'The name to look up, e.g. example.com.' },
  domain: { label: 'Domain name', hint: 'The registered domain, e.g. example.com.' },
};

/** A heartbeat's default slack, seconds (the server's too). */
export const DEFAULT_GRACE = 60;
export const RECOVER_AFTER_BOUNDS = { min: 1, max: 10 } as const;
const GRACE_BOUNDS = { min: 0, max: HEALTH_CHECK_BOUNDS.frequency.max } as const;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const MAX_HEADERS = 30;

/** The kind's default assertions in their text form (what a new check's editor starts with). */
export const defaultAssertionsText = (kind: CheckKind): string => formatAssertions(defaultAssertions(kind));

/** Spec sections 3 and 9: the defaults of a new check (an http check unless another kind is given). */
export function newDraft(kind: CheckKind = 'http'): HealthCheckDraft {
  return {
    kind,
    name: '',
    endpoint: '',
    runner: '',
    frequency: String(HEALTH_CHECK_DEFAULTS.frequency),
    timeout: String(HEALTH_CHECK_DEFAULTS.timeout),
    allowed_failures: String(HEALTH_CHECK_DEFAULTS.allowed_failures),
    importance: HEALTH_CHECK_DEFAULTS.importance,
    disabled: false,
    paused: false,
    method: 'GET',
    headers: '',
    body: '',
    send: '',
    starttls: 'none',
    record: 'A',
    grace: String(DEFAULT_GRACE),
    schedule: '',
    time_zone: '',
    retry: false,
    recover_after: '1',
    assertions: defaultAssertionsText(kind),
  };
}

/** Headers as the textarea shows them: one `Name: value` per line. */
export const formatHeaders = (headers: Record<string, string>): string =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

export function draftOf(check: HealthCheck): HealthCheckDraft {
  // A check cached before kinds existed reads as an http check with the kind's defaults.
  const kind = check.kind ?? 'http';
  const request = check.request ?? null;
  return {
    ...newDraft(kind),
    name: check.name,
    endpoint: check.endpoint,
    runner: check.runner ?? '',
    frequency: String(check.frequency),
    timeout: String(check.timeout),
    allowed_failures: String(check.allowed_failures),
    importance: check.importance,
    disabled: check.disabled,
    paused: check.paused,
    method: request?.method ?? 'GET',
    headers: kind === 'http' && request ? formatHeaders(request.headers ?? {}) : '',
    body: kind === 'http' ? (request?.body ?? '') : '',
    send: kind === 'tcp' ? (request?.body ?? '') : '',
    starttls: check.starttls ?? 'none',
    record: check.record ?? 'A',
    grace: String(check.grace ?? DEFAULT_GRACE),
    schedule: check.schedule ?? '',
    time_zone: check.time_zone ?? '',
    retry: (check.retries ?? 0) > 0,
    recover_after: String(check.recover_after ?? 1),
    assertions: check.assertions_text ?? defaultAssertionsText(kind),
  };
}

/**
 * Another kind picked: the kind's own fields keep what was typed, and an assertions text still at the old
 * kind's defaults (or empty) becomes the new kind's defaults (typed assertions are kept: the errors say what
 * does not fit).
 */
export function withKind(draft: HealthCheckDraft, kind: CheckKind): HealthCheckDraft {
  const untouched = draft.assertions.trim() === '' || draft.assertions === defaultAssertionsText(draft.kind);
  return { ...draft, kind, assertions: untouched ? defaultAssertionsText(kind) : draft.assertions };
}

/** The request headers typed one `Name: value` per line, or the first line that is not one. */
export function parseHeaders(text: string): { headers: Record<string, string>; error: string | null } {
  const headers: Record<string, string> = {};
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const colon = line.indexOf(':');
    const name = colon === -1 ? '' : line.slice(0, colon).trim();
    if (!HEADER_NAME.test(name))
      return { headers, error: `Line ${index + 1}: write a header as Name: value, e.g. Accept: application/json` };
    headers[name] = line.slice(colon + 1).trim();
  }
  if (Object.keys(headers).length > MAX_HEADERS) return { headers, error: `At most ${MAX_HEADERS} headers` };
  return { headers, error: null };
}

const wholeNumber = (value: string): number | null => (/^\d+$/.test(value.trim()) ? Number(value.trim()) : null);

function boundedError(label: string, value: string, { min, max }: { min: number; max: number }): string | null {
  if (value.trim() === '') return `${label} is required`;
  const number = wholeNumber(value);
  if (number === null || number < min || number > max) return `${label} must be a whole number from ${min} to ${max}`;
  return null;
}

function timeZoneError(value: string): string | null {
  if (value.trim() === '') return null;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value.trim() });
    return null;
  } catch {
    return 'Must be an IANA time zone, e.g. Europe/Berlin';
  }
}

/**
 * The assertion text's errors, one per line it names ('Line 2: ...'), in line order: each line parsed as
 * parseAssertions does (blank and `#` lines skipped), then checked against the sources the kind observes, so a
 * `cert.days_left` typed into a dns check is named at once rather than by the server on Save.
 */
export function assertionErrors(kind: CheckKind, text: string): string[] {
  const errors: string[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const parsed = parseAssertion(line);
    const message = 'error' in parsed ? parsed.error : validateAssertion(kind, parsed.assertion);
    if (message) errors.push(`Line ${index + 1}: ${message}`);
  });
  return errors;
}

/**
 * Spec section 5 and docs/decisions.md#health-maths: every field required; frequency >= 1, allowed failures >= 0,
 * timeout 1 to 15; the target checked per kind; the kind's own fields and the assertions parsed. A field the kind does
 * not use has no error.
 */
export function draftErrors(draft: HealthCheckDraft): Record<DraftField, string | null> {
  const probed = isProbed(draft.kind);
  const endpoint = draft.endpoint.trim();
  const heartbeat = draft.kind === 'heartbeat';
  // A heartbeat takes no assertions: its pings judge it (the editor is hidden, what was typed is not sent).
  const assertions = heartbeat ? [] : assertionErrors(draft.kind, draft.assertions);
  return {
    name: draft.name.trim() === '' ? 'Name is required' : null,
    endpoint:
      draft.kind === 'heartbeat'
        ? null
        : endpoint === ''
          ? `${ENDPOINT_FIELDS[draft.kind].label} is required`
          : endpointError(draft.kind, endpoint),
    frequency: boundedError(heartbeat ? 'Period' : 'Frequency', draft.frequency, HEALTH_CHECK_BOUNDS.frequency),
    timeout: probed ? boundedError('Timeout', draft.timeout, HEALTH_CHECK_BOUNDS.timeout) : null,
    allowed_failures: boundedError('Allowed failures', draft.allowed_failures, HEALTH_CHECK_BOUNDS.allowed_failures),
    importance: draft.importance ? null : 'Importance is required',
    headers: draft.kind === 'http' ? parseHeaders(draft.headers).error : null,
    grace: heartbeat ? boundedError('Grace', draft.grace, GRACE_BOUNDS) : null,
    schedule:
      heartbeat && draft.schedule.trim() !== '' && draft.schedule.trim().split(/\s+/).length !== 5
        ? 'Must be a cron expression of 5 fields, e.g. 0 3 * * *'
        : null,
    time_zone: heartbeat ? timeZoneError(draft.time_zone) : null,
    recover_after: boundedError('Successes to recover', draft.recover_after, RECOVER_AFTER_BOUNDS),
    assertions: assertions.length > 0 ? assertions.join('\n') : null,
  };
}

/** What an http or tcp check sends; null when it sends the defaults (a GET with no headers, nothing over tcp). */
function requestOf(draft: HealthCheckDraft): HealthCheckUpdate['request'] {
  if (draft.kind === 'tcp') return draft.send === '' ? null : { method: 'GET', headers: {}, body: draft.send };
  if (draft.kind !== 'http') return null;
  const { headers } = parseHeaders(draft.headers);
  if (draft.method === 'GET' && Object.keys(headers).length === 0 && draft.body === '') return null;
  return { method: draft.method, headers, ...(draft.body !== '' ? { body: draft.body } : {}) };
}

/**
 * The fields of the draft's kind (docs/api.md#health-checks-kinds-and-assertions); a field the kind does not use is
 * null (the API refuses one with a value), so a check that changed kind drops the old kind's settings.
 */
function kindFields(draft: HealthCheckDraft) {
  const heartbeat = draft.kind === 'heartbeat';
  return {
    request: requestOf(draft),
    starttls: draft.kind === 'tls' && draft.starttls === 'smtp' ? ('smtp' as const) : null,
    record: draft.kind === 'dns' ? draft.record : null,
    grace: heartbeat ? Number(draft.grace) : null,
    schedule: heartbeat && draft.schedule.trim() !== '' ? draft.schedule.trim() : null,
    time_zone: heartbeat && draft.time_zone.trim() !== '' ? draft.time_zone.trim() : null,
    retries: draft.retry ? 1 : 0,
    recover_after: Number(draft.recover_after),
  };
}

function common(draft: HealthCheckDraft) {
  const probed = isProbed(draft.kind);
  // A heartbeat has no timeout to set: one typed before the kind changed is kept only while it is valid.
  const timeout =
    probed || !boundedError('Timeout', draft.timeout, HEALTH_CHECK_BOUNDS.timeout)
      ? Number(draft.timeout)
      : HEALTH_CHECK_DEFAULTS.timeout;
  return {
    name: draft.name.trim(),
    kind: draft.kind,
    endpoint: probed ? draft.endpoint.trim() : '',
    frequency: Number(draft.frequency),
    timeout,
    allowed_failures: Number(draft.allowed_failures),
    importance: draft.importance,
  };
}

/** Null-valued fields left out: a create needs none of them. */
const present = <T extends object>(fields: T): Partial<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null)) as Partial<T>;

/**
 * Spec section 7: a create leaves out disabled and paused, and the runner when it is the shared one (a
 * heartbeat has none). The assertions go as typed; left empty, the kind's defaults apply.
 */
export function createBody(draft: HealthCheckDraft): HealthCheckCreate {
  const { name, kind, endpoint, ...rest } = common(draft);
  const runner = isProbed(kind) && draft.runner ? { runner: draft.runner } : {};
  const assertions = !isProbed(kind) || draft.assertions.trim() === '' ? {} : { assertions_text: draft.assertions };
  return { name, kind, endpoint, ...runner, ...rest, ...present(kindFields(draft)), ...assertions };
}

/**
 * Spec section 7: an edit sends the full body; the shared runner is null. The assertions always go (emptied:
 * the kind's defaults), as do the kind's fields, so nothing of an old kind is kept by leaving it out; a heartbeat
 * sends none (left out, a check that became a heartbeat drops its old kind's assertions).
 */
export function updateBody(draft: HealthCheckDraft): HealthCheckUpdate & { runner: string | null } {
  const { name, kind, endpoint, ...rest } = common(draft);
  return {
    name,
    kind,
    endpoint,
    runner: isProbed(kind) ? draft.runner || null : null,
    ...rest,
    disabled: draft.disabled,
    paused: draft.paused,
    ...kindFields(draft),
    ...(isProbed(kind)
      ? { assertions_text: draft.assertions.trim() === '' ? defaultAssertionsText(kind) : draft.assertions }
      : {}),
  };
}

/** What "Test" sends: the form as it stands, as a create would (an unnamed check is tested as 'Test'). */
export function testBody(draft: HealthCheckDraft): HealthCheckCreate {
  const body = createBody(draft);
  return { ...body, name: body.name || 'Test' };
}

/**
 * Which form field a server field error belongs to (`errors` keys are field paths: `request.headers.X-Y`);
 * null for one the form has no field for (shown above the buttons).
 */
export function fieldOfServerError(
  key: string,
  kind: CheckKind,
): DraftField | 'method' | 'body' | 'send' | 'record' | 'runner' | null {
  const [head, second] = key.split('.');
  switch (head) {
    case 'name':
    case 'endpoint':
    case 'frequency':
    case 'timeout':
    case 'allowed_failures':
    case 'importance':
    case 'grace':
    case 'schedule':
    case 'time_zone':
    case 'recover_after':
    case 'record':
    case 'runner':
      return head;
    case 'assertions':
    case 'assertions_text':
      return 'assertions';
    case 'request':
      if (kind === 'tcp') return 'send';
      return second === 'method' ? 'method' : second === 'body' ? 'body' : 'headers';
    default:
      return null;
  }
}
