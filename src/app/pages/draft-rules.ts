/** What the editor holds and what the server has (spec section 4: drafts). */
export interface DraftFields {
  title: string;
  content: string;
}

/** Spec 4: Save only when title and content are non-empty and they differ from what is stored. */
export function canSave(fields: DraftFields, stored: DraftFields | null): boolean {
  if (!fields.title.trim() || !fields.content.trim()) return false;
  return !stored || fields.title !== stored.title || fields.content !== stored.content;
}

/** Spec 4: publish only once the draft has an id; directly when unchanged, else save first. */
export function publishPlan(fields: DraftFields, stored: DraftFields | null): 'none' | 'publish' | 'save-then-publish' {
  if (!stored) return 'none';
  if (fields.title === stored.title && fields.content === stored.content) return 'publish';
  return canSave(fields, stored) ? 'save-then-publish' : 'none';
}

/** Spec 4: unpublish only when the draft has a published date. */
export function canUnpublish(stored: { published_at: string | null } | null): boolean {
  return Boolean(stored?.published_at);
}
