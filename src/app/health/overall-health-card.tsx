import { Card } from 'primereact/card';
import type { Service } from '../../contract/catalogue.js';
import { ServiceHealthHistory, ViewHealthChecksButton } from './daily-health-bars.js';

/**
 * The overview's Overall Health (spec/catalogue.md 2.1): the uptime and one bar per day since the later of the
 * service's creation and 90 days ago, with a View HealthChecks button.
 */
export function OverallHealthCard({ service }: { service: Service }) {
  return (
    <Card title={<h2 className="text-xl font-semibold m-0">Overall Health</h2>}>
      <div className="flex flex-column gap-3">
        <ServiceHealthHistory service={service} />
        <div>
          <ViewHealthChecksButton service={service} />
        </div>
      </div>
    </Card>
  );
}
