import { draftPage, draftPageParams, draftPageUpdate } from '../pages.js';
import { defineOperations } from '../operation.js';

const tags = ['pages'];

/**
 * Pages and drafts (spec/catalogue.md section 7, DESIGN.md section 10). The draft save is declared now because
 * the app's write path replays it offline (with its 412 conflict); the server serves it with the pages work, so
 * the group is not registered and not in the OpenAPI document yet.
 */
export const pageOperations = defineOperations({
  updateDraftPage: {
    method: 'PATCH',
    path: '/services/:service/draft-pages/:section/:handle',
    summary: 'Save a draft with the lock it read; a stale lock is 412 with the current draft (editors)',
    tags,
    access: 'user',
    params: draftPageParams,
    body: draftPageUpdate,
    response: draftPage,
    errors: [400, 401, 403, 404, 412, 422],
  },
});
