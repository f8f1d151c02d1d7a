import { Route, Routes } from 'react-router-dom';
import type { PageSection } from '../../contract/pages.js';
import type { ServiceSection } from '../services/index.js';
import { DraftEditor } from './draft-editor.js';
import { DraftList } from './draft-list.js';
import { PAGE_KINDS } from './page-kinds.js';
import { PublishedList, PublishedView, type PublishedExtras } from './published-pages.js';

/** A section's published pages (spec 2.1): the list at its path and one page below it, for everyone. */
function publishedSection(section: PageSection, extras: PublishedExtras = {}): ServiceSection {
  const kind = PAGE_KINDS[section];
  return {
    label: kind.label,
    icon: kind.icon,
    path: section,
    nested: true,
    shown: () => true,
    render: ({ service }) => (
      <Routes>
        <Route index element={<PublishedList service={service} kind={kind} cards={extras.list} />} />
        <Route
          path=":pageId"
          element={<PublishedView key={section} service={service} kind={kind} cards={extras.page} />}
        />
      </Routes>
    ),
  };
}

/**
 * A section's drafts (spec 2.1, editors only): the list, /new and /{draftId}. Crumbs: 'Drafts Announcements',
 * then 'Draft Announcement' in the editor.
 */
function draftsSection(section: PageSection): ServiceSection {
  const kind = PAGE_KINDS[section];
  return {
    label: kind.draftsLabel,
    icon: 'pi pi-file-edit',
    path: kind.draftsPath,
    nested: true,
    shown: (service) => service.permissions.edit,
    crumbs: (path) =>
      path === kind.draftsPath
        ? [{ label: kind.draftsLabel }]
        : [{ label: kind.draftsLabel, to: kind.draftsPath }, { label: `Draft ${kind.one}` }],
    render: ({ service }) => (
      <Routes>
        <Route index element={<DraftList service={service} kind={kind} />} />
        <Route path=":draftId" element={<DraftEditor service={service} kind={kind} />} />
      </Routes>
    ),
  };
}

export const announcementsSection = publishedSection('announcements');
export const releaseNotesSection = publishedSection('release-notes');
export const apiDocsSection = publishedSection('api-docs');
/** The specs, with the other features' cards (API drift above the list, proposed checks on a spec). */
export const openApiSpecsSection = (extras: PublishedExtras = {}) => publishedSection('open-api-specs', extras);
export const draftAnnouncementsSection = draftsSection('announcements');
export const draftReleaseNotesSection = draftsSection('release-notes');
export const draftApiDocsSection = draftsSection('api-docs');
export const draftOpenApiSpecsSection = draftsSection('open-api-specs');
