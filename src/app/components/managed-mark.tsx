import { Tag } from 'primereact/tag';
import type { ManagedBy } from '../../contract/catalogue.js';

/** What a catalogue source's file decides (docs/decisions.md#catalogue-as-code), said beside the mark. */
export const MANAGED_SERVICE_FIELDS = 'Its name, description, links, owner, stage and dependencies';
export const MANAGED_TEAM_FIELDS = 'Its name, description and parent';

/**
 * "Managed in {source}" (docs/decisions.md#catalogue-as-code): on a service or team whose fields a catalogue source's
 * file decides, for every member, with the file and line where to change them.
 */
export function ManagedMark({ managedBy, what }: { managedBy: ManagedBy | null; what: string }) {
  if (!managedBy) return null;
  const where = `${managedBy.path}:${managedBy.line}`;
  return (
    <p className="m-0 mt-2 flex flex-wrap align-items-center gap-2 beacon-managed-mark">
      <Tag icon="pi pi-file" value={`Managed in ${managedBy.source}`} severity="info" />
      <span className="text-600 text-sm beacon-editor-wrap">
        {what} change in <code>{where}</code>
      </span>
    </p>
  );
}
