import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { HealthCheck, HealthCheckResult } from '../../contract/health.js';
import dayjs from 'dayjs';
import { Tag, type TagProps } from 'primereact/tag';
import {
  checkStatusOf,
  summariseCheckResults,
  type CheckResultsSummary,
  type CheckState,
  type CheckStatus,
} from '../../domain/health.js';
import { useApi } from '../api/use-api.js';
import { Spinner } from '../components/status-screens.js';
import { ApexChart, type ApexOptions } from './apex-chart.js';
import { getHealthCheckResultsQueryOptions } from './health-api.js';

export const NO_DATA = 'No Data Available';
const CHART_HEIGHT = 220;
/** Spec graph colours: good green, critical red (the same shades as the health dots). */
const SUCCESS_COLOUR = '#15803d';
const FAILURE_COLOUR = '#b91c1c';

/** The sentence under the chart, also its accessible name. */
export function resultsSummaryText({ count, failures, meanMs }: CheckResultsSummary): string {
  const results = `${count} ${count === 1 ? 'result' : 'results'}`;
  return `Last 24 hours: ${results}, ${failures} failed, mean response time ${meanMs ?? 0} ms`;
}

/** Response times as a line; failures as red points on it, their status or error in the tooltip. */
export function resultsChartOptions(results: readonly HealthCheckResult[]): ApexOptions {
  const point = (result: HealthCheckResult) => ({ x: Date.parse(result.start), y: result.time });
  return {
    chart: {
      type: 'line',
      height: CHART_HEIGHT,
      animations: { enabled: false },
      toolbar: { show: false },
      zoom: { enabled: false },
      fontFamily: 'inherit',
    },
    series: [
      // Failed probes break the line (their time is how long the failure took, not a response time).
      {
        name: 'Response time',
        type: 'line',
        data: results.map((result) => (result.success ? point(result) : { x: point(result).x, y: null })),
      },
      { name: 'Failed', type: 'scatter', data: results.filter((result) => !result.success).map(point) },
    ],
    colors: [SUCCESS_COLOUR, FAILURE_COLOUR],
    stroke: { width: [2, 0], curve: 'straight' },
    markers: { size: [0, 5] },
    xaxis: { type: 'datetime', labels: { datetimeUTC: false } },
    yaxis: { title: { text: 'ms' }, min: 0, labels: { formatter: (value: number) => String(Math.round(value)) } },
    tooltip: { shared: false, x: { format: 'MMM dd, HH:mm:ss' } },
    legend: { show: true },
    dataLabels: { enabled: false },
  };
}

function Chart({ name, results }: { name: string; results: HealthCheckResult[] }) {
  const options = useMemo(() => resultsChartOptions(results), [results]);
  const summary = resultsSummaryText(summariseCheckResults(results));
  return (
    <figure className="m-0">
      <ApexChart options={options} label={`Response times of ${name}`} height={CHART_HEIGHT} />
      <figcaption className="text-600 text-sm">{summary}</figcaption>
    </figure>
  );
}

const STATE_TAGS: Record<CheckState, { value: string; severity: TagProps['severity'] }> = {
  up: { value: 'Up', severity: 'success' },
  down: { value: 'Down', severity: 'danger' },
  paused: { value: 'Paused', severity: 'warning' },
  disabled: { value: 'Disabled', severity: 'danger' },
  unknown: { value: 'No results yet', severity: 'info' },
};

/** The check's state, its uptime over the last 24 hours and why it last failed. */
function CheckStatusLine({ status }: { status: CheckStatus }) {
  const tag = STATE_TAGS[status.state];
  return (
    <div className="flex flex-wrap align-items-center gap-2">
      <Tag value={tag.value} severity={tag.severity} />
      {status.uptime !== null && <span className="text-700 text-sm">Uptime 24 h: {status.uptime.toFixed(2)}%</span>}
      {status.lastError && (
        <span className="text-700 text-sm">
          Last error: <strong>{status.lastError.message}</strong> ·{' '}
          <time dateTime={status.lastError.start}>{dayjs(status.lastError.start).format('MMM D, hh:mm a')}</time>
        </span>
      )}
    </div>
  );
}

/**
 * A health check's state and results over the last 24 hours: up or down with the last error, the uptime, and the
 * response times with failures marked; 'No Data Available' when it has no results.
 */
export function HealthCheckResultsChart({
  check,
}: {
  check: Pick<HealthCheck, 'id' | 'name' | 'paused' | 'disabled' | 'allowed_failures'>;
}) {
  const api = useApi();
  const { data, isPending } = useQuery(getHealthCheckResultsQueryOptions(api, check.id));
  if (isPending) return <Spinner label={`Loading results of ${check.name}`} />;
  const results = data ?? [];
  const status = checkStatusOf(check, results);
  return (
    <div className="flex flex-column gap-2">
      <CheckStatusLine status={status} />
      {results.length === 0 ? <p className="m-0 text-600">{NO_DATA}</p> : <Chart name={check.name} results={results} />}
    </div>
  );
}
