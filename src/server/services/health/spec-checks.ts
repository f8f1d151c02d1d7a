/**
 * Checks made from a published OpenAPI spec (docs/decisions.md#spec-checks, issue 30): the operations proposed as
 * checks, the link a check keeps to its spec page and operation, and what a newly published version does to those links
 * (each re-linked to the same operation, by operationId or else by method and path, or flagged when it is gone).
 */
import type { SpecGone, SpecLink, SpecLinkInput } from '../../../contract/health.js';
import type { SpecProbesAnswer } from '../../../contract/spec-checks.js';
import { formatAssertions } from '../../../domain/assertion-text.js';
import type { CheckKind } from '../../../domain/check-kinds.js';
import { matchOperation, specProbes } from '../../../domain/openapi-probes.js';
import type { ServerContext } from '../../context.js';
import { chunks } from '../../db/repositories/chunks.js';
import { deleteDriftByIds, deletePageDrift, listPageDrift } from '../../db/repositories/api-drift.js';
import {
  linkedChecks,
  listSpecLinksOfPage,
  updatePageSpecLinks,
  updateSpecLink,
  type SpecColumns,
} from '../../db/repositories/health.js';
import { findPageById, findServicePage, listPageHandlesByIds, listPagesByIds } from '../../db/repositories/pages.js';
import type { Db } from '../../db/repositories/workspaces.js';
import type { HealthCheckRow } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import type { Caller } from '../accounts/auth.js';
import { editableService } from '../catalogue/services.js';
import { publishedSpec, type PublishedSpec } from './spec-documents.js';

const SPEC_NOT_FOUND = 'The OpenAPI spec was not found';

/**
 * `spec_missing` says what a check made from a spec lost (0: nothing): its operation, or its spec page, unpublished
 * or deleted. Each leaves its `schema` assertion without a schema, so the check is flagged and its card says why.
 */
const GONE_CODES: readonly (SpecGone | null)[] = [null, 'operation', 'unpublished', 'deleted'];
const goneCode = (gone: SpecGone) => GONE_CODES.indexOf(gone);

export type { SpecColumns };

export const NO_SPEC: SpecColumns = {
  spec_page_id: null,
  spec_operation_id: null,
  spec_method: null,
  spec_path: null,
  spec_published_at: null,
  spec_version: null,
  spec_missing: 0,
};

/** "Propose checks from {version}": every operation of the published spec as a check, or why it cannot be one. */
export async function listSpecProbes(
  ctx: ServerContext,
  caller: Caller,
  service: string,
  handle: string,
  query: { server?: string | undefined },
): Promise<SpecProbesAnswer> {
  const { db } = ctx.database;
  const { row } = await editableService(ctx, caller, service);
  const page = await findServicePage(db, caller.workspace.id, row.id, 'open-api-specs', handle);
  const spec = page && publishedSpec(page);
  if (!page || !spec) throw notFound(SPEC_NOT_FOUND);
  const proposed = specProbes(spec.doc, query.server ? { server: query.server } : {});
  const checks = await linkedChecks(db, caller.workspace.id, page.id);
  const checksOf = (operationId: string) =>
    checks
      .filter((check) => check.spec_operation_id === operationId && !check.spec_missing)
      .map(({ id, name }) => ({ id, name }));
  return {
    page: page.handle,
    title: proposed.title,
    version: spec.version,
    servers: proposed.servers.map((server) => server.url),
    probes: proposed.probes.map((probe) => ({
      ...probe,
      assertions_text: formatAssertions(probe.assertions),
      checks: checksOf(probe.operation_id),
    })),
    flagged: checks
      .filter((check) => check.spec_missing)
      .map(({ id, name, spec_operation_id }) => ({ id, name, operation_id: spec_operation_id ?? '' })),
  };
}

const refuseSpec = (message: string) => badRequest(`spec: ${message}`, { spec: [message] });

