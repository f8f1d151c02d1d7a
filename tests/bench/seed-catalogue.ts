/**
 * The catalogue the catalogue benches read: 2,000 users (USERS), 500 teams (TEAMS) of four members each (the owner
 * an admin of five), and `services` services spread over the teams, one in ten visible to its team only.
 */
import { randomUUID } from 'node:crypto';
import { HEALTHS, STAGES, VISIBILITIES } from '../../src/domain/catalogue.js';
import type { ServerContext } from '../../src/server/context.js';
import { insertInBatches } from './harness.js';
import { LAST_NAMES, seedUsers } from './seed-users.js';

export const USERS = 2000;
export const TEAMS = 500;

// prettier-ignore
export const NOUNS = ['payments', 'search', 'billing', 'ledger', 'gateway', 'catalog', 'inventory', 'identity', 'mailer', 'reports', 'pricing', 'checkout', 'profile', 'media', 'events', 'audit', 'scheduler', 'export', 'import', 'ranking'];
// prettier-ignore
export const KINDS = ['api', 'worker', 'ui', 'db', 'cache', 'queue', 'proxy', 'sync', 'batch', 'stream'];

export async function seedCatalogue(ctx: ServerContext, workspaceId: string, ownerId: string, serviceCount: number) {
  const users = await seedUsers(ctx, workspaceId, USERS);
  const now = new Date().toISOString();
  const teams = Array.from({ length: TEAMS }, (_, i) => {
    const last = LAST_NAMES[i % LAST_NAMES.length]!;
    return {
      id: randomUUID(),
      workspace_id: workspaceId,
      handle: `${last.toLowerCase()}-team-${i}`,
      name: `${last} Team ${i}`,
      description: i % 2 === 0 ? `Builds and runs the ${NOUNS[i % NOUNS.length]} services.` : null,
      icon_asset_id: null,
      parent_id: null,
      created_at: now,
    };
  });
  await insertInBatches(ctx, 'teams', teams);
  // Four members a team, the first an admin; the owner belongs to a few teams like a real lead would.
  const members = teams.flatMap((team, t) =>
    [0, 1, 2, 3].map((k) => ({
      workspace_id: workspaceId,
      team_id: team.id,
      user_id: users[(t * 4 + k) % users.length]!.id!,
      role: k === 0 ? 'admin' : 'member',
      created_at: now,
    })),
  );
  members.push(
    ...teams.slice(0, 5).map((team) => ({
      workspace_id: workspaceId,
      team_id: team.id,
      user_id: ownerId,
      role: 'admin',
      created_at: now,
    })),
  );
  await insertInBatches(ctx, 'team_members', members);
  const services = Array.from({ length: serviceCount }, (_, i) => {
    const noun = NOUNS[i % NOUNS.length]!;
    const kind = KINDS[Math.floor(i / NOUNS.length) % KINDS.length]!;
    return {
      id: randomUUID(),
      workspace_id: workspaceId,
      handle: `${noun}-${kind}-${i}`,
      name: `${noun[0]!.toUpperCase()}${noun.slice(1)} ${kind.toUpperCase()} ${i}`,
      description: `The ${kind} that serves ${noun} for the ${teams[i % TEAMS]!.name}.`,
      icon_asset_id: null,
      owner_team_id: teams[i % TEAMS]!.id,
      // One service in ten is visible to its owning team only.
      visibility: i % 10 === 0 ? 'owner' : VISIBILITIES[i % 2]!,
      stage: STAGES[i % STAGES.length]!,
      health: HEALTHS[i % HEALTHS.length]!,
      links: '[]',
      starred_count: 0,
      created_at: now,
      updated_at: now,
    };
  });
  await insertInBatches(ctx, 'services', services, 100);
  return { users, teams, services };
}
