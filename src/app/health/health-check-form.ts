import type { HealthCheck, HealthCheckUpdate } from '../../contract/health.js';
import { HEALTH_CHECK_BOUNDS, HEALTH_CHECK_DEFAULTS, type Importance } from '../../domain/health.js';

/** The health-check form as typed: numbers stay text until they are valid. */
export interface HealthCheckDraft {
  name: string;
  endpoint: string;
  /** A runner's handle; '' is the shared runner. */
  runner: string;
  frequency: string;
  timeout: string;
  allowed_failures: string;
  importance: Importance;
  disabled: boolean;
  paused: boolean;
}

export type DraftField = 'name' | 'endpoint' | 'frequency' | 'timeout' | 'allowed_failures' | 'importance';

/** Spec sections 3 and 9: the defaults of a new check. */
export function newDraft(): HealthCheckDraft {
  return {
    name: '',
    endpoint: '',
    runner: '',
    frequency: String(HEALTH_CHECK_DEFAULTS.frequency),
    timeout: String(HEALTH_CHECK_DEFAULTS.timeout),
    allowed_failures: String(HEALTH_CHECK_DEFAULTS.allowed_failures),
    importance: HEALTH_CHECK_DEFAULTS.importance,
    disabled: false,
    paused: false,
  };
}

export function draftOf(check: HealthCheck): HealthCheckDraft {
  return {
    name: check.name,
    endpoint: check.endpoint,
    runner: check.runner ?? '',
    frequency: String(check.frequency),
    timeout: String(check.timeout),
    allowed_failures: String(check.allowed_failures),
    importance: check.importance,
    disabled: check.disabled,
    paused: check.paused,
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const wholeNumber = (value: string): number | null => (/^\d+$/.test(value.trim()) ? Number(value.trim()) : null);

function boundedError(label: string, value: string, { min, max }: { min: number; max: number }): string | null {
  if (value.trim() === '') return `${label} is required`;
  const number = wholeNumber(value);
  if (number === null || number < min || number > max) return `${label} must be a whole number from ${min} to ${max}`;
  return null;
}

/** Spec section 5: every field required; frequency >= 1, allowed failures >= 0, timeout 1 to 15. */
export function draftErrors(draft: HealthCheckDraft): Record<DraftField, string | null> {
  const endpoint = draft.endpoint.trim();
  return {
    name: draft.name.trim() === '' ? 'Name is required' : null,
    endpoint:
      endpoint === '' ? 'Endpoint is required' : isHttpUrl(endpoint) ? null : 'Endpoint must be an http or https URL',
    frequency: boundedError('Frequency', draft.frequency, HEALTH_CHECK_BOUNDS.frequency),
    timeout: boundedError('Timeout', draft.timeout, HEALTH_CHECK_BOUNDS.timeout),
    allowed_failures: boundedError('Allowed failures', draft.allowed_failures, HEALTH_CHECK_BOUNDS.allowed_failures),
    importance: draft.importance ? null : 'Importance is required',
  };
}

function common(draft: HealthCheckDraft) {
  return {
    name: draft.name.trim(),
    endpoint: draft.endpoint.trim(),
    frequency: Number(draft.frequency),
    timeout: Number(draft.timeout),
    allowed_failures: Number(draft.allowed_failures),
    importance: draft.importance,
  };
}

/** Spec section 7: a create leaves out disabled and paused, and the runner when it is the shared one. */
export function createBody(draft: HealthCheckDraft) {
  const { name, endpoint, ...rest } = common(draft);
  return { name, endpoint, ...(draft.runner ? { runner: draft.runner } : {}), ...rest };
}

/** Spec section 7: an edit sends the full body; the shared runner is null. */
export function updateBody(draft: HealthCheckDraft): HealthCheckUpdate & { runner: string | null } {
  const { name, endpoint, ...rest } = common(draft);
  return { name, endpoint, runner: draft.runner || null, ...rest, disabled: draft.disabled, paused: draft.paused };
}