/**
 * The spec columns of a create, an update or a "Test": a link to a published spec page of the same service and one
 * of its operations (http checks only); null unlinks; left out, an update keeps the link (a create has none). With
 * them, the published spec the input named, read for them (null when the input named none).
 */
export async function specColumns(
  db: Db,
  workspaceId: string,
  serviceId: string,
  kind: CheckKind,
  input: SpecLinkInput | null | undefined,
  current?: HealthCheckRow,
): Promise<{ columns: SpecColumns; spec: PublishedSpec | null }> {
  if (input === undefined) return { columns: current && kind === 'http' ? pickSpec(current) : NO_SPEC, spec: null };
  if (input === null) return { columns: NO_SPEC, spec: null };
  if (kind !== 'http') throw refuseSpec('Only http checks are made from a spec');
  const page = await findServicePage(db, workspaceId, serviceId, 'open-api-specs', input.page);
  const spec = page && publishedSpec(page);
  if (!spec) throw refuseSpec(`The service has no published OpenAPI spec ${input.page}`);
  const operation = spec.operations().find((candidate) => candidate.operation_id === input.operation_id);
  if (!operation) throw refuseSpec(`Version ${spec.version} of the spec has no operation ${input.operation_id}`);
  const columns = {
    spec_page_id: spec.pageId,
    spec_operation_id: operation.operation_id,
    spec_method: operation.method,
    spec_path: operation.path,
    spec_published_at: spec.publishedAt,
    spec_version: spec.version,
    spec_missing: 0,
  };
  return { columns, spec };
}

/** A `schema` assertion reads the linked operation's response schema: refused on a check without a link. */
export function requireSpecForSchema(assertions: string | null, spec: SpecColumns, field = 'assertions'): void {
  // A check whose spec page was deleted keeps its operation: it stays flagged, editable, until linked again.
  if (spec.spec_page_id || spec.spec_operation_id || !assertions) return;
  const list = JSON.parse(assertions) as { source: string }[];
  if (list.some((assertion) => assertion.source === 'schema'))
    throw badRequest(`${field}: A schema assertion needs a check made from a spec (spec)`, {
      [field]: ['A schema assertion needs a check made from a spec (spec)'],
    });
}

function pickSpec(row: SpecColumns): SpecColumns {
  const { spec_page_id, spec_operation_id, spec_method, spec_path, spec_published_at, spec_version, spec_missing } =
    row;
  return { spec_page_id, spec_operation_id, spec_method, spec_path, spec_published_at, spec_version, spec_missing };
}

/** The API's view of the checks' links (one read of their pages), by check id. */
export async function specLinksOf(
  db: Db,
  workspaceId: string,
  rows: readonly Pick<
    HealthCheckRow,
    'id' | 'spec_page_id' | 'spec_operation_id' | 'spec_method' | 'spec_path' | 'spec_version' | 'spec_missing'
  >[],
): Promise<Map<string, SpecLink>> {
  const links = new Map<string, SpecLink>();
  const pageIds = [...new Set(rows.flatMap((row) => (row.spec_page_id ? [row.spec_page_id] : [])))];
  const pages = pageIds.length === 0 ? [] : await listPageHandlesByIds(db, workspaceId, pageIds);
  const byId = new Map(pages.map((page) => [page.id, page] as const));
  for (const row of rows) {
    const gone = GONE_CODES[row.spec_missing] ?? null;
    const page = row.spec_page_id ? byId.get(row.spec_page_id) : undefined;
    // A deleted page leaves its checks their operation, flagged.
    if ((!page && gone !== 'deleted') || !row.spec_operation_id) continue;
    links.set(row.id, {
      page: page?.handle ?? null,
      operation_id: row.spec_operation_id,
      method: row.spec_method,
      path: row.spec_path,
      version: row.spec_version,
      missing: gone !== null,
      gone,
    });
  }
  return links;
}

