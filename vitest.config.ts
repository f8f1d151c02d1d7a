import { defineConfig } from 'vitest/config';

/**
 * `npm test` runs every suite: unit tests once, API tests on the embedded SQLite and again on PostgreSQL
 * (BEACON_TEST_DATABASE_URL, default the local server), each test file in its own fresh database or schema, then
 * the browser tests, two files at a time, each with its own server and browser (they wait on the browser more
 * than they work: one at a time left a core idle; beside the API tests their timings do not hold).
 *
 * Two workers: vitest's default on a 2-core machine is one (cores - 1), which left a core idle. The API files
 * share one module graph per worker (`isolate: false`): they import the whole server, which took a fifth of
 * the run to load again for each file; each file still builds its own server on its own database, and none mocks
 * a module or changes the environment.
 */
export default defineConfig({
  test: {
    maxWorkers: 2,
    testTimeout: 20000,
    hookTimeout: 30000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'] } },
      {
        extends: true,
        test: {
          name: 'api-sqlite',
          include: ['tests/api/**/*.test.ts'],
          env: { BEACON_TEST_ENGINE: 'sqlite' },
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'api-postgres',
          include: ['tests/api/**/*.test.ts'],
          env: { BEACON_TEST_ENGINE: 'postgres' },
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          maxWorkers: 2,
          testTimeout: 60000,
          hookTimeout: 60000,
        },
      },
    ],
  },
});
