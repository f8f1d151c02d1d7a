import { randomUUID } from 'node:crypto';
import type { Workspace } from '../../../contract/accounts.js';
import { isEmail, isHandle, isStrongPassword, messages, workspaceDomainError } from '../../../domain/validators.js';
import { workspaceOrigin } from '../../config.js';
import { isoNow, type ServerContext } from '../../context.js';
import { badRequest, conflict, HttpError } from '../../errors.js';
import { claimBetaKey, countBetaKeys, findBetaKey, insertBetaKey } from '../../db/repositories/beta-keys.js';
import { insertUser, newUserRow } from '../../db/repositories/users.js';
import { countWorkspaces, findWorkspaceByDomain, insertWorkspace } from '../../db/repositories/workspaces.js';
import type { WorkspaceRow } from '../../db/schema.js';
import { hashPassword, newBetaKey } from '../../crypto/secrets.js';

export function toWorkspace(row: WorkspaceRow): Workspace {
  return { id: row.id, name: row.name, domain: row.domain, status: row.status, login: row.login };
}

/** Creates a single-use beta key tied to an email (null: any email, for the bootstrap key). */
export async function createBetaKey(ctx: ServerContext, email: string | null): Promise<string> {
  const normalised = email?.trim().toLowerCase() ?? null;
  if (normalised !== null && !isEmail(normalised)) throw badRequest(messages.invalidEmail);
  for (;;) {
    const key = newBetaKey();
    if (await findBetaKey(ctx.database.db, key)) continue;
    await insertBetaKey(ctx.database.db, key, normalised, isoNow(ctx));
    return key;
  }
}

/** On an empty database: a one-time key and the link that registers the first workspace with it. */
export async function bootstrapRegistrationLink(ctx: ServerContext): Promise<string | null> {
  const { db } = ctx.database;
  if ((await countWorkspaces(db)) > 0 || (await countBetaKeys(db)) > 0) return null;
  const key = await createBetaKey(ctx, null);
  const url = new URL('/register', ctx.config.publicUrl);
  url.searchParams.set('beta_code', key);
  return url.toString();
}

const INVALID_PAIR = 'This beta key is not valid for this email';
const USED_KEY = 'This beta key has already been used';

async function checkBetaKey(ctx: ServerContext, key: string, email: string) {
  const row = await findBetaKey(ctx.database.db, key.trim().toUpperCase());
  if (!row || (row.email !== null && row.email !== email.trim().toLowerCase()))
    throw badRequest(INVALID_PAIR, { beta_key: [messages.invalidBetaCode] });
  if (row.used_at) throw badRequest(USED_KEY, { beta_key: [USED_KEY] });
  return row;
}

/** Step one of registration: the beta key and email belong together and the key is unused. */
export async function checkBetaPair(ctx: ServerContext, betaKey: string, email: string) {
  const row = await checkBetaKey(ctx, betaKey, email);
  return { beta_key: row.key, email: email.trim().toLowerCase() };
}

export interface Registration {
  beta_key: string;
  owner: { email: string; name: string; handle: string; password: string };
  workspace: { name: string; domain: string };
}

function registrationErrors(input: Registration): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (!isEmail(input.owner.email.trim())) add('owner.email', messages.emailNotValid);
  if (!isHandle(input.owner.handle) || input.owner.handle !== input.owner.handle.toLowerCase()) {
    add('owner.handle', messages.handleNotValid);
  }
  if (!isStrongPassword(input.owner.password)) add('owner.password', messages.passwordNotStrongLong);
  const domainError = workspaceDomainError(input.workspace.domain);
  if (domainError) add('workspace.domain', domainError);
  if (input.beta_key.trim().length !== 6) add('beta_key', messages.invalidBetaCode);
  return errors;
}

/** Step two: the workspace and its owner, in one transaction; the beta key is used up by it. */
export async function registerWorkspace(ctx: ServerContext, input: Registration) {
  const errors = registrationErrors(input);
  if (Object.keys(errors).length > 0) throw badRequest(Object.values(errors)[0]![0]!, errors);
  const email = input.owner.email.trim().toLowerCase();
  const key = await checkBetaKey(ctx, input.beta_key, email);
  const passwordHash = await hashPassword(input.owner.password);
  const now = isoNow(ctx);
  const workspace: WorkspaceRow = {
    id: randomUUID(),
    domain: input.workspace.domain,
    name: input.workspace.name.trim(),
    status: 'active',
    login: null,
    created_at: now,
  };
  try {
    await ctx.database.db.transaction().execute(async (trx) => {
      if (await findWorkspaceByDomain(trx, workspace.domain)) {
        throw conflict('This domain is already taken', { 'workspace.domain': ['This domain is already taken'] });
      }
      await insertWorkspace(trx, workspace);
      if (!(await claimBetaKey(trx, key.key, workspace.id, now))) throw badRequest(USED_KEY, { beta_key: [USED_KEY] });
      await insertUser(
        trx,
        newUserRow({
          workspace_id: workspace.id,
          handle: input.owner.handle,
          name: input.owner.name.trim(),
          email,
          password_hash: passwordHash,
          role: 'owner',
          super_admin: 1,
          created_at: now,
        }),
      );
    });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    // Two registrations raced for the same domain: the unique index decided.
    if (await findWorkspaceByDomain(ctx.database.db, workspace.domain)) {
      throw conflict('This domain is already taken', { 'workspace.domain': ['This domain is already taken'] });
    }
    throw error;
  }
  return {
    domain: workspace.domain,
    workspace: toWorkspace(workspace),
    origin: workspaceOrigin(ctx.config, workspace.domain),
  };
}
