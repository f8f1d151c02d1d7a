import 'fake-indexeddb/auto';
import { afterEach } from 'vitest';
import { deleteLocalDb, openLocalDb, type LocalDb } from '../../../src/local/db.js';

let counter = 0;
const opened: Array<[string, string]> = [];

/** A fresh local database for one test (deleted after it). */
export function freshDb(): LocalDb {
  const handle = `user${++counter}-${Math.random().toString(36).slice(2, 8)}`;
  opened.push(['acme', handle]);
  return openLocalDb('acme', handle);
}

afterEach(async () => {
  for (const [workspace, handle] of opened.splice(0)) await deleteLocalDb(workspace, handle);
});

/**
 * A write for the outbox's own tests: the outbox is generic over kinds and operations, so these entries carry
 * only a path-like name to tell them apart (and a body when one is given).
 */
export function testWrite(path: string, body?: unknown) {
  return { kind: 'test', operation: 'test', input: body === undefined ? { path } : { path, body } };
}

/** The name a {@link testWrite} entry was made with. */
export function pathOf(entry: { input: unknown }): string {
  return (entry.input as { path: string }).path;
}
