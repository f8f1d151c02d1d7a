/**
 * Every string an operation accepts (path, query, body, headers) refuses control characters: it is built with
 * `line()` or `text()` from contract/common.ts, or is a format whose own pattern allows none (ISO times). A
 * bare `z.string()` in an input fails here, naming the operation and the field.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { line, multiLine, singleLine, text } from '../../../src/contract/common.js';
import type { Operation } from '../../../src/contract/operation.js';
import { defOf, walkSchema } from '../../support/arbitraries.js';

/** Every operation declared, registered or not (pages and feeds are declared ahead of the server). */
const groups = import.meta.glob<Record<string, unknown>>('../../../src/contract/operations/*.ts', { eager: true });
const declared = Object.values(groups)
  .flatMap((module) => Object.values(module))
  .filter((group): group is Record<string, Operation> => typeof group === 'object' && group !== null)
  .flatMap((group) => Object.values(group))
  .filter((operation): operation is Operation => typeof operation?.id === 'string' && 'method' in operation);
const operations = [...new Map(declared.map((operation) => [operation.id, operation])).values()];

/** Formats whose pattern is anchored and has no room for a control character. */
const CLOSED_FORMATS = new Set(['datetime', 'date', 'time', 'uuid']);

function guarded(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if (CLOSED_FORMATS.has(def.format as string)) return true;
  return (def.checks ?? []).some((check) => (check as unknown) === singleLine || (check as unknown) === multiLine);
}

describe('strings in the contract', () => {
  it('finds the operations', () => {
    expect(operations.length).toBeGreaterThan(60);
    expect(operations.map((operation) => operation.id)).toContain('updateDraftPage');
  });

  it('refuse control characters in every input string', () => {
    const bare: string[] = [];
    for (const operation of operations) {
      for (const part of ['params', 'query', 'body', 'headers'] as const) {
        const schema = operation[part];
        if (!schema) continue;
        walkSchema(schema, (inner, path) => {
          if (defOf(inner).type === 'string' && !guarded(inner)) bare.push(`${operation.id} ${part} ${path}`);
        });
      }
    }
    expect(bare).toEqual([]);
  });

  it('line() refuses every control character; text() allows tabs and line breaks only', () => {
    for (const control of ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u009f']) {
      expect(line().safeParse(`a${control}b`).success, JSON.stringify(control)).toBe(false);
      expect(text().safeParse(`a${control}b`).success, JSON.stringify(control)).toBe(false);
    }
    for (const separator of ['\t', '\n', '\r\n']) {
      expect(line().safeParse(`a${separator}b`).success).toBe(false);
      expect(text().safeParse(`a${separator}b`).success).toBe(true);
    }
    expect(line().safeParse('Zoë’s café ✓ 🚀').success).toBe(true);
  });
});
