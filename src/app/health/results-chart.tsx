import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { HealthCheck, HealthCheckResult } from '../../contract/health.js';
import { summariseCheckResults, type CheckResultsSummary } from '../../domain/health.js';
import { useAuth } from '../auth/auth-context.js';
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
      { name: 'Response time', type: 'line', data: results.map(point) },
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

/** A health check's results over the last 24 hours, or 'No Data Available' when it has none. */
export function HealthCheckResultsChart({ check }: { check: Pick<HealthCheck, 'id' | 'name'> }) {
  const { api } = useAuth();
  const { data, isPending, isError } = useQuery(getHealthCheckResultsQueryOptions(api, check.id));
  if (isPending) return <Spinner label={`Loading results of ${check.name}`} />;
  if (isError || data.length === 0) return <p className="m-0 text-600">{NO_DATA}</p>;
  return <Chart name={check.name} results={data} />;
}
