import { describe, expect, it } from 'vitest';
import { driftVerdict, operationLabel } from '../../../src/domain/api-drift.js';
import type { AssertionResult } from '../../../src/domain/check-kinds.js';

const schema = (pass: boolean, actual: string | null): AssertionResult => ({
  source: 'schema',
  op: '==',
  expected: 'true',
  actual,
  pass,
  severity: 'error',
});

describe('what a run says about its spec', () => {
  it('an answer to spec conforms; one that breaks it is drift, with the pointer, rule and value', () => {
    expect(driftVerdict({ status: 200, assertions: [schema(true, 'valid')] })).toEqual({ breaks: false });
    expect(
      driftVerdict({ status: 200, assertions: [schema(false, '/items/0/price: must be number (type), got "12"')] }),
    ).toEqual({
      breaks: true,
      example: { status: 200, pointer: '/items/0/price', message: 'must be number (type)', value: '"12"' },
    });
    expect(
      driftVerdict({ status: 418, assertions: [schema(false, '/: status 418 is not documented (status)')] }),
    ).toEqual({
      breaks: true,
      example: { status: 418, pointer: '', message: 'status 418 is not documented (status)', value: '' },
    });
  });

  it('says nothing without an answer, without a schema assertion, or when the spec’s schema cannot be compiled', () => {
    expect(driftVerdict({ assertions: [schema(false, null)] })).toBeNull();
    expect(driftVerdict({ status: 200, assertions: [] })).toBeNull();
    expect(driftVerdict({ status: 200 })).toBeNull();
    expect(
      driftVerdict({
        status: 200,
        assertions: [schema(false, "/: the spec's schema cannot be compiled: can't resolve reference (schema)")],
      }),
    ).toBeNull();
    expect(
      driftVerdict({
        status: 200,
        assertions: [schema(false, '/: the body is longer than the 64 KB a check reads (size)')],
      }),
    ).toBeNull();
  });

  it('names an operation by its route, and by its id when it has one', () => {
    expect(operationLabel({ operation_id: 'GET /items', method: 'GET', path: '/items' })).toBe('GET /items');
    expect(operationLabel({ operation_id: 'listItems', method: 'GET', path: '/items' })).toBe('listItems (GET /items)');
  });
});
