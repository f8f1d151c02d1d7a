import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ApiClient } from '../../../src/app/api/client.js';
import type { Service } from '../../../src/contract/catalogue.js';
import { pathOf, type OperationInput, type OperationOutput } from '../../../src/contract/operation.js';
import { serviceOperations } from '../../../src/contract/operations/services.js';
import { starOperations } from '../../../src/contract/operations/stars.js';

/**
 * The app's calls are typed end to end from the contract. The `@ts-expect-error` lines below are the proof:
 * `npm run typecheck` (tsc over tests/) fails if any of them compiles, that is if a wrong body, a missing param
 * or a missing response field were accepted. The function is never run; only its types matter.
 */
export async function wrongCallsDoNotCompile(api: ApiClient) {
  const service = await api.call(serviceOperations.getService, { params: { service: 'payments' } });
  expectTypeOf(service).toEqualTypeOf<Service>();
  // @ts-expect-error a field the response does not have
  void service.owner_email;

  // @ts-expect-error the body of a create must have a handle
  await api.call(serviceOperations.createService, { params: { team: 'core' }, body: { name: 'Payments' } });
  // @ts-expect-error a body field the contract does not know
  await api.call(serviceOperations.updateService, { params: { service: 'x' }, body: { colour: 'red' } });
  // @ts-expect-error a wrong type for a field
  await api.call(serviceOperations.changeServiceHealth, { params: { service: 'x' }, body: { health: 'great' } });
  // @ts-expect-error params are required where the path has them
  await api.call(serviceOperations.getService);

  const page = await api.page(serviceOperations.searchServices, { query: { q: 'pay' } });
  expectTypeOf(page.items).toEqualTypeOf<Service[]>();
  // @ts-expect-error only paged operations have pages
  await api.page(serviceOperations.getService, { params: { service: 'x' } });

  const starred = await api.call(starOperations.starService, { params: { username: 'mia', service: 'payments' } });
  expectTypeOf(starred).toEqualTypeOf<null>();
}

describe('operation types', () => {
  it('derives input and output types from the declaration', () => {
    expectTypeOf<OperationOutput<typeof serviceOperations.getService>>().toEqualTypeOf<Service>();
    expectTypeOf<OperationInput<typeof serviceOperations.getService>['params']>().toEqualTypeOf<{
      service: string;
    }>();
    expect(typeof wrongCallsDoNotCompile).toBe('function');
  });

  it('fills a path from its params, encoded', () => {
    expect(pathOf(serviceOperations.getService, { service: 'pay ments' })).toBe('/services/pay%20ments');
    expect(() => pathOf(serviceOperations.getService, {})).toThrow('missing path parameter service');
  });
});