/**
 * A spec page was published anew (by hand or from a catalogue file): its checks follow the new version, each to
 * the same operation (operationId, else method and path), or are flagged when the operation is gone; drift of an
 * operation the version no longer has is dropped. Their rows change, so runners compile the new schemas.
 */
export async function relinkSpecChecks(trx: Db, workspaceId: string, pageId: string, now: string): Promise<void> {
  const fresh = await findPageById(trx, workspaceId, pageId);
  const spec = fresh && publishedSpec(fresh);
  if (!spec) return;
  const checks = await listSpecLinksOfPage(trx, workspaceId, pageId);
  for (const check of checks) {
    if (check.spec_published_at === spec.publishedAt || !check.spec_operation_id) continue;
    const match = matchOperation(
      { operation_id: check.spec_operation_id, method: check.spec_method ?? '', path: check.spec_path ?? '' },
      spec.operations(),
    );
    await updateSpecLink(trx, check.id, {
      spec_operation_id: match?.operation_id ?? check.spec_operation_id,
      ...(match ? { spec_method: match.method, spec_path: match.path } : {}),
      spec_published_at: spec.publishedAt,
      spec_version: spec.version,
      spec_missing: match ? 0 : goneCode('operation'),
      updated_at: now,
    });
  }
  const kept = new Set(spec.operations().map((operation) => operation.operation_id));
  const drift = await listPageDrift(trx, pageId);
  await deleteDriftByIds(
    trx,
    drift.filter((row) => !kept.has(row.operation_id)).map((row) => row.id),
  );
}

/**
 * A spec page is unpublished or deleted: its checks lose their schema and are flagged, as checks of an operation a
 * new version dropped are (their rows change, so runners drop the schema); the page's drift goes with it. Before a
 * delete: the link is cut here, on either engine, and the operation kept to say what the check was made from.
 */
export async function flagSpecChecks(
  trx: Db,
  workspaceId: string,
  pageId: string,
  gone: 'unpublished' | 'deleted',
  now: string,
): Promise<void> {
  await updatePageSpecLinks(trx, workspaceId, pageId, {
    spec_missing: goneCode(gone),
    updated_at: now,
    ...(gone === 'deleted' ? { spec_page_id: null } : {}),
  });
  await deletePageDrift(trx, workspaceId, pageId);
}

/** The `schema` validator of a linked operation, for a run ("Test", or a runner's); undefined without a link. */
export function schemaValidator(spec: PublishedSpec | null | undefined, operationId: string | null) {
  if (!spec || !operationId) return undefined;
  return spec.schemas().validator(operationId) ?? undefined;
}

/**
 * The published specs of the checks' links, by page id, read a few hundred pages at a time; `workspaceId` null
 * for the shared runner, whose checks are of every workspace (a check's page is always of its own).
 */
export async function publishedSpecsOf(
  db: Db,
  workspaceId: string | null,
  checks: readonly Pick<HealthCheckRow, 'spec_page_id'>[],
): Promise<Map<string, PublishedSpec>> {
  const ids = [...new Set(checks.flatMap((check) => (check.spec_page_id ? [check.spec_page_id] : [])))];
  const specs = new Map<string, PublishedSpec>();
  for (const group of chunks(ids, 500)) {
    for (const page of await listPagesByIds(db, workspaceId, group)) {
      const spec = publishedSpec(page);
      if (spec) specs.set(page.id, spec);
    }
  }
  return specs;
}

/** What a team runner needs for a check's `schema` assertion: the published document and the operation. */
export function runnerSpecOf(
  check: Pick<HealthCheckRow, 'spec_page_id' | 'spec_operation_id'>,
  specs: Map<string, PublishedSpec>,
): { operation_id: string; document: Record<string, unknown> } | null {
  const spec = check.spec_page_id ? specs.get(check.spec_page_id) : undefined;
  if (!spec || !check.spec_operation_id || typeof spec.doc !== 'object' || spec.doc === null) return null;
  return { operation_id: check.spec_operation_id, document: spec.doc as Record<string, unknown> };
}
