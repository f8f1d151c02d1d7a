import { Button } from 'primereact/button';
import { useNavigate } from 'react-router-dom';
import type { Service } from '../../contract/catalogue.js';
import { healthLabel } from '../../domain/catalogue.js';
import { formatUptime, type DayRollup } from '../../domain/health.js';
import { Spinner } from '../components/status-screens.js';
import { HEALTH_COLOURS } from '../components/health-colours.js';
import { healthChecksScreenPath, useServiceHealth } from './health-api.js';
import { NO_DATA } from './results-chart.js';

const BAR_GAP = 1;

const dateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A report date ('YYYY-MM-DD', a UTC day) as 'MMM D, YYYY'. */
export function formatDay(date: string): string {
  const time = Date.parse(`${date}T00:00:00.000Z`);
  return Number.isNaN(time) ? date : dateFormat.format(time);
}

/** A bar's label and tooltip: 'Jan 5, 2024: Critical (2h 5m of critical, 10m of warning)'. */
export function dayLabel(day: DayRollup): string {
  const status = `${formatDay(day.date)}: ${healthLabel(day.status)}`;
  return day.messages.length > 0 ? `${status} (${day.messages.join(', ')})` : status;
}

/** One bar per day, oldest first, coloured by the day's status; plain DOM, so each day is read out. */
export function DailyHealthBars({ days, label }: { days: DayRollup[]; label: string }) {
  const first = days[0];
  const last = days[days.length - 1];
  // Bars up to 1rem wide: a young service's few days stay narrow, and the dates under them stay beneath them.
  const width = `calc(${days.length} * 1rem + ${Math.max(0, days.length - 1)} * ${BAR_GAP}px)`;
  return (
    <div className="flex flex-column gap-1">
      <ol
        className="list-none p-0 m-0 flex"
        style={{ height: '2.5rem', gap: BAR_GAP, maxWidth: width }}
        aria-label={label}
      >
        {days.map((day) => {
          const text = dayLabel(day);
          return (
            <li key={day.date} className="flex-1" style={{ minWidth: 1 }}>
              <span
                role="img"
                aria-label={text}
                title={text}
                className="block h-full border-round-sm"
                style={{ background: HEALTH_COLOURS[day.status] }}
              />
            </li>
          );
        })}
      </ol>
      {first && last && (
        <div
          className="flex justify-content-between gap-2 text-600 text-sm white-space-nowrap"
          style={{ maxWidth: width, minWidth: 'max-content' }}
          aria-hidden="true"
        >
          <span>{formatDay(first.date)}</span>
          {last !== first && <span>{formatDay(last.date)}</span>}
        </div>
      )}
    </div>
  );
}

/**
 * A service's uptime and daily bars (the overview's Overall Health and the team's Health tab): a spinner while
 * the report and its rollup load, 'No Data Available' when there is no report.
 */
export function ServiceHealthHistory({ service }: { service: Pick<Service, 'handle' | 'name' | 'created_at'> }) {
  const { report, rollup } = useServiceHealth(service);
  if (report.isError || rollup.isError || (report.isSuccess && report.data.length === 0)) {
    return <p className="m-0 text-600">{NO_DATA}</p>;
  }
  if (!rollup.data) return <Spinner label={`Loading health of ${service.name}`} />;
  return (
    <div className="flex flex-column gap-2">
      <p className="m-0">
        <span className="text-600">Uptime </span>
        <strong className="text-xl">{formatUptime(rollup.data.uptime)}</strong>
      </p>
      <DailyHealthBars days={rollup.data.days} label={`Daily health of ${service.name}`} />
    </div>
  );
}

/** 'View HealthChecks': to the service's Health Checks screen. */
export function ViewHealthChecksButton({ service }: { service: Pick<Service, 'handle'> }) {
  const navigate = useNavigate();
  return (
    <Button
      type="button"
      label="View HealthChecks"
      outlined
      onClick={() => navigate(healthChecksScreenPath(service.handle))}
    />
  );
}
