/**
 * The catalogue as code (docs/decisions.md#catalogue-as-code, issue 29): plans of descriptor files, applying exactly a
 * plan, sources that stay in sync, and what they manage. Workspace admins and owners, or API clients with
 * `beacon.catalog.manage` (the route checks a client's scope).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import { countActions, planCatalog, type CatalogPlan } from '../../../domain/catalog-plan.js';
import { exportDescriptors } from '../../../domain/descriptor-export.js';
import { readDescriptors, type DescriptorFile, type ReadDescriptors } from '../../../domain/descriptors.js';
import { isAdminRole } from '../../../domain/roles.js';
import { urlCredential } from '../../../domain/url-credentials.js';
import type { CatalogEntity, CatalogPlanAnswer, CatalogSource } from '../../../contract/catalog.js';
import { isoNow, type ServerContext } from '../../context.js';
import {
  countSourceEntities,
  deleteExpiredPlans,
  deletePlan,
  deleteSource as deleteSourceRow,
  findPlan,
  findSource,
  findSourceByName,
  insertPlan,
  insertSource,
  listEntitiesNotSynced,
  listSources,
  lockCatalogWrites,
  readCurrentCatalogue,
  updateSource,
} from '../../db/repositories/catalog.js';
import { listProfilesByIds } from '../../db/repositories/catalog.js';
import type { CatalogPlanRow, CatalogSourceRow, CatalogSourcesTable } from '../../db/schema.js';
import type { Db } from '../../db/repositories/workspaces.js';
import { guardedTransaction } from '../../db/transactions.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { agentOf, type Agent } from '../accounts/agents.js';
import type { Caller } from '../accounts/auth.js';
import { fetchSourceFiles, type FetchOptions } from './fetch.js';
import { writePlan } from './apply.js';
import { specRefusal } from '../pages/spec-validation.js';
import { assetUrl } from '../accounts/users.js';
import { forgetViewer } from '../../cache/viewer.js';

const PLAN_LIFETIME_MS = 60 * 60 * 1000;
const SOURCE_NOT_FOUND = 'The source was not found';
const PLAN_NOT_FOUND = 'The plan was not found, or its hour has passed: plan again';

/** Orphans are removed this long after their files stopped describing them (BEACON_CATALOG_ORPHAN_GRACE_HOURS). */
export const orphanGraceMs = (ctx: ServerContext) => ctx.config.catalogOrphanGraceHours * 60 * 60 * 1000;

function requireManager(caller: Caller): void {
  if (!caller.client && !isAdminRole(caller.user.role)) {
    throw forbidden('Only workspace admins and owners can manage the catalogue as code');
  }
}

interface Planned {
  plan: CatalogPlan;
  digest: string;
}

/**
 * An API whose definition could not be published by hand (not YAML, not a valid OpenAPI document) is in error, with
 * the validator's first problem, as the spec page editor would refuse it.
 */
async function withPublishableSpecs(read: ReadDescriptors): Promise<ReadDescriptors> {
  const entities: ReadDescriptors['entities'] = [];
  const errored = [...read.errored];
  for (const entity of read.entities) {
    const refused = entity.kind === 'api' ? await specRefusal(entity.definition) : null;
    if (refused) {
      const { path, line } = entity.place;
      errored.push({
        kind: 'api',
        handle: entity.handle,
        errors: [{ path, line, message: refused.message.replace(/^The content/, 'The definition') }],
      });
    } else entities.push(entity);
  }
  return { ...read, entities, errored };
}

/** Reads `files` and plans them against the catalogue as `db` sees it; the digest is of all the plan would do. */
async function planFiles(
  db: Db,
  workspaceId: string,
  source: CatalogSourceRow | null,
  read: ReadDescriptors,
): Promise<Planned> {
  const current = await readCurrentCatalogue(db, workspaceId);
  const plan = planCatalog(read, current, source && { id: source.id, name: source.name, mode: source.mode });
  const digest = createHash('sha256')
    .update(JSON.stringify([plan.changes, plan.writes, plan.specs, plan.orphans, plan.standings]))
    .digest('base64url');
  return { plan, digest };
}

