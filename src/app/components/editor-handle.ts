import { HANDLE_PATTERN, HANDLE_RULE, messages } from '../../domain/validators.js';

/** The handle check the admin editors share (status pages, scorecards); no React, so drafts' logic can use it. */

export { HANDLE_RULE };
export const HANDLE_RESERVED = 'This handle is reserved';

/** What is wrong with a new one's handle (a saved one's is fixed, so never wrong). */
export function editorHandleError(handle: string, { creating }: { creating: boolean }) {
  if (!creating) return null;
  if (handle === '') return messages.required;
  if (handle.length > 64) return 'At most 64 characters';
  if (!HANDLE_PATTERN.test(handle)) return HANDLE_RULE;
  // The editor's own route: one called "new" could not be opened for editing.
  return handle === 'new' ? HANDLE_RESERVED : null;
}
