import { randomUUID } from 'node:crypto';
import { isoNow, type ServerContext } from '../context.js';
import { hasHealthChecks } from '../db/repositories/health.js';
import { findUserByEmail, insertUser, newUserRow, updateUser } from '../db/repositories/users.js';
import { findWorkspaceByDomain, insertWorkspace } from '../db/repositories/workspaces.js';
import type { Stage, Visibility } from '../../domain/catalogue.js';
import { MS_PER_DAY } from '../../domain/health.js';
import type { NoticeCreate, NoticeUpdate } from '../../contract/notices.js';
import type { WorkspaceRow } from '../db/schema.js';
import type { HealthCheckCreate } from '../../contract/health.js';
import { demoTargetPorts, type DemoTargetPorts } from './target.js';
import { createHealthCheck } from '../services/health/health.js';
import { createDraftPage, publishDraftPage } from '../services/pages/pages.js';
import { listSpecProbes } from '../services/health/spec-checks.js';
import { DEMO_SPEC, demoOrdersSpec } from './orders-api.js';
import { changeService, createService, updateServiceFields } from '../services/catalogue/services.js';
import { addDependency, addRemoteDependency, linkRemote } from '../services/catalogue/dependencies.js';
import { createNotice, updateNotice } from '../services/notices/notices.js';
import type { Caller } from '../services/accounts/auth.js';
import { hashPassword } from '../crypto/secrets.js';
import { starService } from '../services/catalogue/stars.js';
import { createTeam, searchTeams, updateTeam } from '../services/catalogue/teams.js';
import { seedCloudOutage, seedDemoShowcase } from './showcase.js';

export const DEMO_LOGIN = { workspace: 'demo', email: 'owner@demo.beacon.test', password: 'Beacon-demo-1' } as const;

/** The linked workspace of the demo: a cloud provider whose public services the demo's services depend on. */
export const DEMO_REMOTE = { workspace: 'demo-cloud', email: 'owner@demo-cloud.beacon.test' } as const;

/** The workspace `domain` and its owner (password `password`), made or refreshed. */
async function ensureWorkspace(
  ctx: ServerContext,
  domain: string,
  name: string,
  owner: { email: string; handle: string; name: string; bio: string },
  password: string,
): Promise<WorkspaceRow> {
  const { db } = ctx.database;
  const now = isoNow(ctx);
  let workspace = await findWorkspaceByDomain(db, domain);
  if (!workspace) {
    workspace = { id: randomUUID(), domain, name, status: 'active', login: null, created_at: now };
    await insertWorkspace(db, workspace);
  }
  const passwordHash = await hashPassword(password);
  const found = await findUserByEmail(db, workspace.id, owner.email);
  if (found) {
    await updateUser(db, workspace.id, found.id, { password_hash: passwordHash, role: 'owner', super_admin: 1 });
  } else {
    await insertUser(
      db,
      newUserRow({
        workspace_id: workspace.id,
        handle: owner.handle,
        name: owner.name,
        email: owner.email,
        password_hash: passwordHash,
        bio: owner.bio,
        description: 'Platform lead',
        role: 'owner',
        super_admin: 1,
        created_at: now,
      }),
    );
  }
  return workspace;
}

/** Seeds (or refreshes) the `demo` workspace with its owner, and the cloud workspace it is linked to; safe to run again. */
export async function seedDemo(ctx: ServerContext): Promise<typeof DEMO_LOGIN> {
  const cloud = await ensureWorkspace(
    ctx,
    DEMO_REMOTE.workspace,
    'Demo Cloud',
    { email: DEMO_REMOTE.email, handle: 'cloud-owner', name: 'Casey Cloud', bio: 'Runs the demo cloud.' },
    DEMO_LOGIN.password,
  );
  await seedDemoCloud(ctx, cloud);
  const workspace = await ensureWorkspace(
    ctx,
    DEMO_LOGIN.workspace,
    'Demo',
    { email: DEMO_LOGIN.email, handle: 'demo-owner', name: 'Dana Demo', bio: 'Owner of the demo workspace.' },
    DEMO_LOGIN.password,
  );
  await seedDemoCatalogue(ctx, workspace);
  const owner = await findUserByEmail(ctx.database.db, workspace.id, DEMO_LOGIN.email);
  if (owner) await seedDemoShowcase(ctx, { workspace, user: owner });
  await seedDemoChecks(ctx, workspace);
  return DEMO_LOGIN;
}