/** The descriptors of `files`, an API whose definition is not a valid OpenAPI document in error. */
const readFiles = (files: readonly DescriptorFile[]) => withPublishableSpecs(readDescriptors(files));

function answerOf(
  id: string,
  planned: Planned,
  source: CatalogSourceRow | null,
  expiresAt: number,
  appliedAt?: string,
): CatalogPlanAnswer {
  return {
    id,
    base_version: planned.digest,
    source: source && { id: source.id, name: source.name },
    expires_at: new Date(expiresAt).toISOString(),
    changes: planned.plan.changes,
    counts: countActions(planned.plan.changes),
    ...(appliedAt ? { applied_at: appliedAt } : {}),
  };
}

async function sourceOr404(ctx: ServerContext, caller: Caller, idOrName: string): Promise<CatalogSourceRow> {
  const source = await findSource(ctx.database.db, caller.workspace.id, idOrName);
  if (!source) throw notFound(SOURCE_NOT_FOUND);
  return source;
}

export async function createPlan(
  ctx: ServerContext,
  caller: Caller,
  input: { source?: string; files: DescriptorFile[] },
): Promise<CatalogPlanAnswer> {
  requireManager(caller);
  const source = input.source ? await sourceOr404(ctx, caller, input.source) : null;
  if (source?.url) throw badRequest(`${source.name} reads its files from its URL: sync it instead`);
  const paths = new Set<string>();
  for (const file of input.files) {
    if (paths.has(file.path)) throw badRequest(`The file ${file.path} is there twice`);
    paths.add(file.path);
  }
  const { db } = ctx.database;
  const planned = await planFiles(db, caller.workspace.id, source, await readFiles(input.files));
  const now = ctx.now().getTime();
  await deleteExpiredPlans(db, now);
  const id = randomUUID();
  const expiresAt = now + PLAN_LIFETIME_MS;
  await insertPlan(db, {
    id,
    workspace_id: caller.workspace.id,
    source_id: source?.id ?? null,
    files: JSON.stringify(input.files),
    digest: planned.digest,
    created_at: isoNow(ctx),
    expires_at: expiresAt,
  });
  return answerOf(id, planned, source, expiresAt);
}

/** Applies exactly the plan made before: the same files planned again must give the same plan, else 409. */
export async function applyPlan(ctx: ServerContext, caller: Caller, id: string): Promise<CatalogPlanAnswer> {
  requireManager(caller);
  const { db } = ctx.database;
  const row = await findPlan(db, caller.workspace.id, id, ctx.now().getTime());
  if (!row) throw notFound(PLAN_NOT_FOUND);
  const source = row.source_id ? await sourceOr404(ctx, caller, row.source_id) : null;
  const files = JSON.parse(row.files) as DescriptorFile[];
  const planned = await apply(ctx, caller.workspace.id, agentOf(caller), source, files, { plan: row });
  return answerOf(id, planned, source, Number(row.expires_at), isoNow(ctx));
}

/**
 * Plans `files` again and writes that plan, and for a source records the sync (its files, their digest, the
 * counts, and `also`). One at a time per workspace: the plan and its writes see the same catalogue, so two applies
 * of one plan, or a "Sync now" beside the scheduler's, never both write. Applying a stored plan (`expect`) answers
 * 404 when it was applied meanwhile and 409 when the catalogue moved in a way that changes it.
 */
