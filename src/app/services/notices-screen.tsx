import type { Service } from '../../contract/catalogue.js';

/** /services/:id/notices (spec/catalogue.md 2.1). Placeholder: filled in by the notices screen work. */
export function NoticesScreen({ service }: { service: Service }) {
  return <p>{service.name}</p>;
}