/**
 * Checks of every kind against the demo target (target.ts), each showing something: a JSON health answer
 * whose version moves, an endpoint now and then too slow, a certificate ten days from running out, a port that
 * greets, and a heartbeat the target pings. Made once, when the demo workspace has no checks and the target is
 * served (BEACON_DEMO_TARGET_PORT, which `npm run demo` sets).
 */
function demoChecks(ports: DemoTargetPorts): { service: string; check: HealthCheckCreate }[] {
  const base = { runner: null, frequency: 15, timeout: 3, allowed_failures: 0, disabled: false, paused: false };
  const http = `http://localhost:${ports.http}`;
  const check = (service: string, fields: Partial<HealthCheckCreate> & Pick<HealthCheckCreate, 'name' | 'kind'>) => ({
    service,
    check: { ...base, endpoint: '', importance: 'warning' as const, retries: 0, recover_after: 1, ...fields },
  });
  return [
    check('checkout', {
      name: 'Health endpoint',
      kind: 'http',
      endpoint: `${http}/health`,
      importance: 'error',
      assertions_text:
        'status in 200..299\njson:status == "UP"\njson:version changed warning\nlatency_ms < 800 warning',
    }),
    check('api-gateway', {
      name: 'Slow route',
      kind: 'http',
      endpoint: `${http}/slow`,
      assertions_text: 'status == 200\nlatency_ms < 1000 warning',
      recover_after: 2,
    }),
    check('identity', {
      name: 'Certificate',
      kind: 'tls',
      endpoint: `localhost:${ports.tls}`,
      frequency: 30,
      assertions_text: 'connected == true\ncert.days_left >= 14 warning',
    }),
    check('message-bus', {
      name: 'Broker port',
      kind: 'tcp',
      endpoint: `localhost:${ports.tcp}`,
      assertions_text: 'connected == true\nbody contains "220"',
      retries: 1,
    }),
    check('ledger', { name: 'Nightly reconciliation', kind: 'heartbeat', frequency: 60, grace: 30 }),
  ];
}

async function seedDemoChecks(ctx: ServerContext, workspace: WorkspaceRow): Promise<void> {
  // Without the target (`npm run demo` serves it) the checks would only fail: none then.
  if (ctx.config.demoTargetPort === null) return;
  const user = await findUserByEmail(ctx.database.db, workspace.id, DEMO_LOGIN.email);
  if (!user) return;
  if (await hasHealthChecks(ctx.database.db, workspace.id)) return;
  const caller = { workspace, user };
  const ports = demoTargetPorts(ctx.config.demoTargetPort);
  for (const { service, check } of demoChecks(ports)) await createHealthCheck(ctx, caller, service, check);
  await seedDemoSpecChecks(ctx, caller, ports);
}

/**
 * The demo API's spec published on Checkout, and a check made from each operation it proposes, as an editor
 * would through "Propose checks" (issue 30): one of them finds drift.
 */
async function seedDemoSpecChecks(ctx: ServerContext, caller: Caller, ports: DemoTargetPorts): Promise<void> {
  const service = 'checkout';
  const section = 'open-api-specs';
  const content = demoOrdersSpec(ports.http);
  await createDraftPage(ctx, caller, service, section, {
    handle: DEMO_SPEC.handle,
    version: DEMO_SPEC.version,
    content,
  });
  await publishDraftPage(ctx, caller, { service, section, handle: DEMO_SPEC.handle });
  const proposed = await listSpecProbes(ctx, caller, service, DEMO_SPEC.handle, {});
  for (const probe of proposed.probes) {
    if (probe.reason_skipped || !probe.url) continue;
    await createHealthCheck(ctx, caller, service, {
      name: probe.summary ?? probe.operation_id,
      kind: 'http',
      endpoint: probe.url,
      runner: null,
      frequency: 15,
      timeout: 3,
      allowed_failures: 0,
      importance: 'warning',
      disabled: false,
      paused: false,
      retries: 0,
      recover_after: 1,
      assertions: probe.assertions,
      spec: { page: DEMO_SPEC.handle, operation_id: probe.operation_id },
    });
  }
}