async function apply(
  ctx: ServerContext,
  workspaceId: string,
  agent: Agent,
  source: CatalogSourceRow | null,
  files: readonly DescriptorFile[],
  expect: { plan?: CatalogPlanRow } = {},
  also: Updateable<CatalogSourcesTable> = {},
): Promise<Planned> {
  const read = await readFiles(files);
  const { planned, written } = await guardedTransaction(ctx.database.db, async (trx) => {
    await lockCatalogWrites(trx, workspaceId);
    if (expect.plan && !(await findPlan(trx, workspaceId, expect.plan.id, ctx.now().getTime()))) {
      throw notFound(PLAN_NOT_FOUND);
    }
    const planned = await planFiles(trx, workspaceId, source, read);
    if (expect.plan && planned.digest !== expect.plan.digest) {
      throw conflict('The catalogue changed since this plan was made: plan again to see what applying would do now');
    }
    const written = await writePlan(ctx, trx, workspaceId, agent, planned.plan, source);
    if (source) {
      await updateSource(trx, source.id, {
        ...also,
        ...(source.url ? {} : { files: JSON.stringify(files) }),
        digest: filesDigest(files),
        last_sync_at: isoNow(ctx),
        last_sync_status: 'ok',
        last_sync_counts: JSON.stringify(countActions(planned.plan.changes)),
        last_sync_error: null,
      });
    }
    if (expect.plan) await deletePlan(trx, expect.plan.id);
    return { planned, written };
  });
  // Once committed, so what reloads sees the writes.
  for (const userId of written.users) forgetViewer(ctx, userId);
  if (written.checks) ctx.refreshChecks?.();
  return planned;
}

export function filesDigest(files: readonly DescriptorFile[]): string {
  return createHash('sha256').update(JSON.stringify(files)).digest('base64url');
}

// ---- sources ----

async function sourceAnswers(ctx: ServerContext, workspaceId: string, rows: CatalogSourceRow[]) {
  const counts = await countSourceEntities(ctx.database.db, workspaceId);
  return rows.map((row): CatalogSource => {
    const entities = { synced: 0, errored: 0, orphaned: 0, conflict: 0 };
    for (const count of counts) if (count.source_id === row.id) entities[count.state] = Number(count.n);
    return {
      id: row.id,
      name: row.name,
      url: row.url,
      ...(row.token_sealed ? { token: 'set' as const } : {}),
      mode: row.mode,
      interval_minutes: row.interval_minutes,
      last_sync:
        row.last_sync_at && row.last_sync_status
          ? {
              at: row.last_sync_at,
              status: row.last_sync_status,
              counts: row.last_sync_counts ? (JSON.parse(row.last_sync_counts) as Record<string, number>) : null,
              error: row.last_sync_error,
            }
          : null,
      entities,
      created_at: row.created_at,
    } as CatalogSource;
  });
}

async function sourceAnswer(ctx: ServerContext, caller: Caller, id: string): Promise<CatalogSource> {
  const [answer] = await sourceAnswers(ctx, caller.workspace.id, [await sourceOr404(ctx, caller, id)]);
  return answer!;
}

export async function listCatalogSources(ctx: ServerContext, caller: Caller): Promise<CatalogSource[]> {
  requireManager(caller);
  return sourceAnswers(ctx, caller.workspace.id, await listSources(ctx.database.db, caller.workspace.id));
}

export async function getCatalogSource(ctx: ServerContext, caller: Caller, id: string): Promise<CatalogSource> {
  requireManager(caller);
  return sourceAnswer(ctx, caller, id);
}

async function requireFreeName(ctx: ServerContext, caller: Caller, name: string, except?: string): Promise<void> {
  const taken = await findSourceByName(ctx.database.db, caller.workspace.id, name);
  if (taken && taken.id !== except) {
    throw conflict(`A source named ${name} exists already`, { name: ['Another source has this name'] });
  }
}

/** A credential in the URL itself would be stored and shown with it: it goes in `token` (issue 48). */
function refuseUrlCredentials(url: string | null | undefined): void {
  if (!url) return;
  const credential = urlCredential(new URL(url));
  if (!credential) return;
  const what = credential === 'userinfo' ? 'a user name or password' : `a credential (${credential})`;
  const message = `The URL holds ${what}: send it as the source's token instead (it is sent as Authorization: Bearer)`;
  throw badRequest(message, { url: [message] });
}

