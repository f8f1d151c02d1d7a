import type { Service } from '../../contract/catalogue.js';

/** The overview's Dependencies card (spec/catalogue.md 2.1). */
export function DependenciesCard(_props: { service: Service }) {
  return null;
}

/** The overview's Dependents card: read only. */
export function DependentsCard(_props: { service: Service }) {
  return null;
}
