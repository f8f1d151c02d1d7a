/**
 * Status pages as workspace admins and owners manage them (docs/decisions.md#status-pages, issue 27): settings, who may
 * read the page, and its components (the services shown, in named groups). What visitors read is status-view.ts.
 */
import { randomUUID } from 'node:crypto';
import type { StatusPage, StatusPageCreate, StatusPageUpdate } from '../../../contract/status-pages.js';
import { isAdminRole } from '../../../domain/roles.js';
import { domainChallengeName, UPSTREAM_DEPTH } from '../../../domain/status-pages.js';
import { workspaceOrigin } from '../../config.js';
import { isoNow, type ServerContext } from '../../context.js';
import {
  deleteStatusPageRow,
  findServicesByHandle,
  findStatusPage,
  findVerifiedPageByDomain,
  insertStatusPage,
  listComponents,
  listStatusPageRows,
  replaceComponents,
  updateStatusPageRow,
  type ComponentRow,
} from '../../db/repositories/status-pages.js';
import type { StatusPageComponentsTable, StatusPageRow, StatusPagesTable, WorkspaceRow } from '../../db/schema.js';
import type { Db } from '../../db/repositories/workspaces.js';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../errors.js';
import type { Caller } from '../accounts/auth.js';
import { checkDomain, DOMAIN_CHECK_MS, DOMAIN_TAKEN, newDomainToken } from './domain-proofs.js';
import { hashPassword } from '../../crypto/secrets.js';

export const STATUS_PAGE_NOT_FOUND = 'The status page was not found';

function requireAdmin(caller: Caller): void {
  if (!isAdminRole(caller.user.role)) throw forbidden('Only workspace admins and owners can manage status pages');
}

/** Where visitors read a page: its custom domain's root once proved, else under the workspace's origin. */
export function statusPageUrl(
  ctx: ServerContext,
  workspace: Pick<WorkspaceRow, 'domain'>,
  row: Pick<StatusPageRow, 'handle' | 'custom_domain' | 'custom_domain_verified_at'>,
): string {
  if (row.custom_domain && row.custom_domain_verified_at) {
    return `${ctx.config.publicUrl.protocol}//${row.custom_domain}`;
  }
  return `${workspaceOrigin(ctx.config, workspace.domain)}/status/${row.handle}`;
}

/** Groups in the order of their first component; a group keeps its services' order. */
export function groupsOf(components: readonly Pick<ComponentRow, 'group_name' | 'handle'>[]) {
  const groups: { name: string; services: string[] }[] = [];
  for (const component of components) {
    let group = groups.at(-1);
    if (!group || group.name !== component.group_name) {
      group = groups.find((g) => g.name === component.group_name);
      if (!group) groups.push((group = { name: component.group_name, services: [] }));
    }
    group.services.push(component.handle);
  }
  return groups;
}

/** How the page's custom domain stands, and the TXT record that proves it. */
function domainProofOf(row: StatusPageRow) {
  const token = row.custom_domain ? row.custom_domain_token : null;
  return {
    custom_domain_status: !row.custom_domain ? null : row.custom_domain_verified_at ? 'verified' : 'pending',
    custom_domain_token: token,
    custom_domain_record:
      row.custom_domain && token
        ? { type: 'TXT' as const, name: domainChallengeName(row.custom_domain), value: token }
        : null,
    custom_domain_checked_at: row.custom_domain ? row.custom_domain_checked_at : null,
    custom_domain_check_error: row.custom_domain ? row.custom_domain_check_error : null,
  } satisfies Partial<StatusPage>;
}

