import { defineConfig } from 'vitest/config';

/**
 * `npm test` runs every suite: unit tests once, API tests on the embedded SQLite and again on PostgreSQL
 * (BEACON_TEST_DATABASE_URL, default the local server), each test file in its own fresh database or schema.
 */
export default defineConfig({
  test: {
    testTimeout: 20000,
    hookTimeout: 30000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'] } },
      {
        extends: true,
        test: { name: 'api-sqlite', include: ['tests/api/**/*.test.ts'], env: { BEACON_TEST_ENGINE: 'sqlite' } },
      },
      {
        extends: true,
        test: { name: 'api-postgres', include: ['tests/api/**/*.test.ts'], env: { BEACON_TEST_ENGINE: 'postgres' } },
      },
      {
        extends: true,
        // One server and one browser at a time: the machines have two cores.
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 60000,
          hookTimeout: 60000,
        },
      },
    ],
  },
});
