import type { QueryKey } from '@tanstack/react-query';
import { pageOperations } from '../../contract/operations/pages.js';
import type { DraftPage } from '../../contract/pages.js';
import { keys } from '../api/query-keys.js';
import { isQueryKey, writeKind } from '../local/writes.js';

/**
 * A draft save through the outbox (docs/decisions.md#offline and #pages): the editor shows the text at once, the save
 * is sent when the app is online, and a 412 on replay (someone else saved meanwhile) is kept as a conflict for the user
 * to settle: keep mine (sent again on the current lock) or take theirs. Never a silent overwrite.
 */
export const draftSaveWrite = writeKind({
  kind: 'draft-save',
  operation: pageOperations.updateDraftPage,
  overlay: (queryKey: QueryKey, data: unknown, { params, body }) => {
    if (!isQueryKey(queryKey, keys.draft(params.service, params.section, params.handle))) return data;
    const draft = data as DraftPage | undefined;
    if (!draft) return data;
    const title = body.title ?? draft.title;
    const content = body.content ?? draft.content;
    return title === draft.title && content === draft.content ? data : { ...draft, title, content };
  },
  invalidates: ({ params }) => [keys.drafts(params.service)],
  // Keep mine: the same text, on the lock the server holds now.
  rebase: (input, current) => ({ ...input, body: { ...input.body, lock: (current as DraftPage).lock } }),
});