function toStatusPage(
  ctx: ServerContext,
  workspace: WorkspaceRow,
  row: StatusPageRow,
  components: readonly ComponentRow[],
): StatusPage {
  return {
    handle: row.handle,
    title: row.title,
    description: row.description,
    logo_url: row.logo_url,
    access: row.access,
    has_password: row.password_hash !== null,
    custom_domain: row.custom_domain,
    ...domainProofOf(row),
    show_upstream: row.show_upstream === 1,
    upstream_depth: row.upstream_depth,
    groups: groupsOf(components.filter((component) => component.page_id === row.id)),
    url: statusPageUrl(ctx, workspace, row),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function pageOf(ctx: ServerContext, workspaceId: string, handle: string): Promise<StatusPageRow> {
  const row = await findStatusPage(ctx.database.db, workspaceId, handle);
  if (!row) throw notFound(STATUS_PAGE_NOT_FOUND);
  return row;
}

export async function listStatusPages(ctx: ServerContext, caller: Caller): Promise<StatusPage[]> {
  requireAdmin(caller);
  const { db } = ctx.database;
  const rows = await listStatusPageRows(db, caller.workspace.id);
  const components = await listComponents(
    db,
    caller.workspace.id,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toStatusPage(ctx, caller.workspace, row, components));
}

export async function getStatusPage(ctx: ServerContext, caller: Caller, handle: string): Promise<StatusPage> {
  requireAdmin(caller);
  const row = await pageOf(ctx, caller.workspace.id, handle);
  const components = await listComponents(ctx.database.db, caller.workspace.id, [row.id]);
  return toStatusPage(ctx, caller.workspace, row, components);
}

/** The component rows for `groups`: every service must exist in the workspace and appear once. */
async function componentRows(
  db: Db,
  workspaceId: string,
  pageId: string,
  groups: NonNullable<StatusPageUpdate['groups']>,
): Promise<StatusPageComponentsTable[]> {
  const handles = groups.flatMap((group) => group.services);
  const repeated = handles.filter((handle, index) => handles.indexOf(handle) !== index);
  if (repeated.length > 0) {
    throw badRequest(`${repeated[0]} is on the page twice`, { groups: [`${repeated[0]} is on the page twice`] });
  }
  const found = new Map((await findServicesByHandle(db, workspaceId, handles)).map((row) => [row.handle, row]));
  const unknown = handles.filter((handle) => !found.has(handle));
  if (unknown.length > 0) {
    throw badRequest(`No service ${unknown[0]} in this workspace`, {
      groups: unknown.map((handle) => `No service ${handle} in this workspace`),
    });
  }
  let position = 0;
  return groups.flatMap((group) =>
    group.services.map((handle) => ({
      page_id: pageId,
      service_id: found.get(handle)!.id,
      workspace_id: workspaceId,
      group_name: group.name,
      position: position++,
    })),
  );
}

/** The settings' columns from a create or update body (the password hashed); checks what the schema cannot. */
async function settingsColumns(
  ctx: ServerContext,
  input: StatusPageUpdate,
  current: StatusPageRow | null,
): Promise<Partial<StatusPagesTable>> {
  const columns: Partial<StatusPagesTable> = {};
  if (input.title !== undefined) columns.title = input.title;
  if (input.description !== undefined) columns.description = input.description;
  if (input.logo_url !== undefined) columns.logo_url = input.logo_url;
  if (input.access !== undefined) columns.access = input.access;
  if (input.show_upstream !== undefined) columns.show_upstream = input.show_upstream ? 1 : 0;
  if (input.upstream_depth !== undefined) columns.upstream_depth = input.upstream_depth;
  if (input.password !== undefined) columns.password_hash = input.password ? await hashPassword(input.password) : null;
  if (input.custom_domain !== undefined) {
    const domain = input.custom_domain?.toLowerCase() ?? null;
    const base = ctx.config.baseDomain.toLowerCase();
    if (domain && (domain === base || domain.endsWith(`.${base}`))) {
      throw badRequest('A custom domain is a host of your own', {
        custom_domain: [`Must not be ${base} or one of its workspaces`],
      });
    }
    if (domain !== (current?.custom_domain ?? null)) {
      // Naming a domain claims nothing: it stays pending, serving nothing, until its TXT record proves it.
      const holder = domain && (await findVerifiedPageByDomain(ctx.database.db, domain));
      if (holder) throw conflict(DOMAIN_TAKEN, { custom_domain: [DOMAIN_TAKEN] });
      Object.assign(columns, {
        custom_domain: domain,
        custom_domain_token: domain && newDomainToken(),
        custom_domain_verified_at: null,
        custom_domain_checked_at: null,
        custom_domain_check_error: null,
        custom_domain_next_check_at: domain && ctx.now().getTime() + DOMAIN_CHECK_MS,
      } satisfies Partial<StatusPagesTable>);
    }
  }
  const access = columns.access ?? current?.access ?? 'public';
  const passwordHash = columns.password_hash !== undefined ? columns.password_hash : (current?.password_hash ?? null);
  if (access === 'password' && !passwordHash) {
    throw badRequest('A password page needs a password', { password: ['Required for a password page'] });
  }
  return columns;
}

/** The handle lost to a concurrent create. */
async function takenError(ctx: ServerContext, workspaceId: string, handle: string) {
  if (await findStatusPage(ctx.database.db, workspaceId, handle)) {
    return conflict('The handle has already been taken.', { handle: ['The handle has already been taken.'] });
  }
  return null;
}

export async function createStatusPage(
  ctx: ServerContext,
  caller: Caller,
  input: StatusPageCreate,
): Promise<StatusPage> {
  requireAdmin(caller);
  const { db } = ctx.database;
  const workspaceId = caller.workspace.id;
  if (await findStatusPage(db, workspaceId, input.handle)) {
    throw conflict('The handle has already been taken.', { handle: ['The handle has already been taken.'] });
  }
  const now = isoNow(ctx);
  const row: StatusPageRow = {
    id: randomUUID(),
    workspace_id: workspaceId,
    handle: input.handle,
    title: input.title,
    description: '',
    logo_url: null,
    access: 'public',
    password_hash: null,
    custom_domain: null,
    custom_domain_token: null,
    custom_domain_verified_at: null,
    custom_domain_checked_at: null,
    custom_domain_check_error: null,
    custom_domain_next_check_at: null,
    show_upstream: 1,
    upstream_depth: UPSTREAM_DEPTH.default,
    created_at: now,
    updated_at: now,
    ...(await settingsColumns(ctx, input, null)),
  };
  const components = await componentRows(db, workspaceId, row.id, input.groups ?? []);
  try {
    await db.transaction().execute(async (trx) => {
      await insertStatusPage(trx, row);
      await replaceComponents(trx, row.id, components);
    });
  } catch (error) {
    const taken = !(error instanceof HttpError) && (await takenError(ctx, workspaceId, row.handle));
    throw taken || error;
  }
  return getStatusPage(ctx, caller, row.handle);
}

export async function updateStatusPage(
  ctx: ServerContext,
  caller: Caller,
  handle: string,
  input: StatusPageUpdate,
): Promise<StatusPage> {
  requireAdmin(caller);
  const { db } = ctx.database;
  const workspaceId = caller.workspace.id;
  const current = await pageOf(ctx, workspaceId, handle);
  const columns = { ...(await settingsColumns(ctx, input, current)), updated_at: isoNow(ctx) };
  const components = input.groups && (await componentRows(db, workspaceId, current.id, input.groups));
  await db.transaction().execute(async (trx) => {
    await updateStatusPageRow(trx, current.id, columns);
    if (components) await replaceComponents(trx, current.id, components);
  });
  return getStatusPage(ctx, caller, handle);
}

export async function deleteStatusPage(ctx: ServerContext, caller: Caller, handle: string): Promise<void> {
  requireAdmin(caller);
  const row = await pageOf(ctx, caller.workspace.id, handle);
  await ctx.database.db.transaction().execute((trx) => deleteStatusPageRow(trx, row.id));
}

/** Looks for the custom domain's TXT record now (the daily check, at once): the page answers how it went. */
export async function verifyStatusPageDomain(ctx: ServerContext, caller: Caller, handle: string): Promise<StatusPage> {
  requireAdmin(caller);
  const row = await pageOf(ctx, caller.workspace.id, handle);
  if (!row.custom_domain) {
    throw badRequest('The page has no custom domain', { custom_domain: ['Set a custom domain first'] });
  }
  if ((await checkDomain(ctx, row)) === 'taken') throw conflict(DOMAIN_TAKEN, { custom_domain: [DOMAIN_TAKEN] });
  return getStatusPage(ctx, caller, handle);
}
