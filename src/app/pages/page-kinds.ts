import type { PageSection } from '../../contract/pages.js';

/** What the screens call one section's pages (spec/catalogue.md 2.1 and 5). */
export interface PageKind {
  section: PageSection;
  /** The published list's tab and heading. */
  label: string;
  icon: string;
  /** One page, as the draft editor's crumb names it ('Draft Announcement'). */
  one: string;
  /** The published list's empty text. */
  empty: string;
  /** The draft list's path below the service and its tab label (also its crumb). */
  draftsPath: string;
  draftsLabel: string;
  /** The editor's placeholders for the title and the handle. */
  titlePlaceholder: string;
  handlePlaceholder: string;
  /** What the title is called: name for announcements and release notes, version for docs and specs. */
  titleLabel: 'Name' | 'Version';
  /** Specs are YAML (or JSON) shown in the interactive API view; the rest is markdown. */
  format: 'markdown' | 'yaml';
}

export const PAGE_KINDS: Record<PageSection, PageKind> = {
  announcements: {
    section: 'announcements',
    label: 'Announcements',
    icon: 'pi pi-info-circle',
    one: 'Announcement',
    empty: 'No published Announcements',
    draftsPath: 'draft-announcements',
    draftsLabel: 'Drafts Announcements',
    titlePlaceholder: 'Announcement Name',
    handlePlaceholder: 'announcement-handle',
    titleLabel: 'Name',
    format: 'markdown',
  },
  'release-notes': {
    section: 'release-notes',
    label: 'Release Notes',
    icon: 'pi pi-tags',
    one: 'Release Note',
    empty: 'No published Release Notes',
    draftsPath: 'draft-release-notes',
    draftsLabel: 'Drafts Release Notes',
    titlePlaceholder: 'Release Note Name',
    handlePlaceholder: 'release-note-handle',
    titleLabel: 'Name',
    format: 'markdown',
  },
  'api-docs': {
    section: 'api-docs',
    label: 'API Docs',
    icon: 'pi pi-book',
    one: 'API Doc',
    empty: 'No published Api Docs',
    draftsPath: 'draft-api-docs',
    draftsLabel: 'Drafts API Docs',
    titlePlaceholder: 'API Doc Name',
    handlePlaceholder: 'api-doc-handle',
    titleLabel: 'Version',
    format: 'markdown',
  },
  'open-api-specs': {
    section: 'open-api-specs',
    label: 'Open API Specs',
    icon: 'pi pi-code',
    one: 'Open API Spec',
    empty: 'No published open api specs',
    draftsPath: 'draft-open-api-specs',
    draftsLabel: 'Drafts Open API Specs',
    titlePlaceholder: 'Open API Spec Name',
    handlePlaceholder: 'open-api-spec-handle',
    titleLabel: 'Version',
    format: 'yaml',
  },
};

/** The draft list's empty text: the section's no-results text (a 'Create one' link follows it). */
export function noDraftsText(kind: PageKind): string {
  return `No ${kind.label} drafts.`;
}