const sealedToken = (ctx: ServerContext, token: string | null) => (token ? ctx.secretBox.seal(token) : null);
const originOf = (url: string) => new URL(url).origin;

export async function createCatalogSource(
  ctx: ServerContext,
  caller: Caller,
  input: { name: string; url?: string; token?: string; mode: 'authoritative' | 'seed'; interval_minutes: number },
): Promise<CatalogSource> {
  requireManager(caller);
  refuseUrlCredentials(input.url);
  await requireFreeName(ctx, caller, input.name);
  const id = randomUUID();
  const now = isoNow(ctx);
  await insertSource(ctx.database.db, {
    id,
    workspace_id: caller.workspace.id,
    name: input.name,
    url: input.url ?? null,
    mode: input.mode,
    interval_minutes: input.interval_minutes,
    files: null,
    etag: null,
    digest: null,
    last_sync_at: null,
    last_sync_status: null,
    last_sync_counts: null,
    last_sync_error: null,
    // A URL source syncs at once, then on its interval.
    next_sync_at: input.url ? ctx.now().getTime() : null,
    token_sealed: sealedToken(ctx, input.token ?? null),
    created_at: now,
    updated_at: now,
  });
  return sourceAnswer(ctx, caller, id);
}

export async function updateCatalogSource(
  ctx: ServerContext,
  caller: Caller,
  idOrName: string,
  patch: {
    name?: string;
    url?: string | null;
    token?: string | null;
    mode?: 'authoritative' | 'seed';
    interval_minutes?: number;
  },
): Promise<CatalogSource> {
  requireManager(caller);
  refuseUrlCredentials(patch.url);
  const source = await sourceOr404(ctx, caller, idOrName);
  if (patch.name !== undefined) await requireFreeName(ctx, caller, patch.name, source.id);
  const { token: given, ...fields } = patch;
  const url = patch.url === undefined ? source.url : patch.url;
  // A token is for its URL's host: a URL on another origin does not take it along unless it is given again.
  const token = given === undefined && url && source.url && originOf(url) !== originOf(source.url) ? null : given;
  const interval = patch.interval_minutes ?? source.interval_minutes;
  // Another URL is another source of files, and another token may read others: read it at once, with no old ETag.
  const reread = (patch.url !== undefined && patch.url !== source.url) || token !== undefined;
  await updateSource(ctx.database.db, source.id, {
    ...fields,
    ...(token !== undefined ? { token_sealed: sealedToken(ctx, token) } : {}),
    ...(reread ? { etag: null, digest: null } : {}),
    next_sync_at: url ? ctx.now().getTime() + (reread ? 0 : interval * 60_000) : null,
    updated_at: isoNow(ctx),
  });
  return sourceAnswer(ctx, caller, source.id);
}

/** Its entities stay; Beacon owns them from now on (their marks go with the source's rows). */
export async function deleteCatalogSource(ctx: ServerContext, caller: Caller, idOrName: string): Promise<void> {
  requireManager(caller);
  const source = await sourceOr404(ctx, caller, idOrName);
  await deleteSourceRow(ctx.database.db, source.id);
}

/**
 * Sync now: an upload source plans its files again (what changed in Beacon since) and applies; a URL source reads
 * its URL (answered in `last_sync`, a failed read included).
 */
export async function syncCatalogSource(ctx: ServerContext, caller: Caller, idOrName: string): Promise<CatalogSource> {
  requireManager(caller);
  const source = await sourceOr404(ctx, caller, idOrName);
  await syncSource(ctx, source, agentOf(caller));
  return sourceAnswer(ctx, caller, source.id);
}

/**
 * Reads a source's files and applies them. An upload source's are the ones last applied. A URL source's are read
 * from its URL: a read that fails writes nothing but the failure (its entities stay as they are, none orphaned);
 * files the same as last time write nothing at all. Either way its next sync is an interval away.
 */
