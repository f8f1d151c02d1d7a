/**
 * `npm run bench:graph` (server part): with 10,000 services and 30,000 dependencies, GET
 * /api/services/{hub}/graph?depth=3 for a hub service (the one most services depend on, as a message bus or an
 * identity service is), against a bare Fastify route serving the same bytes (see harness.ts for the settings).
 * Target (issue 13): p99 under 50 ms at 50 connections, on both engines.
 */
import { randomUUID } from 'node:crypto';
import { HEALTHS } from '../../src/domain/catalogue.js';
import { insertInBatches, runBench } from './harness.js';

const TEAMS = 100;
const SERVICES = 10_000;
const DEPENDENCIES = 30_000;

/** A small deterministic PRNG (mulberry32), so every run measures the same graph. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

await runBench(`Beacon graph bench (${SERVICES} services, ${DEPENDENCIES} dependencies)`, async (ctx, workspaceId) => {
  const now = new Date().toISOString();
  const teams = Array.from({ length: TEAMS }, (_, i) => ({
    id: randomUUID(),
    workspace_id: workspaceId,
    handle: `team-${i}`,
    name: `Team ${i}`,
    description: null,
    icon_asset_id: null,
    parent_id: null,
    created_at: now,
  }));
  await insertInBatches(ctx, 'teams', teams);
  const services = Array.from({ length: SERVICES }, (_, i) => ({
    id: randomUUID(),
    workspace_id: workspaceId,
    handle: `service-${i}`,
    name: `Service ${i}`,
    description: null,
    icon_asset_id: null,
    owner_team_id: teams[i % TEAMS]!.id,
    visibility: 'workspace',
    stage: 'live',
    health: HEALTHS[i % HEALTHS.length]!,
    links: '[]',
    starred_count: 0,
    created_at: now,
    updated_at: now,
  }));
  await insertInBatches(ctx, 'services', services, 100);
  // Each dependency's target is skewed towards the first services (a cube of a uniform draw), so a few are
  // hubs many services depend on, as in real systems; service-0 is the largest hub.
  const next = random(13);
  const seen = new Set<string>();
  const dependencies: Array<Record<string, string>> = [];
  while (dependencies.length < DEPENDENCIES) {
    const from = Math.floor(next() * SERVICES);
    const to = Math.floor(next() ** 2 * SERVICES);
    const key = `${from}>${to}`;
    if (from === to || seen.has(key)) continue;
    seen.add(key);
    dependencies.push({
      workspace_id: workspaceId,
      service_id: services[from]!.id,
      dependency_id: services[to]!.id,
      created_at: now,
    });
  }
  await insertInBatches(ctx, 'service_dependencies', dependencies, 200);
  return [
    { name: 'graph hub depth 3', path: '/api/services/service-0/graph?depth=3' },
    { name: 'graph leaf depth 3', path: `/api/services/service-${SERVICES - 1}/graph?depth=3` },
  ];
});
