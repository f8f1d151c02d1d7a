import { serviceParams } from '../catalogue.js';
import { defineOperations } from '../operation.js';
import { slo, sloInput, sloStatusAnswer } from '../slo.js';

const tags = ['slo'];
const read = { tags, access: 'beacon.service.read', params: serviceParams } as const;
const edit = { tags, access: 'beacon.service.manage', params: serviceParams } as const;

/** A service's SLO and its error budget (docs/decisions.md#slos-and-scorecards). */
export const sloOperations = defineOperations({
  getSlo: {
    ...read,
    method: 'GET',
    path: '/services/:service/slo',
    summary: 'The service’s SLO; 404 when it has none',
    response: slo,
    errors: [401, 403, 404],
  },
  setSlo: {
    ...edit,
    method: 'PUT',
    path: '/services/:service/slo',
    summary: 'Set the service’s SLO (editors of the service); a new target or window starts its alerts afresh',
    body: sloInput,
    response: slo,
    errors: [400, 401, 403, 404],
  },
  deleteSlo: {
    ...edit,
    method: 'DELETE',
    path: '/services/:service/slo',
    summary: 'Remove the service’s SLO (editors of the service); 404 when it has none',
    response: null,
    errors: [401, 403, 404],
  },
  getSloStatus: {
    ...read,
    method: 'GET',
    path: '/services/:service/slo/status',
    summary:
      'Availability over the window (declared maintenance left out, and said so), the error budget left, burn rates ' +
      'over 1 h, 6 h and 3 days, and when the budget runs out at the current rate; 404 without an SLO',
    response: sloStatusAnswer,
    errors: [401, 403, 404],
  },
});
