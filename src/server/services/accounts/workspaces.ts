import type { ServerContext } from '../../context.js';
import { setWorkspaceStatus as writeStatus } from '../../db/repositories/workspaces.js';
import type { WorkspaceRow } from '../../db/schema.js';
import { callersOf } from '../../cache/caller-cache.js';

/** Activates, deactivates or suspends a workspace; its members' next requests see the new status. */
export async function setWorkspaceStatus(
  ctx: ServerContext,
  workspaceId: string,
  status: WorkspaceRow['status'],
): Promise<void> {
  await writeStatus(ctx.database.db, workspaceId, status);
  callersOf(ctx).forgetWorkspace(workspaceId);
}