interface DemoService {
  team: string;
  name: string;
  handle: string;
  description: string;
  stage: Stage;
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
  },
  {
    team: 'platform',
    name: 'Identity',
    handle: 'identity',
    description: 'Accounts, sessions and single sign-on.',
    stage: 'live',
  },
  {
    team: 'platform',
    name: 'Message Bus',
    handle: 'message-bus',
    description: 'Events between services.',
    stage: 'live',
  },
  {
    team: 'payments',
    name: 'Checkout',
    handle: 'checkout',
    description: 'Turns a basket into an order.',
    stage: 'live',
  },
  {
    team: 'payments',
    name: 'Ledger',
    handle: 'ledger',
    description: 'The book of record for every payment.',
    stage: 'live',
    visibility: 'owner',
  },
  {
    team: 'payments',
    name: 'Legacy Billing',
    handle: 'legacy-billing',
    description: 'Invoices for the old plans.',
    stage: 'eol',
  },
  {
    team: 'growth',
    name: 'Search',
    handle: 'search',
    description: 'Finds products as you type.',
    stage: 'live',
  },
  {
    team: 'growth',
    name: 'Recommendations',
    handle: 'recommendations',
    description: 'What to look at next.',
    stage: 'development',
  },
];

/**
 * What happened to the demo services, oldest first, as notices (which set their health): so the overview, the
 * notices and the daily-health bars have something to show. Offsets are days (and hours) before now.
 */
const DEMO_STORY: Array<{
  service: string;
  daysAgo: number;
  hoursLater?: number;
  open?: Omit<NoticeCreate, 'service'>;
  update?: { title: string } & NoticeUpdate;
}> = [
  {
    service: 'search',
    daysAgo: 5,
    open: {
      type: 'incident',
      title: 'Search returns nothing',
      message: 'Empty results for every query.',
      health: 'critical',
    },
  },
  {
    service: 'search',
    daysAgo: 5,
    hoursLater: 2,
    update: {
      title: 'Search returns nothing',
      status: 'resolved',
      message: 'Index rebuilt; results are back.',
      health: 'good',
    },
  },
  {
    service: 'message-bus',
    daysAgo: 2,
    open: {
      type: 'maintenance',
      title: 'Broker upgrade',
      message: 'Rolling upgrade of the brokers to the new major version.',
    },
  },
  {
    service: 'legacy-billing',
    daysAgo: 1,
    open: {
      type: 'incident',
      title: 'Invoices fail to render',
      message: 'PDF invoices for old plans time out.',
      health: 'error',
    },
  },
  {
    service: 'message-bus',
    daysAgo: 0,
    hoursLater: -3,
    update: {
      title: 'Broker upgrade',
      status: 'in_progress',
      message: 'Half of the brokers are upgraded.',
      health: 'maintenance',
    },
  },
  {
    service: 'legacy-billing',
    daysAgo: 0,
    hoursLater: -2,
    update: {
      title: 'Invoices fail to render',
      status: 'identified',
      message: 'A font went missing in the last deploy.',
    },
  },
  {
    service: 'checkout',
    daysAgo: 0,
    hoursLater: -1,
    open: {
      type: 'incident',
      title: 'Card payments slow',
      message: 'Card payments take up to 20 s.',
      health: 'warning',
    },
  },
];

/** Who depends on whom in the demo: a real graph, with a cycle (identity and the message bus). */
const DEMO_DEPENDENCIES: Array<[string, string]> = [
  ['api-gateway', 'identity'],
  ['api-gateway', 'checkout'],
  ['api-gateway', 'search'],
  ['checkout', 'ledger'],
  ['checkout', 'identity'],
  ['checkout', 'message-bus'],
  ['ledger', 'message-bus'],
  ['legacy-billing', 'ledger'],
  ['search', 'message-bus'],
  ['recommendations', 'search'],
  ['recommendations', 'message-bus'],
  ['identity', 'message-bus'],
  ['message-bus', 'identity'],
];

