import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_PREFIXES, LISTS, parseScope, scopeOf, type Scope } from '../../../../src/server/cache/scopes.js';
import { openDatabase, type DatabaseHandle } from '../../../../src/server/db/connect.js';
import { migrateToLatest } from '../../../../src/server/db/migrate.js';

/**
 * The change log's scopes are written by the migrations' triggers, in SQL: every string literal those triggers
 * log must be one cache/scopes.ts names, and every kind it names must be one a trigger logs.
 */
describe('the scope vocabulary and the change-log triggers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'beacon-scopes-'));
  let handle: DatabaseHandle;
  let literals: string[] = [];

  beforeAll(async () => {
    handle = openDatabase({ engine: 'sqlite', file: join(dir, 'beacon.sqlite') });
    await migrateToLatest(handle);
    const { rows } = await sql<{ sql: string }>`
      select sql from sqlite_master where type = 'trigger' and sql like '%catalogue_changes%'`.execute(handle.db);
    // Each trigger logs `select <scope> as scope`: the literals inside those selects.
    literals = rows.flatMap(({ sql: body }) =>
      [...body.matchAll(/select (.+?) as scope/gs)].flatMap(([, expression]) =>
        [...expression!.matchAll(/'([^']*)'/g)].map(([, literal]) => literal!),
      ),
    );
  });
  afterAll(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the triggers and their literals', () => {
    expect(literals.length).toBeGreaterThan(10);
  });

  /** The kind a trigger's literal starts (a prefix joined to a column) or is (a list, a list's searches). */
  function kindOf(literal: string): Scope['kind'] | null {
    const prefixed = Object.entries(ID_PREFIXES).find(([, prefix]) => prefix === literal);
    if (prefixed) return prefixed[0] as Scope['kind'];
    if (LISTS.some((list) => literal === `text:${list}:`)) return 'text';
    const { kind } = parseScope(literal);
    return kind === 'list' || kind === 'search' ? kind : null;
  }

  it('names every literal a trigger logs', () => {
    expect(literals.filter((literal) => kindOf(literal) === null)).toEqual([]);
  });

  it('has no kind that no trigger logs', () => {
    // A row's id is logged bare (`new.id`), with no literal.
    const logged = new Set<Scope['kind'] | null>(['row', ...literals.map(kindOf)]);
    expect([...logged].sort()).toEqual(
      ['client', 'list', 'member', 'members', 'row', 'search', 'session', 'stars', 'text', 'workspace'].sort(),
    );
  });

  it('reads back every scope it writes', () => {
    const scopes: Scope[] = [
      { kind: 'row', id: '0195f3c2-8d2e-7b1a-9c4d-5e6f7a8b9c0d' },
      ...LISTS.flatMap((list): Scope[] => [
        { kind: 'list', list },
        { kind: 'search', list },
        { kind: 'text', list, text: 'payments: the api' },
      ]),
      { kind: 'members', teamId: 't1' },
      { kind: 'member', userId: 'u1' },
      { kind: 'stars', userId: 'u1' },
      { kind: 'session', sessionId: 's1' },
      { kind: 'workspace', workspaceId: 'w1' },
      { kind: 'client', clientId: 'c1' },
    ];
    for (const scope of scopes) expect(parseScope(scopeOf(scope))).toEqual(scope);
  });
});
