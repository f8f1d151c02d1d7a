import type { Service } from '../../contract/catalogue.js';

/** The overview's Remote Dependencies card (spec/catalogue.md 2.1). */
export function RemoteDependenciesCard(_props: { service: Service }) {
  return null;
}
