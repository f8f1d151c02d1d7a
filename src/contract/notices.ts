import { z } from 'zod';
import { line, text } from './common.js';
import { INCIDENT_STATUSES, MAINTENANCE_STATUSES, NOTICE_TYPES } from '../domain/notices.js';
import { health } from './catalogue.js';

/**
 * Notices: incidents and maintenance (spec/catalogue.md sections 3, 4, 5 and 7; docs/decisions.md#api-conventions).
 * Status values are checked against the notice's type by the server (domain/notices.ts).
 */

export const noticeType = z.enum(NOTICE_TYPES);
export const noticeStatus = z.enum([...INCIDENT_STATUSES, ...MAINTENANCE_STATUSES]);

const message = text().trim().min(1).max(10_000);
const isoTime = z.iso.datetime({ offset: true });

/** docs/decisions.md#status-pages: a maintenance window and an incident's post-mortem (markdown), each optional. */
const extras = {
  starts_at: isoTime.nullable().optional(),
  ends_at: isoTime.nullable().optional(),
  postmortem: text().max(50_000).nullable().optional(),
};

export const noticeHistoryEntry = z
  .object({ message: z.string(), status: noticeStatus, time: z.string().describe('ISO time') })
  .meta({ id: 'NoticeHistoryEntry' });
export type NoticeHistoryEntry = z.infer<typeof noticeHistoryEntry>;

export const notice = z
  .object({
    id: z.string(),
    type: noticeType,
    title: z.string(),
    status: noticeStatus,
    /** The latest message (the newest history entry's). */
    message: z.string(),
    /** The service health this notice last set, if it set one. */
    health: health.nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    /** A maintenance window, ISO times (docs/decisions.md#status-pages). */
    starts_at: z.string().nullable(),
    ends_at: z.string().nullable(),
    /** An incident's post-mortem, markdown. */
    postmortem: z.string().nullable(),
    /** Oldest first: the message and status of the creation, then of every update. */
    history: z.array(noticeHistoryEntry),
    service: z.object({ id: z.string(), handle: z.string(), name: z.string() }),
  })
  .meta({ id: 'Notice' });
export type Notice = z.infer<typeof notice>;

/**
 * Spec section 7: the app sends `service {id: handle}`, type, title, status and message; `health`
 * (docs/decisions.md#api-conventions) is applied to the service in the same transaction. A left-out status takes the
 * type's default.
 */
export const noticeCreate = z.strictObject({
  service: z.strictObject({ id: line().min(1).max(64) }).optional(),
  type: noticeType,
  title: line().trim().min(1).max(200),
  status: noticeStatus.optional(),
  message,
  health: health.optional(),
  ...extras,
});
export type NoticeCreate = z.infer<typeof noticeCreate>;

/**
 * Spec section 4: type and title are fixed once a notice exists; status and message change (and,
 * docs/decisions.md#status-pages, the window and post-mortem: a field left out keeps its value, null clears it).
 */
export const noticeUpdate = z.strictObject({
  status: noticeStatus,
  message,
  health: health.optional(),
  ...extras,
});
export type NoticeUpdate = z.infer<typeof noticeUpdate>;

/** `type` and `status` comma lists (spec section 7), e.g. `type=incident,maintenance&status=open`. */
export const noticeQuery = z.strictObject({
  type: line().max(100).optional(),
  status: line().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
  cursor: z.coerce.number().int().min(0).default(0),
});

export const noticeParams = z.strictObject({ id: line().min(1).max(64) });
