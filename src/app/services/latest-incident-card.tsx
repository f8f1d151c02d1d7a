import type { Service } from '../../contract/catalogue.js';

/** The overview's latest open incident (spec/catalogue.md 2.1). Placeholder: filled in by the notices work. */
export function LatestIncidentCard(_props: { service: Service }) {
  return null;
}
