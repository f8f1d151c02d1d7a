/**
 * `npm run bench:api`: with 2,000 users, GET /api/search/users?limit=20&q=... and GET /api/users/{handle},
 * each against a bare Fastify route serving the same bytes (see harness.ts for the settings).
 * BENCH_QUERY changes the search text (default `garcia`: about 1 user in 20 matches, so the page is full).
 */
import { runBench } from './harness.js';
import { seedUsers } from './seed-users.js';

const USERS = 2000;
const QUERY = process.env.BENCH_QUERY ?? 'garcia';

await runBench(`Beacon API bench (${USERS} users)`, async (ctx, workspaceId) => {
  const users = await seedUsers(ctx, workspaceId, USERS);
  return [
    { name: 'search users', path: `/api/search/users?limit=20&q=${encodeURIComponent(QUERY)}` },
    // A member in the middle of the table, not the owner the token belongs to.
    { name: 'get user', path: `/api/users/${users[USERS / 2]!.handle}` },
  ];
});
