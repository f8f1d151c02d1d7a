/**
 * Applying a catalogue plan (docs/decisions.md#catalogue-as-code): the writes of {@link planCatalog}'s answer, in one
 * transaction. Bulk where an import is bulk (10,000 services are inserted in runs of 500, their "created" events with
 * them); one event per changed entity otherwise, so watchers hear of a change made in a file as of one made by hand.
 */
import { randomUUID } from 'node:crypto';
import {
  CATALOG_CHECK_NAME,
  type CatalogPlan,
  type ServiceWrite,
  type SpecWrite,
  type TeamWrite,
} from '../../../domain/catalog-plan.js';
import { healthCheckCreate } from '../../../contract/health.js';
import type { Visibility } from '../../../domain/catalogue.js';
import { isoNow, type ServerContext } from '../../context.js';
import { replaceSourceEntities, listSourceEntities } from '../../db/repositories/catalog.js';
import { chunks } from '../../db/repositories/chunks.js';
import {
  deleteAllDependenciesOf,
  insertDependencies,
  insertRemoteDependencies,
} from '../../db/repositories/dependencies.js';
import { insertEvents } from '../../db/repositories/events.js';
import { recordEvent, type NewEvent } from '../events/record-event.js';
import { insertHealthCheck, retargetNamedCheck } from '../../db/repositories/health.js';
import { findServicePage, insertPage, insertRevision, writePublishedRevision } from '../../db/repositories/pages.js';
import { insertService, listServiceHandles, updateService } from '../../db/repositories/services.js';
import { insertServiceChannel, updateServiceChannel } from '../../db/repositories/slack.js';
import { upsertSlo } from '../../db/repositories/slos.js';
import {
  deletePlainMembers,
  insertMembersIfMissing,
  insertTeam,
  listTeamKeys,
  updateTeam,
} from '../../db/repositories/teams.js';
import { listUsersByHandles } from '../../db/repositories/users.js';
import type { CatalogEntityRow, CatalogSourceRow } from '../../db/schema.js';
import type { Db } from '../../db/repositories/workspaces.js';
import type { Agent } from '../accounts/agents.js';
import { agentColumns } from '../accounts/agents.js';
import { newCheckRow } from '../health/health.js';
import { recordPagePublished } from '../pages/pages.js';

const BATCH = 500;

interface Ids {
  teams: Map<string, { id: string; default_visibility: Visibility }>;
  services: Map<string, string>;
}

async function idsOf(trx: Db, workspaceId: string): Promise<Ids> {
  const [teams, services] = await Promise.all([listTeamKeys(trx, workspaceId), listServiceHandles(trx, workspaceId)]);
  return {
    teams: new Map(teams.map((t) => [t.handle, { id: t.id, default_visibility: t.default_visibility }])),
    services: new Map(services.map((s) => [s.handle, s.id])),
  };
}

/** What the caller tells the rest of the server once the plan's transaction has committed. */
export interface Written {
  /** Users whose team memberships changed (their cached viewer is stale). */
  users: string[];
  /** Whether health checks were made or retargeted (the shared runner reloads them). */
  checks: boolean;
}

