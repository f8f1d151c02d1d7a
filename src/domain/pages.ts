/**
 * Pages (DESIGN.md 10, spec/catalogue.md sections 2.1 and 4): what each section is called, which alias its
 * title goes by, and the handle a new page takes from its title. Shared by the server and the app.
 */
import { handleFromText } from './validators.js';

export const PAGE_SECTIONS = ['announcements', 'release-notes', 'api-docs', 'open-api-specs'] as const;
export type PageSection = (typeof PAGE_SECTIONS)[number];

/** One page of the section, as a sentence names it ('Announcement published: ...'). */
export const PAGE_SECTION_ITEM: Record<PageSection, string> = {
  announcements: 'announcement',
  'release-notes': 'release notes',
  'api-docs': 'API docs',
  'open-api-specs': 'OpenAPI spec',
};

/** Announcements and release notes call their title `name`; API docs and specs `version` (DESIGN.md 10). */
export function titleAlias(section: PageSection): 'name' | 'version' {
  return section === 'announcements' || section === 'release-notes' ? 'name' : 'version';
}

/** The file a section's pages are kept as in an export: specs are YAML (or JSON), the rest markdown. */
export function pageFileExtension(section: PageSection): string {
  return section === 'open-api-specs' ? 'yml' : 'md';
}

/** 'Release 2.0: faster checkout!' -> 'release-2-0-faster-checkout'; 'page' when nothing is left. */
export function pageHandleFromTitle(title: string): string {
  return handleFromText(title) || 'page';
}
