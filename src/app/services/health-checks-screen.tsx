import type { Service } from '../../contract/catalogue.js';

/** /services/:id/health-checks (spec/catalogue.md 2.1). Placeholder: filled in by the health-checks screen work. */
export function HealthChecksScreen({ service }: { service: Service }) {
  return <p>{service.name}</p>;
}
