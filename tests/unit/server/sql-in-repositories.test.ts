import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md#the-server-areas: all SQL lives in src/server/db/repositories/. Services, routes, jobs and the
 * rest call repository functions (and may open a transaction to pass to them) but build no query themselves.
 */
const SERVER = join(process.cwd(), 'src/server');
/** Kysely's builders and raw SQL: what only src/server/db may write. */
const QUERY_BUILDING =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql`|\bsql<|\bsql\.(raw|ref|table|id|lit|join)\(/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(SERVER, 'db') ? [] : sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(entry.name) ? [path] : [];
  });
}

describe('SQL lives in db/repositories', () => {
  it('no server file outside src/server/db builds a query', () => {
    const files = sourceFiles(SERVER);
    // The scan reads the server's files (the last four moved among them), so an empty answer means something.
    expect(files).toEqual(
      expect.arrayContaining(
        [
          'jobs/catalog-sync.ts',
          'jobs/maintenance-reminders.ts',
          'jobs/slo-alerts.ts',
          'services/descriptors/apply.ts',
        ].map((path) => join(SERVER, path)),
      ),
    );
    const building = files
      .filter((path) => QUERY_BUILDING.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SERVER, path).split('\\').join('/'));
    expect(building).toEqual([]);
  });

  it('the pattern sees a query', () => {
    expect(QUERY_BUILDING.test("await db.selectFrom('services').selectAll().execute();")).toBe(true);
    expect(QUERY_BUILDING.test('await sql`select 1`.execute(db);')).toBe(true);
    expect(QUERY_BUILDING.test('await db.transaction().execute((trx) => insertEvents(trx, events));')).toBe(false);
  });
});
