/**
 * Notices (spec/catalogue.md sections 3, 4 and 5, docs/decisions.md#api-conventions): types, the status of each type,
 * the health rule and the list filter. Shared by the server, the app and the worker.
 */
import type { Health } from './catalogue.js';

export const NOTICE_TYPES = ['incident', 'maintenance'] as const;
export type NoticeType = (typeof NOTICE_TYPES)[number];

export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export const MAINTENANCE_STATUSES = ['scheduled', 'in_progress', 'verifying', 'completed'] as const;
export type MaintenanceStatus = (typeof MAINTENANCE_STATUSES)[number];

/** Spec section 4: release statuses are defined too, though no notice type uses them. */
export const RELEASE_STATUSES = ['announced', 'scheduled', 'available'] as const;

export type NoticeStatus = IncidentStatus | MaintenanceStatus;

interface StatusesByType {
  incident: IncidentStatus;
  maintenance: MaintenanceStatus;
}

const STATUSES: { [T in NoticeType]: readonly StatusesByType[T][] } = {
  incident: INCIDENT_STATUSES,
  maintenance: MAINTENANCE_STATUSES,
};

/** The status that ends a notice of each type. */
const CLOSING_STATUS: { [T in NoticeType]: StatusesByType[T] } = { incident: 'resolved', maintenance: 'completed' };

export const NOTICE_HEALTH_MESSAGE = 'Service health should be "Good" if notice is resolved.';

export function isNoticeType(value: string): value is NoticeType {
  return (NOTICE_TYPES as readonly string[]).includes(value);
}

/** The statuses a notice of `type` can take, in their order. */
export function statusesFor<T extends NoticeType>(type: T): readonly StatusesByType[T][] {
  return STATUSES[type];
}

/** Spec section 4: incidents start investigating, maintenance starts scheduled. */
export function defaultStatus<T extends NoticeType>(type: T): StatusesByType[T] {
  return STATUSES[type][0]!;
}

export function isValidStatus<T extends NoticeType>(type: T, status: string): status is StatusesByType[T] {
  return (STATUSES[type] as readonly string[]).includes(status);
}

/** Spec section 4: changing the type keeps the status when the new type has it, else resets it to the default. */
export function statusAfterTypeChange<T extends NoticeType>(type: T, currentStatus: string): StatusesByType[T] {
  return isValidStatus(type, currentStatus) ? currentStatus : defaultStatus(type);
}

/** A notice is closed once resolved (incident) or completed (maintenance). */
export function isClosed(type: NoticeType, status: string): boolean {
  return CLOSING_STATUS[type] === status;
}

/**
 * Spec section 5 and docs/decisions.md#api-conventions: health must be good when the status is resolved or completed.
 * The message when it is not, else null.
 */
export function noticeHealthError(status: string, health: Health): string | null {
  return (status === 'resolved' || status === 'completed') && health !== 'good' ? NOTICE_HEALTH_MESSAGE : null;
}

/** The notice list filter: the types shown, and open (true) or closed (false) notices; undefined shows both. */
export interface NoticeFilter {
  types: readonly NoticeType[];
  open?: boolean;
}

/** Spec section 4: the filter starts at types incident and maintenance, status open. */
export const DEFAULT_NOTICE_FILTER: NoticeFilter = { types: NOTICE_TYPES, open: true };

export function matchesFilter(notice: { type: NoticeType; status: string }, filter: NoticeFilter): boolean {
  if (!filter.types.includes(notice.type)) return false;
  return filter.open === undefined || isClosed(notice.type, notice.status) !== filter.open;
}

/**
 * The filter as the API's query carries it (spec section 7: `type` and `status` comma lists, unescaped), e.g.
 * `{ type: 'incident,maintenance', status: 'open' }`.
 */
export function noticeFilterQuery(filter: NoticeFilter): { type: string; status: string } {
  const status = filter.open === undefined ? 'open,closed' : filter.open ? 'open' : 'closed';
  return { type: filter.types.join(','), status };
}

/**
 * Reads the `type` and `status` query values back into a filter; a missing value takes its default, a `status`
 * listing both open and closed (or neither) shows both. Null when a listed value is unknown.
 */
export function parseNoticeFilter(query: { type?: string; status?: string }): NoticeFilter | null {
  const list = (value: string): string[] =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
  const types = query.type === undefined ? [...DEFAULT_NOTICE_FILTER.types] : list(query.type);
  if (!types.every(isNoticeType)) return null;
  const statuses = query.status === undefined ? ['open'] : list(query.status);
  if (!statuses.every((status) => status === 'open' || status === 'closed')) return null;
  const open = statuses.includes('open');
  const closed = statuses.includes('closed');
  return { types: [...new Set(types)], open: open === closed ? undefined : open };
}

/**
 * What a notice may carry beyond the spec's fields (docs/decisions.md#status-pages): a maintenance window and a
 * post-mortem.
 */
export interface NoticeExtras {
  starts_at?: string | null;
  ends_at?: string | null;
  postmortem?: string | null;
}

/**
 * The field errors of a notice's window and post-mortem, by field (none: an empty object). A window belongs to
 * maintenance and ends after it starts; a post-mortem belongs to an incident.
 */
export function noticeExtrasErrors(type: NoticeType, extras: NoticeExtras): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const { starts_at: startsAt, ends_at: endsAt, postmortem } = extras;
  if (type !== 'maintenance') {
    if (startsAt) errors.starts_at = ['Only maintenance has a window'];
    if (endsAt) errors.ends_at = ['Only maintenance has a window'];
  } else if (startsAt && endsAt && Date.parse(endsAt) <= Date.parse(startsAt)) {
    errors.ends_at = ['Must be after the start'];
  }
  if (type !== 'incident' && postmortem) errors.postmortem = ['Only an incident has a post-mortem'];
  return errors;
}
