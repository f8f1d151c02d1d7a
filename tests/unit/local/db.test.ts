import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import { closeLocalDb, deleteLocalDb, localDbName, openLocalDb } from '../../../src/local/db.js';

describe('openLocalDb', () => {
  it('names the database after the workspace and the user, one instance per name', () => {
    expect(localDbName('Acme', 'Ann')).toBe('beacon-acme-ann');
    const db = openLocalDb('acme', 'ann');
    expect(db.name).toBe('beacon-acme-ann');
    expect(openLocalDb('acme', 'ann')).toBe(db);
    expect(openLocalDb('acme', 'bob')).not.toBe(db);
    expect(openLocalDb('globex', 'ann')).not.toBe(db);
    closeLocalDb('acme', 'ann');
    expect(openLocalDb('acme', 'ann')).not.toBe(db);
  });

  it('has the version 2 tables and keys', async () => {
    const db = openLocalDb('acme', 'schema');
    await db.open();
    expect(db.verno).toBe(2);
    const schema = Object.fromEntries(db.tables.map((t) => [t.name, t.schema.primKey.src]));
    expect(schema).toEqual({ queries: 'key', entities: '[type+id]', drafts: 'id', outbox: '++seq' });
    await db.entities.put({ type: 'service', id: 'payments', data: { name: 'Payments' }, updatedAt: 1 });
    await db.entities.put({ type: 'team', id: 'payments', data: { name: 'Payments team' }, updatedAt: 1 });
    expect(await db.entities.where('type').equals('service').count()).toBe(1);
    expect((await db.entities.get(['team', 'payments']))?.data).toEqual({ name: 'Payments team' });
    await deleteLocalDb('acme', 'schema');
  });

  it('carries version 1 stars in the outbox over as typed writes and drops the rest', async () => {
    const old = new Dexie(localDbName('acme', 'upgrade'));
    old.version(1).stores({
      queries: 'key, updatedAt',
      entities: '[type+id], type, updatedAt',
      drafts: 'id, updatedAt',
      outbox: '++seq, status',
    });
    const base = { createdAt: 1, status: 'pending', attempts: 0, label: 'x' };
    await old.table('outbox').bulkAdd([
      { ...base, key: 'k1', method: 'PUT', path: '/users/mia/starred/pay%20ments' },
      { ...base, key: 'k2', method: 'DELETE', path: '/users/mia/starred/search' },
      { ...base, key: 'k3', method: 'POST', path: '/teams/core/mute' },
    ]);
    await old.table('entities').put({ type: 'star', id: 'search', data: { starred: false }, updatedAt: 1 });
    old.close();

    const db = openLocalDb('acme', 'upgrade');
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map(({ key, kind, operation, input }) => ({ key, kind, operation, input }))).toEqual([
      {
        key: 'k1',
        kind: 'star',
        operation: 'starService',
        input: { params: { username: 'mia', service: 'pay ments' } },
      },
      {
        key: 'k2',
        kind: 'unstar',
        operation: 'unstarService',
        input: { params: { username: 'mia', service: 'search' } },
      },
    ]);
    expect(entries[0]).not.toHaveProperty('path');
    expect(await db.entities.count()).toBe(0);
    await deleteLocalDb('acme', 'upgrade');
  });

  it('keeps the data of two users apart and deletes one', async () => {
    const ann = openLocalDb('acme', 'ann2');
    const bob = openLocalDb('acme', 'bob2');
    await ann.drafts.put({ id: 'd1', data: { title: 'mine' }, updatedAt: 1 });
    expect(await bob.drafts.count()).toBe(0);
    await deleteLocalDb('acme', 'ann2');
    expect(await openLocalDb('acme', 'ann2').drafts.count()).toBe(0);
    await deleteLocalDb('acme', 'ann2');
    await deleteLocalDb('acme', 'bob2');
  });
});
