import { randomUUID } from 'node:crypto';
import { isoNow, type ServerContext } from '../context.js';
import { findUserByEmail, insertUser, newUserRow, updateUser } from '../db/repositories/users.js';
import { findWorkspaceByDomain, insertWorkspace } from '../db/repositories/workspaces.js';
import type { Health, Stage, Visibility } from '../../domain/catalogue.js';
import type { WorkspaceRow } from '../db/schema.js';
import { changeService, createService, updateServiceFields } from './catalogue-services.js';
import { hashPassword } from './secrets.js';
import { starService } from './stars.js';
import { createTeam, searchTeams, updateTeam } from './teams.js';

export const DEMO_LOGIN = { workspace: 'demo', email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' } as const;

/** Seeds (or refreshes) the `demo` workspace with its owner; safe to run again. */
export async function seedDemo(ctx: ServerContext): Promise<typeof DEMO_LOGIN> {
  const { db } = ctx.database;
  const now = isoNow(ctx);
  let workspace = await findWorkspaceByDomain(db, DEMO_LOGIN.workspace);
  if (!workspace) {
    workspace = {
      id: randomUUID(),
      domain: DEMO_LOGIN.workspace,
      name: 'Demo',
      status: 'active',
      login: null,
      created_at: now,
    };
    await insertWorkspace(db, workspace);
  }
  const passwordHash = await hashPassword(DEMO_LOGIN.password);
  const owner = await findUserByEmail(db, workspace.id, DEMO_LOGIN.email);
  if (owner) {
    await updateUser(db, workspace.id, owner.id, { password_hash: passwordHash, role: 'owner', super_admin: 1 });
  } else {
    await insertUser(
      db,
      newUserRow({
        workspace_id: workspace.id,
        handle: 'demo-owner',
        name: 'Dana Demo',
        email: DEMO_LOGIN.email,
        password_hash: passwordHash,
        bio: 'Owner of the demo workspace.',
        description: 'Platform lead',
        role: 'owner',
        super_admin: 1,
        created_at: now,
      }),
    );
  }
  await seedDemoCatalogue(ctx, workspace);
  return DEMO_LOGIN;
}

interface DemoService {
  team: string;
  name: string;
  handle: string;
  description: string;
  stage: Stage;
  health: Health;
  visibility?: Visibility;
}

const DEMO_TEAMS = [
  { name: 'Platform', handle: 'platform', description: 'Runs the shared infrastructure every team builds on.' },
  { name: 'Payments', handle: 'payments', description: 'Takes the money, safely.' },
  { name: 'Growth', handle: 'growth', description: 'Search, recommendations and the storefront.' },
];

const DEMO_SERVICES: DemoService[] = [
  {
    team: 'platform',
    name: 'API Gateway',
    handle: 'api-gateway',
    description: 'Routes and authenticates every public request.',
    stage: 'live',
    health: 'good',
  },
  {
    team: 'platform',
    name: 'Identity',
    handle: 'identity',
    description: 'Accounts, sessions and single sign-on.',
    stage: 'live',
    health: 'good',
  },
  {
    team: 'platform',
    name: 'Message Bus',
    handle: 'message-bus',
    description: 'Events between services.',
    stage: 'live',
    health: 'maintenance',
  },
  {
    team: 'payments',
    name: 'Checkout',
    handle: 'checkout',
    description: 'Turns a basket into an order.',
    stage: 'live',
    health: 'warning',
  },
  {
    team: 'payments',
    name: 'Ledger',
    handle: 'ledger',
    description: 'The book of record for every payment.',
    stage: 'live',
    health: 'good',
    visibility: 'owner',
  },
  {
    team: 'payments',
    name: 'Legacy Billing',
    handle: 'legacy-billing',
    description: 'Invoices for the old plans.',
    stage: 'eol',
    health: 'error',
  },
  {
    team: 'growth',
    name: 'Search',
    handle: 'search',
    description: 'Finds products as you type.',
    stage: 'live',
    health: 'good',
  },
  {
    team: 'growth',
    name: 'Recommendations',
    handle: 'recommendations',
    description: 'What to look at next.',
    stage: 'development',
    health: 'good',
  },
];

/**
 * Teams and services for a new demo workspace, created through the same business rules as the API (as its
 * owner). Skipped when the workspace has teams already, so running `beacon demo` again changes nothing.
 */
async function seedDemoCatalogue(ctx: ServerContext, workspace: WorkspaceRow): Promise<void> {
  const user = await findUserByEmail(ctx.database.db, workspace.id, DEMO_LOGIN.email);
  if (!user) return;
  const caller = { workspace, user };
  if ((await searchTeams(ctx, caller, { cursor: 0, limit: 1 })).total > 0) return;
  for (const team of DEMO_TEAMS) {
    await createTeam(ctx, caller, { name: team.name, handle: team.handle });
    await updateTeam(ctx, caller, team.handle, { description: team.description });
  }
  for (const service of DEMO_SERVICES) {
    await createService(ctx, caller, service.team, { name: service.name, handle: service.handle });
    await updateServiceFields(ctx, caller, service.handle, { description: service.description });
    await changeService(ctx, caller, service.handle, { stage: service.stage });
    await changeService(ctx, caller, service.handle, { health: service.health });
    if (service.visibility) await changeService(ctx, caller, service.handle, { visibility: service.visibility });
  }
  await starService(ctx, caller, user.handle, 'checkout');
}
