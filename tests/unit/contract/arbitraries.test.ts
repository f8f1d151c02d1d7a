/**
 * The fuzzer's converter (tests/support/arbitraries.ts) over every input schema of the API: what `validOf`
 * makes, the schema accepts; what `invalidOf` makes, it refuses, with every kind of mutation showing up.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allOperations } from '../../../src/contract/operations/index.js';
import { invalidOf, validOf, type MutationKind } from '../../support/arbitraries.js';

const inputs = allOperations.flatMap((operation) =>
  (['params', 'query', 'body'] as const).flatMap((part) =>
    operation[part]
      ? [{ name: `${operation.id} ${part}`, schema: operation[part]!, scalarsOnly: part !== 'body' }]
      : [],
  ),
);

describe('arbitraries from zod schemas', () => {
  it('make valid inputs for every input schema of the API', () => {
    const refused: string[] = [];
    for (const { name, schema } of inputs) {
      for (const value of fc.sample(validOf(schema), { seed: 7, numRuns: 100 })) {
        const result = schema.safeParse(value);
        if (!result.success) refused.push(`${name}: ${JSON.stringify(value)}: ${result.error.issues[0]?.message}`);
      }
    }
    // Refinements the converter does not model (each scope once) may refuse a few.
    expect(refused.length, refused.slice(0, 5).join('\n')).toBeLessThanOrEqual(inputs.length);
  });

  it('make invalid inputs the schemas refuse, of every kind', () => {
    const kinds = new Set<MutationKind>();
    for (const { name, schema, scalarsOnly } of inputs) {
      for (const mutation of fc.sample(invalidOf(schema, { scalarsOnly }), { seed: 7, numRuns: 50 })) {
        kinds.add(mutation.kind);
        expect(schema.safeParse(mutation.value).success, `${name} ${mutation.kind} ${mutation.path}`).toBe(false);
      }
    }
    expect([...kinds].sort()).toEqual(
      [
        'control-character',
        'line-break',
        'missing-field',
        'not-a-member',
        'not-an-integer',
        'nul',
        'out-of-range',
        'too-long',
        'too-many',
        'too-short',
        'unknown-field',
        'wrong-type',
      ].sort(),
    );
  });
});