export async function syncSource(
  ctx: ServerContext,
  source: CatalogSourceRow,
  agent: Agent,
  options: FetchOptions = {},
): Promise<void> {
  if (!source.url) {
    const files = source.files ? (JSON.parse(source.files) as DescriptorFile[]) : [];
    if (files.length === 0) return;
    await apply(ctx, source.workspace_id, agent, source, files);
    return;
  }
  const synced = {
    last_sync_at: isoNow(ctx),
    next_sync_at: ctx.now().getTime() + source.interval_minutes * 60_000,
  };
  const { db } = ctx.database;
  const token = openedToken(ctx, source);
  if (token === undefined) {
    await updateSource(db, source.id, { ...synced, last_sync_status: 'failed', last_sync_error: TOKEN_UNREADABLE });
    return;
  }
  const read = await fetchSourceFiles(ctx, source.url, source.etag, { ...options, token });
  if (read.status === 'failed') {
    // No error text may carry the token, whatever a host or a library put in it.
    const error = token ? read.error.split(token).join('…') : read.error;
    await updateSource(db, source.id, { ...synced, last_sync_status: 'failed', last_sync_error: error });
  } else if (read.status === 'unchanged' || filesDigest(read.files) === source.digest) {
    await updateSource(db, source.id, {
      ...synced,
      ...(read.status === 'ok' ? { etag: read.etag } : {}),
      last_sync_status: 'unchanged',
      last_sync_error: null,
    });
  } else {
    await apply(ctx, source.workspace_id, agent, source, read.files, {}, { ...synced, etag: read.etag });
  }
}

const TOKEN_UNREADABLE =
  "The source's token cannot be opened with this server's encryption key (BEACON_ENCRYPTION_KEY): set it again";

/** The source's token: null without one, undefined when it cannot be opened (sealed with another key). */
function openedToken(ctx: ServerContext, source: CatalogSourceRow): string | null | undefined {
  if (!source.token_sealed) return null;
  try {
    return ctx.secretBox.open(source.token_sealed);
  } catch {
    return undefined;
  }
}

/** The workspace as descriptor files (`beacon catalog export`). */
export async function exportCatalog(ctx: ServerContext, caller: Caller): Promise<{ files: DescriptorFile[] }> {
  requireManager(caller);
  return { files: exportDescriptors(await readCurrentCatalogue(ctx.database.db, caller.workspace.id)) };
}

// ---- entities ----

export async function listCatalogEntities(
  ctx: ServerContext,
  caller: Caller,
  query: { state?: 'errored' | 'orphaned' | 'conflict'; cursor: number; limit: number; q?: string },
): Promise<{ items: CatalogEntity[]; total: number }> {
  requireManager(caller);
  const { db } = ctx.database;
  const { rows, total } = await listEntitiesNotSynced(db, caller.workspace.id, query.state, query);
  const ids = rows.map((row) => row.entity_id).filter((id): id is string => id !== null);
  const refs = new Map<string, { id: string; handle: string; name: string; thumbnail_url: string | null }>();
  if (ids.length > 0) {
    for (const row of await listProfilesByIds(db, ids)) {
      refs.set(row.id, { id: row.id, handle: row.handle, name: row.name, thumbnail_url: assetUrl(row.icon_asset_id) });
    }
  }
  const grace = orphanGraceMs(ctx);
  return {
    total,
    items: rows.map((row) => ({
      source: { id: row.source_id, name: row.source_name },
      kind: row.kind,
      handle: row.handle,
      state: row.state,
      reason: row.reason,
      since: row.state_since,
      synced_at: row.synced_at,
      path: row.path,
      line: row.line,
      entity: (row.entity_id && refs.get(row.entity_id)) || null,
      removed_at: row.state === 'orphaned' ? new Date(new Date(row.state_since).getTime() + grace).toISOString() : null,
    })),
  };
}
