import { z } from 'zod';
import { defineOperations } from '../operation.js';
import {
  shieldsEndpoint,
  statusComponentParams,
  statusHistoryQuery,
  statusNotice,
  statusPage,
  statusPageCreate,
  statusPageParams,
  statusPageUpdate,
  statusSubscribe,
  statusSubscriber,
  statusSubscriberParams,
  statusSubscription,
  statusSummary,
  statusUnlock,
  statusUnsubscribe,
  statusView,
} from '../status-pages.js';

const tags = ['status-pages'];

/** A workspace's public status pages, as its admins and owners manage them (DESIGN.md 13). */
export const statusPageOperations = defineOperations({
  listStatusPages: {
    method: 'GET',
    path: '/status-pages',
    summary: "The workspace's status pages (admins and owners)",
    tags,
    access: 'user',
    response: z.array(statusPage),
    errors: [401, 403],
  },
  createStatusPage: {
    method: 'POST',
    path: '/status-pages',
    summary: 'Add a status page; the handle is fixed from then on (admins and owners)',
    tags,
    access: 'user',
    body: statusPageCreate,
    response: statusPage,
    status: 201,
    errors: [400, 401, 403, 409],
  },
  getStatusPage: {
    method: 'GET',
    path: '/status-pages/:page',
    summary: 'A status page with its groups of services (admins and owners)',
    tags,
    access: 'user',
    params: statusPageParams,
    response: statusPage,
    errors: [400, 401, 403, 404],
  },
  updateStatusPage: {
    method: 'PATCH',
    path: '/status-pages/:page',
    summary: 'Change a status page; a field left out keeps its value, `groups` replaces them all (admins and owners)',
    tags,
    access: 'user',
    params: statusPageParams,
    body: statusPageUpdate,
    response: statusPage,
    errors: [400, 401, 403, 404, 409],
  },
  verifyStatusPageDomain: {
    method: 'POST',
    path: '/status-pages/:page/actions/verify-domain',
    summary:
      "Look for the custom domain's `_beacon-challenge` TXT record now, through the checks' DNS resolvers; the " +
      'page answers how it went (`custom_domain_status`, `custom_domain_check_error`). 400 without a custom ' +
      'domain, 409 when another page holds the domain verified (admins and owners)',
    tags,
    access: 'user',
    params: statusPageParams,
    response: statusPage,
    errors: [400, 401, 403, 404, 409],
  },
  listStatusSubscribers: {
    method: 'GET',
    path: '/status-pages/:page/subscribers',
    summary: "A status page's subscribers: emails and webhooks, confirmed or not (admins and owners)",
    tags,
    access: 'user',
    params: statusPageParams,
    response: z.array(statusSubscriber),
    errors: [400, 401, 403, 404],
  },
  removeStatusSubscriber: {
    method: 'DELETE',
    path: '/status-pages/:page/subscribers/:id',
    summary: 'Remove a subscriber of a status page (admins and owners)',
    tags,
    access: 'user',
    params: statusSubscriberParams,
    response: null,
    errors: [400, 401, 403, 404],
  },
  deleteStatusPage: {
    method: 'DELETE',
    path: '/status-pages/:page',
    summary: 'Remove a status page (admins and owners)',
    tags,
    access: 'user',
    params: statusPageParams,
    response: null,
    errors: [400, 401, 403, 404],
  },
});

const readerErrors = [400, 401, 404] as const;
const readerNote =
  '; no login for a public page, the unlock cookie for a password page, a session of the workspace for a members page';

/** What visitors and tools read of a status page (DESIGN.md 13). */
export const statusReadOperations = defineOperations({
  statusSummary: {
    method: 'GET',
    path: '/status/:page/summary.json',
    summary: `The page in Statuspage's v2 summary shape${readerNote}`,
    tags,
    access: 'public',
    params: statusPageParams,
    response: statusSummary,
    errors: readerErrors,
  },
  statusView: {
    method: 'GET',
    path: '/status/:page/view',
    summary: `The page as it renders: components with 90 days of bars and upstream impact, notices${readerNote}`,
    tags,
    access: 'public',
    params: statusPageParams,
    response: statusView,
    errors: readerErrors,
  },
  statusHistory: {
    method: 'GET',
    path: '/status/:page/history',
    summary: `Resolved incidents and completed maintenance, newest first; total in the \`total\` header${readerNote}`,
    tags,
    access: 'public',
    params: statusPageParams,
    query: statusHistoryQuery,
    response: z.array(statusNotice),
    paged: true,
    errors: readerErrors,
  },
  statusShields: {
    method: 'GET',
    path: '/status/:page/shields/:service.json',
    summary: `A component's status as a Shields.io endpoint badge${readerNote}`,
    tags,
    access: 'public',
    params: statusComponentParams,
    response: shieldsEndpoint,
    errors: readerErrors,
  },
  subscribeToStatusPage: {
    method: 'POST',
    path: '/status/:page/subscriptions',
    summary:
      'Subscribe an email (a confirmation link is mailed) or a webhook (signed, told at once) to the whole page or ' +
      'some components, optionally with what they depend on; rate-limited per address' +
      readerNote,
    tags,
    access: 'public',
    params: statusPageParams,
    body: statusSubscribe,
    response: statusSubscription,
    status: 201,
    errors: [400, 401, 404, 429],
  },
  unsubscribeFromStatusPage: {
    method: 'POST',
    path: '/status/:page/unsubscribe',
    summary: "Unsubscribe with the token of a mail's unsubscribe link (no login, no password)",
    tags,
    access: 'public',
    params: statusPageParams,
    body: statusUnsubscribe,
    response: null,
    errors: [400, 404],
  },
  unlockStatusPage: {
    method: 'POST',
    path: '/status/:page/unlock',
    summary: 'Unlock a password page: sets a cookie for this page (rate-limited per address)',
    tags,
    access: 'public',
    params: statusPageParams,
    body: statusUnlock,
    response: null,
    errors: [400, 401, 404, 429],
  },
});
