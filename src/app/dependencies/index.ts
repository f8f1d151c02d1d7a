/** What the dependencies feature offers: the overview's dependency cards and the Service Graph tab. */
export { DependenciesCard, DependentsCard } from './dependencies-cards.js';
export { RemoteDependenciesCard } from './remote-dependencies-card.js';
export { graphSection } from './graph-section.js';
