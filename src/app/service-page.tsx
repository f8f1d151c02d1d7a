import type { Service } from '../contract/catalogue.js';
import { DependenciesCard, DependentsCard, graphSection, RemoteDependenciesCard } from './dependencies/index.js';
import { healthChecksSection, OverallHealthCard } from './health/index.js';
import { LatestIncidentCard, noticesSection } from './notices/index.js';
import {
  announcementsSection,
  apiDocsSection,
  draftAnnouncementsSection,
  draftApiDocsSection,
  draftOpenApiSpecsSection,
  draftReleaseNotesSection,
  ExportServicePagesCard,
  openApiSpecsSection,
  releaseNotesSection,
  WhatsNewCard,
} from './pages/index.js';
import { overviewSection, ServiceScreen, settingsSection, tabsOf } from './services/index.js';
import { scorecardsSection } from './scorecards/index.js';
import { SloCard, SloSettingCard } from './slo/index.js';
import { ApiDriftCard, ProposeChecks } from './spec-checks/index.js';

/** The service screens as the product has them: each section from the feature that owns it. */
const SECTIONS = [
  overviewSection([
    LatestIncidentCard,
    WhatsNewCard,
    OverallHealthCard,
    SloCard,
    ApiDriftCard,
    DependenciesCard,
    RemoteDependenciesCard,
    DependentsCard,
  ]),
  healthChecksSection,
  noticesSection,
  announcementsSection,
  releaseNotesSection,
  apiDocsSection,
  openApiSpecsSection({ list: [ApiDriftCard], page: [ProposeChecks] }),
  graphSection,
  scorecardsSection,
  draftAnnouncementsSection,
  draftReleaseNotesSection,
  draftApiDocsSection,
  draftOpenApiSpecsSection,
  settingsSection([SloSettingCard, ExportServicePagesCard]),
];

/** The side menu a viewer sees for a service. */
export function serviceTabs(service: Pick<Service, 'permissions'>) {
  return tabsOf(SECTIONS, service);
}

export default function ServicePage() {
  return <ServiceScreen sections={SECTIONS} />;
}