/** The plan's writes and, for a source, how each of its entities stands. */
export async function writePlan(
  ctx: ServerContext,
  trx: Db,
  workspaceId: string,
  agent: Agent,
  plan: CatalogPlan,
  source: CatalogSourceRow | null,
): Promise<Written> {
  const now = isoNow(ctx);
  const event = { workspace_id: workspaceId, ...agentColumns(agent), created_at: now };
  const teamWrites = plan.writes.filter((w): w is TeamWrite => w.kind === 'team');
  const serviceWrites = plan.writes.filter((w): w is ServiceWrite => w.kind === 'service');

  // Teams: created without parents first, so a parent may be one the same plan creates.
  const createdTeams = teamWrites.filter((w) => w.action === 'create').map((w) => ({ ...w, id: randomUUID() }));
  for (const batch of chunks(createdTeams, BATCH)) {
    await insertTeam(
      trx,
      batch.map((w) => ({
        id: w.id,
        workspace_id: workspaceId,
        handle: w.handle,
        name: w.name,
        description: w.description,
        icon_asset_id: null,
        parent_id: null,
        created_at: now,
      })),
    );
    await insertCreatedEvents(
      trx,
      batch.map((w) => ({ ...event, profile_type: 'team', profile_id: w.id, type: 'team.created', data: {} })),
    );
  }
  let ids = await idsOf(trx, workspaceId);
  const teamId = (handle: string | null) => (handle === null ? null : (ids.teams.get(handle)?.id ?? null));
  for (const w of [...createdTeams, ...teamWrites.filter((w) => w.action === 'update')]) {
    const patch = {
      ...(w.action === 'update' ? { handle: w.handle, name: w.name, description: w.description } : {}),
      parent_id: teamId(w.parent),
    };
    if (w.action === 'create' && patch.parent_id === null) continue;
    await updateTeam(trx, workspaceId, w.id!, patch);
  }
  if (teamWrites.some((w) => w.action === 'update' && w.handle !== undefined)) ids = await idsOf(trx, workspaceId);
  const users = await writeMembers(trx, workspaceId, teamWrites, ids, agent, now);

  // Services.
  const createdServices = serviceWrites.filter((w) => w.action === 'create').map((w) => ({ ...w, id: randomUUID() }));
  for (const batch of chunks(createdServices, BATCH)) {
    await insertService(
      trx,
      batch.map((w) => {
        const owner = ids.teams.get(w.owner)!;
        return {
          id: w.id,
          workspace_id: workspaceId,
          handle: w.handle,
          name: w.name,
          description: w.description,
          icon_asset_id: null,
          owner_team_id: owner.id,
          visibility: w.visibility ?? owner.default_visibility,
          stage: w.stage,
          health: 'good' as const,
          links: JSON.stringify(w.links),
          created_at: now,
          updated_at: now,
        };
      }),
    );
    await insertCreatedEvents(
      trx,
      batch.map((w) => ({ ...event, profile_type: 'service', profile_id: w.id, type: 'service.created', data: {} })),
    );
  }
  for (const w of createdServices) ids.services.set(w.handle, w.id);
  const updatedServices = serviceWrites.filter((w) => w.action === 'update');
  const changes = new Map(plan.changes.map((c) => [`${c.kind}:${c.handle}`, c]));
  for (const w of updatedServices) {
    const fields = (changes.get(`service:${w.handle}`)?.diff ?? []).map((d) => d.field);
    const owner = ids.teams.get(w.owner)!;
    await updateService(trx, workspaceId, w.id!, {
      handle: w.handle,
      name: w.name,
      description: w.description,
      owner_team_id: owner.id,
      stage: w.stage,
      ...(w.visibility ? { visibility: w.visibility } : {}),
      links: JSON.stringify(w.links),
      updated_at: now,
    });
    const base = { ...event, profile_type: 'service' as const, profile_id: w.id! };
    const rest = fields.filter((f) => f !== 'owner' && f !== 'depends_on');
    if (fields.includes('owner')) {
      const before = changes.get(`service:${w.handle}`)!.diff!.find((d) => d.field === 'owner')!;
      await recordEvent(trx, {
        ...base,
        type: 'service.owner_changed',
        data: { from: String(before.from), to: w.owner },
      });
    }
    if (rest.length > 0) await recordEvent(trx, { ...base, type: 'service.updated', data: { fields: rest } });
  }
  ids.services = (await idsOf(trx, workspaceId)).services;
  await writeDependencies(trx, workspaceId, [...createdServices, ...updatedServices], ids, now);
  const annotated = [...createdServices, ...updatedServices].map((w) => ({
    write: w,
    serviceId: ids.services.get(w.handle)!,
    fields: new Set((changes.get(`service:${w.handle}`)?.diff ?? []).map((d) => d.field)),
  }));
  const checks = await writeAnnotatedSettings(ctx, trx, workspaceId, annotated, now);
  await writeSpecPages(trx, workspaceId, plan.specs, ids, agent, now);
  if (source) await writeStandings(trx, workspaceId, plan, source, [...createdTeams, ...createdServices], now);
  return { users, checks };
}

/**
 * What a service's annotations set, where the plan changes it: the HTTP check named {@link CATALOG_CHECK_NAME}
 * (made with the defaults of a check made by hand), the SLO (a changed one starts its alerts afresh, as in the UI)
 * and the Slack channel.
 */
async function writeAnnotatedSettings(
  ctx: ServerContext,
  trx: Db,
  workspaceId: string,
  services: ReadonlyArray<{ write: ServiceWrite; serviceId: string; fields: ReadonlySet<string> }>,
  now: string,
): Promise<boolean> {
  let checksChanged = false;
  for (const { write, serviceId, fields } of services) {
    if (fields.has('health_check_url') && write.healthCheckUrl !== null) {
      const changed = await retargetNamedCheck(
        trx,
        workspaceId,
        serviceId,
        CATALOG_CHECK_NAME,
        write.healthCheckUrl,
        now,
      );
      if (!changed) {
        const input = healthCheckCreate.parse({ name: CATALOG_CHECK_NAME, endpoint: write.healthCheckUrl });
        await insertHealthCheck(trx, newCheckRow(ctx, workspaceId, serviceId, input));
      }
      checksChanged = true;
    }
    if (fields.has('slo') && write.slo !== null) {
      await upsertSlo(trx, {
        service_id: serviceId,
        workspace_id: workspaceId,
        target_thousandths: Math.round(write.slo.target * 1000),
        window_days: write.slo.window_days,
        at: now,
      });
    }
    if (fields.has('slack_channel') && write.slackChannel !== null) {
      const changed = await updateServiceChannel(trx, workspaceId, serviceId, 'slack', {
        channel_id: write.slackChannel,
        updated_at: now,
      });
      if (!changed) {
        await insertServiceChannel(trx, {
          id: randomUUID(),
          workspace_id: workspaceId,
          service_id: serviceId,
          provider: 'slack',
          channel_id: write.slackChannel,
          created_at: now,
          updated_at: now,
        });
      }
    }
  }
  return checksChanged;
}

