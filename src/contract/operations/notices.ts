import { z } from 'zod';
import { serviceParams } from '../catalogue.js';
import { notice, noticeCreate, noticeParams, noticeQuery, noticeUpdate } from '../notices.js';
import { defineOperations } from '../operation.js';

const tags = ['notices'];

/** Notices of a service (spec/catalogue.md section 7; docs/decisions.md#api-conventions). */
export const noticeOperations = defineOperations({
  listNotices: {
    method: 'GET',
    path: '/services/:service/notices',
    summary:
      'Notices of a service, newest first; `type` (incident, maintenance) and `status` (open, closed) take ' +
      'comma lists, default incident,maintenance and open; total in the `total` header',
    tags,
    access: 'beacon.notice.read',
    params: serviceParams,
    query: noticeQuery,
    response: z.array(notice),
    paged: true,
    errors: [400, 401, 403, 404],
  },
  createNotice: {
    replayable: true,
    method: 'POST',
    path: '/services/:service/notices',
    summary:
      'Open a notice (editors of the service); a given health is applied to the service in the same ' +
      'transaction, and must be good for a resolved or completed status',
    tags,
    access: 'beacon.notice.manage',
    params: serviceParams,
    body: noticeCreate,
    response: notice,
    status: 201,
    errors: [400, 401, 403, 404],
  },
  updateNotice: {
    replayable: true,
    method: 'PATCH',
    path: '/notices/:id',
    summary: "Update a notice's status and message (a new history entry), optionally the service's health",
    tags,
    access: 'beacon.notice.manage',
    params: noticeParams,
    body: noticeUpdate,
    response: notice,
    errors: [400, 401, 403, 404],
  },
});
