/**
 * `npm run bench:graph` (server part): with 10,000 services and 30,000 dependencies, GET
 * /api/services/{hub}/graph?depth=3 for a hub service (the one most services depend on, as a message bus or an
 * identity service is), as it is (about 400 KB) and brotli-compressed as a browser asks for it, and the same for
 * a leaf, each against a bare Fastify route serving the same bytes (see harness.ts for the settings). Answers come
 * from the graph cache after the first (cache/graph-cache.ts). Target (issue 13): p99 under 50 ms at 50
 * connections, on both engines.
 */
import { random } from '../support/random.js';
import { graphServices, insertDependencies, insertInBatches, runBench, teamRows } from './harness.js';

const TEAMS = 100;
const SERVICES = 10_000;
const DEPENDENCIES = 30_000;

await runBench(`Beacon graph bench (${SERVICES} services, ${DEPENDENCIES} dependencies)`, async (ctx, workspaceId) => {
  const now = new Date().toISOString();
  const teams = teamRows(workspaceId, TEAMS, now);
  await insertInBatches(ctx, 'teams', teams);
  const services = graphServices(
    workspaceId,
    SERVICES,
    teams.map((team) => team.id),
    'service',
  );
  await insertInBatches(ctx, 'services', services, 100);
  // Each dependency's target is skewed towards the first services (the square of a uniform draw), so a few are
  // hubs many services depend on, as in real systems; service-0 is the largest hub.
  const next = random(13);
  const seen = new Set<string>();
  const links: Array<[number, number]> = [];
  while (links.length < DEPENDENCIES) {
    const from = Math.floor(next() * SERVICES);
    const to = Math.floor(next() ** 2 * SERVICES);
    const key = `${from}>${to}`;
    if (from === to || seen.has(key)) continue;
    seen.add(key);
    links.push([from, to]);
  }
  await insertDependencies(ctx, services, links);
  const hub = '/api/services/service-0/graph?depth=3';
  return [
    { name: 'graph hub depth 3', path: hub },
    // As the app asks from a browser: the same graph, brotli-compressed (once per graph version, then kept).
    { name: 'graph hub depth 3 (br)', path: hub, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } },
    { name: 'graph leaf depth 3', path: `/api/services/service-${SERVICES - 1}/graph?depth=3` },
  ];
});
