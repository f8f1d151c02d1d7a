import type { Service } from '../../contract/catalogue.js';

/** The overview's Overall Health chart (spec/catalogue.md 2.1). Placeholder: filled in by the health UI work. */
export function OverallHealthCard(_props: { service: Service }) {
  return null;
}