/**
 * Each API's definition, published as a spec page of the services that provide it: a new page, or the next
 * revision of the page with the API's handle, published at once and told to the feeds as a hand publish is.
 */
async function writeSpecPages(
  trx: Db,
  workspaceId: string,
  specs: readonly SpecWrite[],
  ids: Ids,
  agent: Agent,
  now: string,
): Promise<void> {
  for (const spec of specs) {
    const serviceId = ids.services.get(spec.service);
    if (!serviceId) continue;
    const change = { title: spec.title, content: spec.content, updated_at: now, updated_by: agent.name };
    const published = {
      published_title: spec.title,
      published_content: spec.content,
      published_at: now,
      published_updated_at: now,
      published_by: agent.name,
    };
    const page = await findServicePage(trx, workspaceId, serviceId, 'open-api-specs', spec.handle);
    let pageId: string;
    if (page) {
      pageId = page.id;
      await writePublishedRevision(trx, page.id, {
        ...change,
        ...published,
        lock: page.lock + 1,
        revisions: page.revisions + 1,
      });
      await insertRevision(trx, page.id, page.revisions + 1, change);
    } else {
      pageId = randomUUID();
      await insertPage(trx, {
        id: pageId,
        workspace_id: workspaceId,
        service_id: serviceId,
        section: 'open-api-specs',
        handle: spec.handle,
        ...change,
        ...published,
        lock: 1,
        revisions: 1,
        created_at: now,
      });
      await insertRevision(trx, pageId, 1, change);
    }
    const publishedPage = { id: pageId, service_id: serviceId, section: 'open-api-specs' as const, title: spec.title };
    await recordPagePublished(trx, workspaceId, agent, publishedPage, now);
  }
}

/** "Created" events of entities nobody can watch yet: inserted in bulk, with no one to notify. */
async function insertCreatedEvents(trx: Db, events: NewEvent<'team.created' | 'service.created'>[]): Promise<void> {
  // Not recordEvent: it would notify the owner team of each imported service (and announce), which an import never did.
  await insertEvents(trx, events);
}

/**
 * Members named in the files are added (as members); an authoritative file's team loses the members it no longer
 * names (never its admins).
 */
async function writeMembers(
  trx: Db,
  workspaceId: string,
  teams: readonly TeamWrite[],
  ids: Ids,
  agent: Agent,
  now: string,
): Promise<string[]> {
  const handles = [...new Set(teams.flatMap((t) => [...t.members, ...t.removeMembers]))];
  if (handles.length === 0) return [];
  const users = new Map<string, string>();
  const names = new Map<string, string>();
  for (const batch of chunks(handles, BATCH)) {
    for (const row of await listUsersByHandles(trx, workspaceId, batch)) {
      users.set(row.handle, row.id);
      names.set(row.id, row.name);
    }
  }
  const rows = teams.flatMap((team) =>
    team.members.flatMap((handle) => {
      const userId = users.get(handle);
      const id = ids.teams.get(team.handle)?.id;
      return userId && id
        ? [{ workspace_id: workspaceId, team_id: id, user_id: userId, role: 'member' as const, created_at: now }]
        : [];
    }),
  );
  for (const batch of chunks(rows, BATCH)) await insertMembersIfMissing(trx, batch);
  const removed: string[] = [];
  for (const team of teams) {
    const teamId = ids.teams.get(team.handle)?.id;
    const userIds = team.removeMembers.flatMap((handle) => users.get(handle) ?? []);
    if (!teamId || userIds.length === 0) continue;
    await deletePlainMembers(trx, workspaceId, teamId, userIds);
    for (const userId of userIds) {
      await recordEvent(trx, {
        workspace_id: workspaceId,
        profile_type: 'team',
        profile_id: teamId,
        type: 'team.member_removed',
        ...agentColumns(agent),
        data: { user: userId, name: names.get(userId) ?? '' },
        created_at: now,
      });
    }
    removed.push(...userIds);
  }
  return [...new Set([...rows.map((r) => r.user_id), ...removed])];
}

