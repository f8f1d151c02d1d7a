/**
 * How the pages' section doors name their operations (operations/pages.ts declares them; the server's page
 * routes find each door's handlers by these names). Apart from the declarations, so that the app's build can
 * take operations/pages.ts as data (scripts/app-operations.ts).
 */
import type { PageSection } from './pages.js';

/** How a door's operations are named: `listAnnouncements`, `getAnnouncement`, `updateAnnouncementDraft`... */
export type DoorNames<O extends string, M extends string> = {
  list: `list${M}`;
  get: `get${O}`;
  listDrafts: `list${O}Drafts`;
  createDraft: `create${O}Draft`;
  getDraft: `get${O}Draft`;
  updateDraft: `update${O}Draft`;
  deleteDraft: `delete${O}Draft`;
  publishDraft: `publish${O}Draft`;
  unpublishDraft: `unpublish${O}Draft`;
  getContent: `get${O}Content`;
  getDraftContent: `get${O}DraftContent`;
  updateDraftContent: `update${O}DraftContent`;
  deleteDraftContent: `delete${O}DraftContent`;
};
export type DoorVerb = keyof DoorNames<string, string>;

/** A door's name for one of its operations, e.g. ('getDraft', 'Announcement', 'Announcements'). */
export function doorOperationName(verb: DoorVerb, one: string, many: string): string {
  if (verb === 'list') return `list${many}`;
  const [, action, rest] = /^([a-z]+)(.*)$/.exec(verb)!;
  return `${action}${one}${rest}`;
}

/** What each section's door calls one page and several. */
export const DOOR_NAMES = {
  announcements: { one: 'Announcement', many: 'Announcements' },
  'release-notes': { one: 'ReleaseNote', many: 'ReleaseNotes' },
  'api-docs': { one: 'ApiDoc', many: 'ApiDocs' },
  'open-api-specs': { one: 'OpenApiSpec', many: 'OpenApiSpecs' },
} as const satisfies Record<PageSection, { one: string; many: string }>;
