/**
 * What the pages feature offers the other features: the service's page sections (published and drafts), the
 * overview's What's New card, the export cards and the draft save write kind.
 */
export {
  announcementsSection,
  releaseNotesSection,
  apiDocsSection,
  openApiSpecsSection,
  draftAnnouncementsSection,
  draftReleaseNotesSection,
  draftApiDocsSection,
  draftOpenApiSpecsSection,
} from './page-sections.js';
export { WhatsNewCard } from './whats-new-card.js';
export { ExportServicePagesCard, ExportWorkspacePagesCard } from './export-pages.js';
export { draftSaveWrite } from './draft-writes.js';