/** Each written service's dependencies become exactly those its file names (the resolved ones). */
async function writeDependencies(
  trx: Db,
  workspaceId: string,
  services: ReadonlyArray<ServiceWrite & { id: string | null }>,
  ids: Ids,
  now: string,
): Promise<void> {
  const serviceIds = services.map((s) => ids.services.get(s.handle)!);
  for (const batch of chunks(serviceIds, BATCH)) await deleteAllDependenciesOf(trx, workspaceId, batch);
  const local = services.flatMap((s) =>
    s.dependsOn
      .filter((ref) => !ref.includes('/'))
      .flatMap((ref) => {
        const dependency = ids.services.get(ref);
        return dependency
          ? [
              {
                workspace_id: workspaceId,
                service_id: ids.services.get(s.handle)!,
                dependency_id: dependency,
                created_at: now,
              },
            ]
          : [];
      }),
  );
  const remote = services.flatMap((s) =>
    s.dependsOn
      .filter((ref) => ref.includes('/'))
      .map((ref) => {
        const [domain, handle] = ref.split('/') as [string, string];
        return {
          workspace_id: workspaceId,
          service_id: ids.services.get(s.handle)!,
          remote_domain: domain,
          remote_handle: handle,
          remote_name: handle,
          created_at: now,
        };
      }),
  );
  for (const batch of chunks(local, BATCH)) await insertDependencies(trx, batch);
  for (const batch of chunks(remote, BATCH)) await insertRemoteDependencies(trx, batch);
}

/**
 * How the source's entities stand after the apply: a state kept since it began (an orphan keeps its "since",
 * which its removal counts from), rows written again only where something changed.
 */
async function writeStandings(
  trx: Db,
  workspaceId: string,
  plan: CatalogPlan,
  source: CatalogSourceRow,
  created: ReadonlyArray<{ kind: 'service' | 'team'; handle: string; id: string }>,
  now: string,
): Promise<void> {
  const before = new Map((await listSourceEntities(trx, source.id)).map((row) => [`${row.kind}:${row.handle}`, row]));
  const createdIds = new Map(created.map((c) => [`${c.kind}:${c.handle}`, c.id]));
  const rows: CatalogEntityRow[] = [];
  const row = (
    kind: 'service' | 'team',
    handle: string,
    entityId: string | null,
    state: CatalogEntityRow['state'],
    reason: string | null,
    place: { path: string; line: number },
    settings: readonly string[] | null,
  ): CatalogEntityRow => {
    const earlier = before.get(`${kind}:${handle}`);
    return {
      source_id: source.id,
      workspace_id: workspaceId,
      kind,
      handle,
      entity_id: entityId,
      path: place.path,
      line: place.line,
      state,
      reason,
      state_since: earlier && earlier.state === state ? earlier.state_since : now,
      synced_at: state === 'synced' ? now : (earlier?.synced_at ?? now),
      // An entity in error or orphaned keeps its last good version, and what its file decided of it.
      settings: settings === null ? (earlier?.settings ?? null) : settings.length > 0 ? JSON.stringify(settings) : null,
    };
  };
  for (const s of plan.standings) {
    const key = `${s.kind}:${s.handle}`;
    const id =
      s.state === 'synced'
        ? (s.id ?? createdIds.get(key) ?? null)
        : s.state === 'errored'
          ? (before.get(key)?.entity_id ?? s.id)
          : null;
    rows.push(row(s.kind, s.handle, id, s.state, s.reason, s.place, s.state === 'synced' ? s.settings : null));
  }
  for (const orphan of plan.orphans) {
    const earlier = before.get(`${orphan.kind}:${orphan.handle}`);
    rows.push(
      row(
        orphan.kind,
        orphan.handle,
        orphan.id,
        'orphaned',
        'No longer in the files',
        earlier ?? { path: '', line: 0 },
        null,
      ),
    );
  }
  const written = rows.filter((r) => {
    const earlier = before.get(`${r.kind}:${r.handle}`);
    return !earlier || JSON.stringify({ ...earlier, synced_at: '' }) !== JSON.stringify({ ...r, synced_at: '' });
  });
  const kept = new Set(rows.map((r) => `${r.kind}:${r.handle}`));
  const removed = [...before.values()].filter((r) => !kept.has(`${r.kind}:${r.handle}`));
  await replaceSourceEntities(
    trx,
    source.id,
    [...removed, ...written.filter((r) => before.has(`${r.kind}:${r.handle}`))],
    written,
  );
}
