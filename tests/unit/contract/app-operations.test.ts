import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operationsAsData } from '../../../scripts/app-operations.js';
import type { Operation } from '../../../src/contract/operation.js';

const DIR = new URL('../../../src/contract/operations/', import.meta.url);
const modules = readdirSync(DIR).filter((name) => name.endsWith('.ts'));

/** Every operation under `tree` (a module's exports, a group, a group of groups), by its path of keys. */
function operationsIn(tree: object, at: string[] = []): Array<[string[], Operation]> {
  if ('id' in tree && 'path' in tree) return [[at, tree as Operation]];
  return Object.entries(tree).flatMap(([key, member]) => operationsIn(member as object, [...at, key]));
}

function memberAt(tree: unknown, at: string[]): unknown {
  return at.reduce((member, key) => (member as Record<string, unknown> | undefined)?.[key], tree);
}

/** What the app reads of an operation at run time (the API client, the outbox), and its flags. */
const called = ({ id, method, path, paged, consumes }: Operation) => ({ id, method, path, paged, consumes });

describe("the app's build of the operations (scripts/app-operations.ts)", () => {
  it.each(modules)('%s: keeps what the app calls an operation by, without a schema, or is as written', async (name) => {
    const exports = (await import(new URL(name, DIR).href)) as Record<string, unknown>;
    const data = operationsAsData(exports);
    if (name === 'index.ts') {
      // Its list of every operation is not a group: bundled as written (the app does not import it).
      expect(data).toBeNull();
      return;
    }
    expect(data).not.toBeNull();
    const operations = operationsIn(exports);
    expect(operations.length).toBeGreaterThan(0);
    for (const [at, operation] of operations)
      expect(called(memberAt(data, at) as Operation)).toEqual(called(operation));
    expect(JSON.stringify(data)).not.toContain('_zod');
  });
});
