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
