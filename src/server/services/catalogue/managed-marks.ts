/**
 * "Managed in {source}" (docs/decisions.md#catalogue-as-code): a service or team an authoritative source manages says
 * so on every read, and a change of what its files decide is refused (409) with where to make it instead.
 */
import type { ManagedBy } from '../../../contract/catalog.js';
import type { AnnotatedSetting } from '../../../domain/catalog-plan.js';
import type { ServerContext } from '../../context.js';
import { managedMarks } from '../../db/repositories/catalog.js';
import { conflict } from '../../errors.js';

/** Each entity with its mark (null when nothing manages it). */
export async function withManagedMarks<T extends { id: string }>(
  ctx: ServerContext,
  workspaceId: string,
  entities: T[],
): Promise<Array<T & { managed_by: ManagedBy | null }>> {
  const marks =
    entities.length === 0
      ? new Map()
      : await managedMarks(
          ctx.database.db,
          workspaceId,
          entities.map((e) => e.id),
        );
  return entities.map((entity) => ({ ...entity, managed_by: marks.get(entity.id) ?? null }));
}

/**
 * Refuses a change to what a source's files decide for this entity: its fields, or one of the settings its
 * annotations decide (`setting`; without that annotation the setting is the UI's).
 */
export async function requireUnmanaged(
  ctx: ServerContext,
  workspaceId: string,
  entity: { id: string; handle: string },
  kind: 'service' | 'team',
  what: string,
  setting?: AnnotatedSetting,
): Promise<void> {
  const mark = (await managedMarks(ctx.database.db, workspaceId, [entity.id])).get(entity.id);
  if (mark && (!setting || mark.settings.includes(setting))) {
    throw conflict(
      `The ${kind} ${entity.handle} is managed in ${mark.source} (${mark.path}:${mark.line}): ${what} there`,
    );
  }
}
