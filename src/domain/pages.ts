/**
 * Pages (docs/decisions.md#pages, spec/catalogue.md sections 2.1 and 4): what each section is called, which alias its
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

/** Announcements and release notes call their title `name`; API docs and specs `version` (docs/decisions.md#pages). */
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

/** Spec pages: what the published view says of a document that parses to something other than an object. */
export const SPEC_NOT_AN_OBJECT = 'The document is not an OpenAPI object.';

/** An OpenAPI document parsed from YAML or JSON is an object (not a list, a string or nothing). */
export function isSpecObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How many of a validator's messages a refusal names; the rest are counted. */
export const SPEC_PROBLEMS_SHOWN = 3;

/** The key on the line a validator's code frame marks (`>  4 |     "/entries": []`), if the line has one. */
const MARKED_KEY = /^>\s*\d+\s*\|\s*"((?:[^"\\]|\\.)*)"\s*:/m;

/**
 * A spec validator's messages as short sentences: the first line of each of the first few, with the key its code
 * frame points at when it points at one ('TYPE must be object (at "/entries")'), then how many more there were.
 */
export function specProblems(messages: readonly string[], more = 0, shown = SPEC_PROBLEMS_SHOWN): string[] {
  const lines = messages
    .map((message) => {
      const first = message.trim().split('\n')[0]!.trim();
      const key = MARKED_KEY.exec(message)?.[1];
      return first && key ? `${first} (at "${key}")` : first;
    })
    .filter(Boolean);
  const kept = lines.slice(0, shown);
  const rest = lines.length - kept.length + more;
  return rest > 0 ? [...kept, `…and ${rest} more ${rest === 1 ? 'problem' : 'problems'}`] : kept;
}