/** The demo's services that depend on the cloud's public services (docs/decisions.md#graph). */
const DEMO_REMOTE_DEPENDENCIES: Array<[string, string]> = [
  ['message-bus', 'object-storage'],
  ['ledger', 'object-storage'],
  ['api-gateway', 'cloud-dns'],
];

/** The cloud's services: two public ones the demo may see, and an internal one it never does. */
const CLOUD_SERVICES: Array<{ name: string; handle: string; description: string; visibility: Visibility }> = [
  { name: 'Object Storage', handle: 'object-storage', description: 'Buckets of bytes.', visibility: 'public' },
  { name: 'Cloud DNS', handle: 'cloud-dns', description: 'Names to addresses.', visibility: 'public' },
  { name: 'Billing Engine', handle: 'billing-engine', description: 'Internal only.', visibility: 'workspace' },
];

async function seedDemoCloud(ctx: ServerContext, workspace: WorkspaceRow): Promise<void> {
  const user = await findUserByEmail(ctx.database.db, workspace.id, DEMO_REMOTE.email);
  if (!user) return;
  const caller = { workspace, user };
  if ((await searchTeams(ctx, caller, { cursor: 0, limit: 1 })).total > 0) return;
  await createTeam(ctx, caller, { name: 'Infrastructure', handle: 'infrastructure' });
  for (const service of CLOUD_SERVICES) {
    await createService(ctx, caller, 'infrastructure', { name: service.name, handle: service.handle });
    await updateServiceFields(ctx, caller, service.handle, { description: service.description });
    await changeService(ctx, caller, service.handle, { stage: 'live', visibility: service.visibility });
  }
  await changeService(ctx, caller, 'cloud-dns', { health: 'maintenance' });
  await seedCloudOutage(ctx, caller);
}

const HOUR_MS = 3_600_000;

/**
 * Teams and services for a new demo workspace, created through the same business rules as the API (as its
 * owner), two weeks back, then the story above. Skipped when the workspace has teams already, so running
 * `beacon demo` again changes nothing.
 */
async function seedDemoCatalogue(ctx: ServerContext, workspace: WorkspaceRow): Promise<void> {
  const user = await findUserByEmail(ctx.database.db, workspace.id, DEMO_LOGIN.email);
  if (!user) return;
  const caller = { workspace, user };
  if ((await searchTeams(ctx, caller, { cursor: 0, limit: 1 })).total > 0) return;
  const now = ctx.now().getTime();
  const at = (daysAgo: number, hoursLater = 0): ServerContext => ({
    ...ctx,
    now: () => new Date(now - daysAgo * MS_PER_DAY + hoursLater * HOUR_MS),
  });
  const past = at(14);
  for (const team of DEMO_TEAMS) {
    await createTeam(past, caller, { name: team.name, handle: team.handle });
    await updateTeam(past, caller, team.handle, { description: team.description });
  }
  for (const service of DEMO_SERVICES) {
    await createService(past, caller, service.team, { name: service.name, handle: service.handle });
    await updateServiceFields(past, caller, service.handle, { description: service.description });
    await changeService(past, caller, service.handle, { stage: service.stage });
    if (service.visibility) await changeService(past, caller, service.handle, { visibility: service.visibility });
  }
  const notices = new Map<string, string>();
  for (const step of DEMO_STORY) {
    const when = at(step.daysAgo, step.hoursLater);
    if (step.open) {
      const notice = await createNotice(when, caller, step.service, step.open);
      notices.set(notice.title, notice.id);
    } else if (step.update) {
      const { title, ...update } = step.update;
      await updateNotice(when, caller, notices.get(title)!, update);
    }
  }
  await starService(ctx, caller, user.handle, 'checkout');
  for (const [service, dependency] of DEMO_DEPENDENCIES) await addDependency(past, caller, service, dependency);
  await linkRemote(past, caller, DEMO_REMOTE.workspace);
  for (const [service, remote] of DEMO_REMOTE_DEPENDENCIES)
    await addRemoteDependency(past, caller, service, { workspace: DEMO_REMOTE.workspace, service: remote });
}
