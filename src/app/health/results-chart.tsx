import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { SelectButton } from 'primereact/selectbutton';
import { Tag, type TagProps } from 'primereact/tag';
import { useMemo, useState } from 'react';
import type { HealthCheck, HealthCheckResult } from '../../contract/health.js';
import type { AggregatePoint } from '../../domain/check-aggregates.js';
import {
  aggregatesSummaryText,
  bucketFailureText,
  chartRange,
  CHART_RANGES,
  CHECK_STATE_LABELS,
  checkCardStatus,
  ERROR_CLASS_LABELS,
  failureRunText,
  failureText,
  latestResultOf,
  pingAggregatesSummaryText,
  pingKindOf,
  PING_KIND_LABELS,
  pingsSummaryText,
  recoveryText,
  formatUptimeShare,
  pointsSince,
  resultsSince,
  summariseAggregates,
  summariseResponseTimes,
  UPTIME_SPAN_MS,
  uptimeOverWindows,
  type ChartRange,
  type ChartRangeId,
  type CheckCardStatus,
  type PingKind,
} from '../../domain/check-card.js';
import type { CheckResultsSummary, CheckState } from '../../domain/health.js';
import { useApi } from '../session/use-api.js';
import { Spinner } from '../components/status-screens.js';
import { ApexChart, type ApexOptions } from './apex-chart.js';
import { getHealthCheckAggregatesQueryOptions, getHealthCheckResultsQueryOptions } from './health-api.js';
import { errorLine, FailingAssertions, ResultFacts } from './result-details.js';

export const NO_DATA = 'No Data Available';
const CHART_HEIGHT = 220;
/** A heartbeat's chart has three rows, not a scale. */
const PINGS_HEIGHT = 180;
/** Spec graph colours: good green, critical red (the same shades as the health dots); p95 a muted blue. */
const SUCCESS_COLOUR = '#15803d';
const P95_COLOUR = '#0369a1';
const FAILURE_COLOUR = '#b91c1c';
/** The aggregates behind the uptime figures and the long chart ranges: hours of the last 30 days. */
const AGGREGATES_BUCKET = 'hour';
const AGGREGATES_SPAN = { id: '30d', ms: UPTIME_SPAN_MS };

/** The sentence under a results chart, its mean over the successful probes only. */
export function resultsSummaryText(
  { count, failures, meanMs }: CheckResultsSummary,
  caption: string = 'Last 24 hours',
): string {
  const results = `${count} ${count === 1 ? 'result' : 'results'}`;
  const mean = meanMs === null ? 'no successful probe' : `mean response time ${meanMs} ms`;
  return `${caption}: ${results}, ${failures} failed, ${mean}`;
}

const baseOptions = (): ApexOptions => ({
  chart: {
    type: 'line',
    height: CHART_HEIGHT,
    animations: { enabled: false },
    toolbar: { show: false },
    zoom: { enabled: false },
    fontFamily: 'inherit',
  },
  xaxis: { type: 'datetime', labels: { datetimeUTC: false } },
  legend: { show: true },
  dataLabels: { enabled: false },
});

const ms = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : `${Math.round(value)} ms`;

/**
 * Response times of the successful probes as a line, broken where a probe failed (a failure's duration is how
 * long it took to fail, not a response time); each failure a red point on the baseline with its error in the
 * tooltip.
 */
export function resultsChartOptions(results: readonly HealthCheckResult[]): ApexOptions {
  const failures = results.filter((result) => !result.success);
  return {
    ...baseOptions(),
    series: [
      {
        name: 'Response time',
        type: 'line',
        data: results.map((result) => ({ x: Date.parse(result.start), y: result.success ? result.time : null })),
      },
      { name: 'Failed', type: 'scatter', data: failures.map((result) => ({ x: Date.parse(result.start), y: 0 })) },
    ],
    colors: [SUCCESS_COLOUR, FAILURE_COLOUR],
    stroke: { width: [2, 0], curve: 'straight' },
    markers: { size: [0, 5] },
    yaxis: { title: { text: 'ms' }, min: 0, labels: { formatter: (value: number) => String(Math.round(value)) } },
    tooltip: {
      shared: false,
      x: { format: 'MMM dd, HH:mm:ss' },
      y: {
        formatter: (
          value: number,
          { seriesIndex, dataPointIndex }: { seriesIndex: number; dataPointIndex: number },
        ) => {
          if (seriesIndex !== 1) return ms(value);
          const failed = failures[dataPointIndex];
          return failed ? failureText(failed) : 'Failed';
        },
      },
    },
  };
}

/**
 * Hourly p50 and p95 of the successful probes (broken where none succeeded); each bucket with failures a red
 * point on the baseline, its share of failed probes in the tooltip.
 */
export function aggregatesChartOptions(
  points: readonly AggregatePoint[],
  span: { from: number; to: number },
): ApexOptions {
  const failed = points.filter((point) => point.failures > 0);
  const line = (pick: (point: AggregatePoint) => number | null) =>
    points.map((point) => ({ x: Date.parse(point.time), y: pick(point) }));
  return {
    ...baseOptions(),
    series: [
      { name: 'p50', type: 'line', data: line((point) => point.p50) },
      { name: 'p95', type: 'line', data: line((point) => point.p95) },
      { name: 'Failed', type: 'scatter', data: failed.map((point) => ({ x: Date.parse(point.time), y: 0 })) },
    ],
    colors: [SUCCESS_COLOUR, P95_COLOUR, FAILURE_COLOUR],
    stroke: { width: [2, 1.5, 0], curve: 'straight', dashArray: [0, 4, 0] },
    // Small markers on the lines: an hour between failed ones (or a check's first hour) is a point, not a line.
    markers: { size: [2, 2, 5] },
    // The whole range, so a check probed for an hour reads as an hour of the week, not as the week.
    xaxis: { type: 'datetime', labels: { datetimeUTC: false }, min: span.from, max: span.to },
    yaxis: { title: { text: 'ms' }, min: 0, labels: { formatter: (value: number) => String(Math.round(value)) } },
    tooltip: {
      shared: false,
      x: { format: 'MMM dd, HH:mm' },
      y: {
        formatter: (
          value: number,
          { seriesIndex, dataPointIndex }: { seriesIndex: number; dataPointIndex: number },
        ) => {
          if (seriesIndex !== 2) return ms(value);
          const point = failed[dataPointIndex];
          return point ? bucketFailureText(point) : 'Failed';
        },
      },
    },
  };
}

/** A heartbeat's rows, top to bottom: pings, pings reporting a failure, looks that found the job late. */
const PING_ROWS: readonly PingKind[] = ['late', 'fail', 'ping'];
const PING_COLOURS: Record<PingKind, string> = { ping: SUCCESS_COLOUR, fail: FAILURE_COLOUR, late: '#b45309' };

/** A heartbeat's pings as points in time, one row per kind, each failure or late look with its message. */
export function pingsChartOptions(results: readonly HealthCheckResult[]): ApexOptions {
  const byKind = PING_ROWS.map((kind) => results.filter((result) => pingKindOf(result) === kind));
  return {
    ...baseOptions(),
    chart: { ...baseOptions().chart, type: 'scatter', height: PINGS_HEIGHT },
    series: PING_ROWS.map((kind, row) => ({
      name: PING_KIND_LABELS[kind],
      data: byKind[row]!.map((result) => ({ x: Date.parse(result.start), y: row })),
    })),
    colors: PING_ROWS.map((kind) => PING_COLOURS[kind]),
    markers: { size: 6 },
    yaxis: {
      min: -0.5,
      max: PING_ROWS.length - 0.5,
      tickAmount: PING_ROWS.length + 1,
      labels: {
        formatter: (value: number) => (Number.isInteger(value) ? PING_KIND_LABELS[PING_ROWS[value] ?? 'ping'] : ''),
      },
    },
    tooltip: {
      shared: false,
      x: { format: 'MMM dd, HH:mm:ss' },
      y: {
        formatter: (
          _value: number,
          { seriesIndex, dataPointIndex }: { seriesIndex: number; dataPointIndex: number },
        ) => {
          const result = byKind[seriesIndex]?.[dataPointIndex];
          return result && !result.success ? failureText(result) : '';
        },
      },
    },
  };
}

/** Successful pings per bucket, and the buckets' failures or late looks (aggregates cannot tell them apart). */
export function pingAggregatesChartOptions(
  points: readonly AggregatePoint[],
  span: { from: number; to: number },
): ApexOptions {
  return {
    ...baseOptions(),
    chart: { ...baseOptions().chart, type: 'bar', stacked: true, height: PINGS_HEIGHT },
    series: [
      { name: 'Pings', data: points.map((point) => ({ x: Date.parse(point.time), y: point.probes - point.failures })) },
      { name: 'Failed or late', data: points.map((point) => ({ x: Date.parse(point.time), y: point.failures })) },
    ],
    colors: [SUCCESS_COLOUR, FAILURE_COLOUR],
    xaxis: { type: 'datetime', labels: { datetimeUTC: false }, min: span.from, max: span.to },
    yaxis: { min: 0, labels: { formatter: (value: number) => String(Math.round(value)) } },
    tooltip: { shared: true, x: { format: 'MMM dd, HH:mm' } },
  };
}

function Figure({
  label,
  options,
  caption,
  height = CHART_HEIGHT,
}: {
  label: string;
  options: ApexOptions;
  caption: string;
  height?: number;
}) {
  return (
    <figure className="m-0">
      <ApexChart options={options} label={label} height={height} />
      <figcaption className="text-600 text-sm">{caption}</figcaption>
    </figure>
  );
}

function ResultsChart({ name, results, range }: { name: string; results: HealthCheckResult[]; range: ChartRange }) {
  const shown = useMemo(
    () => (range.id === '24h' ? results : resultsSince(results, Date.now() - range.ms)),
    [results, range],
  );
  const options = useMemo(() => resultsChartOptions(shown), [shown]);
  if (shown.length === 0) return <p className="m-0 text-600">{NO_DATA}</p>;
  const caption = resultsSummaryText(summariseResponseTimes(shown), range.caption);
  return (
    <Figure label={`Response times of ${name}, ${range.caption.toLowerCase()}`} options={options} caption={caption} />
  );
}

function AggregatesChart({ name, points, range }: { name: string; points: AggregatePoint[]; range: ChartRange }) {
  const { shown, options } = useMemo(() => {
    const to = Date.now();
    const inRange = pointsSince(points, to - range.ms, AGGREGATES_BUCKET);
    return { shown: inRange, options: aggregatesChartOptions(inRange, { from: to - range.ms, to }) };
  }, [points, range]);
  const summary = summariseAggregates(shown);
  if (summary.probes === 0) return <p className="m-0 text-600">{NO_DATA}</p>;
  const caption = aggregatesSummaryText(range.caption, summary, AGGREGATES_BUCKET);
  return (
    <Figure label={`Response times of ${name}, ${range.caption.toLowerCase()}`} options={options} caption={caption} />
  );
}

function PingsChart({ name, results, range }: { name: string; results: HealthCheckResult[]; range: ChartRange }) {
  const shown = useMemo(
    () => (range.id === '24h' ? results : resultsSince(results, Date.now() - range.ms)),
    [results, range],
  );
  const options = useMemo(() => pingsChartOptions(shown), [shown]);
  if (shown.length === 0) return <p className="m-0 text-600">{NO_DATA}</p>;
  return (
    <Figure
      label={`Pings of ${name}, ${range.caption.toLowerCase()}`}
      options={options}
      caption={pingsSummaryText(range.caption, shown)}
      height={PINGS_HEIGHT}
    />
  );
}

function PingAggregatesChart({ name, points, range }: { name: string; points: AggregatePoint[]; range: ChartRange }) {
  const { shown, options } = useMemo(() => {
    const to = Date.now();
    const inRange = pointsSince(points, to - range.ms, AGGREGATES_BUCKET);
    return { shown: inRange, options: pingAggregatesChartOptions(inRange, { from: to - range.ms, to }) };
  }, [points, range]);
  const summary = summariseAggregates(shown);
  if (summary.probes === 0) return <p className="m-0 text-600">{NO_DATA}</p>;
  return (
    <Figure
      label={`Pings of ${name}, ${range.caption.toLowerCase()}`}
      options={options}
      caption={pingAggregatesSummaryText(range.caption, summary, AGGREGATES_BUCKET)}
      height={PINGS_HEIGHT}
    />
  );
}

const STATE_SEVERITIES: Record<CheckState, TagProps['severity']> = {
  up: 'success',
  down: 'danger',
  paused: 'warning',
  disabled: 'secondary',
  unknown: 'info',
};

const when = (start: string) => <time dateTime={start}>{dayjs(start).format('MMM D, hh:mm a')}</time>;

/**
 * The check's state and why: the newest result (passed or failed, status, latency, certificate days left), its
 * error and each failing assertion's expected and actual value; else the last failure's error, with when.
 */
function CheckStatusLine({
  name,
  heartbeat,
  status,
  results,
}: {
  name: string;
  /** A heartbeat's results are pings: they have no latency to show. */
  heartbeat: boolean;
  status: CheckCardStatus;
  results: readonly HealthCheckResult[];
}) {
  const run = failureRunText(status);
  const recovery = recoveryText(status);
  const latest = useMemo(() => {
    const newest = latestResultOf(results);
    return newest && heartbeat ? { ...newest, latencyMs: null } : newest;
  }, [results, heartbeat]);
  return (
    <div className="flex flex-column gap-2">
      <div className="flex flex-wrap align-items-center gap-2">
        <Tag value={CHECK_STATE_LABELS[status.state]} severity={STATE_SEVERITIES[status.state]} />
        {run && <span className="text-700 text-sm">{run}</span>}
        {recovery && <span className="text-700 text-sm">{recovery}</span>}
      </div>
      {latest && (
        <section className="flex flex-column gap-1" aria-label={`Latest result of ${name}`}>
          <div className="flex flex-wrap align-items-center gap-2 text-sm">
            <span className="text-700">Latest result, {when(latest.start)}:</span>
            <ResultFacts result={latest} />
          </div>
          {!latest.success && latest.error && (
            <p className="m-0 text-700 text-sm beacon-wrap-anywhere">
              Error: <strong>{errorLine(latest.error)}</strong>
            </p>
          )}
          {!latest.success && <FailingAssertions assertions={latest.failing} />}
        </section>
      )}
      {status.lastError && latest?.success !== false && (
        <p className="m-0 text-700 text-sm beacon-wrap-anywhere">
          Last error
          {status.lastErrorClass ? ` (${ERROR_CLASS_LABELS[status.lastErrorClass]})` : ''}:{' '}
          <strong>{status.lastError.message}</strong> · {when(status.lastError.start)}
        </p>
      )}
    </div>
  );
}

/** Uptime over 24 hours, 7 days and 30 days, from the hourly aggregates ('—' where nothing was probed). */
function UptimeFigures({ points, pending }: { points: AggregatePoint[]; pending: boolean }) {
  const windows = useMemo(() => uptimeOverWindows(points, AGGREGATES_BUCKET, Date.now()), [points]);
  return (
    <dl className="flex flex-wrap gap-3 m-0" aria-busy={pending}>
      {windows.map(({ label, share }) => (
        <div key={label} className="flex flex-column">
          <dt className="text-600 text-xs">Uptime {label}</dt>
          <dd className="m-0 font-semibold">{pending ? '…' : formatUptimeShare(share)}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A health check's state, uptime and response times: up or down with the last error, the uptime over 24 h, 7 d
 * and 30 d, and the response times with failures marked over the chosen range ('No Data Available' when the range
 * has none); a heartbeat's pings instead. Short ranges read the raw results, long ones the hourly aggregates.
 */
export function HealthCheckResultsChart({
  check,
}: {
  check: Pick<HealthCheck, 'id' | 'name' | 'kind' | 'paused' | 'disabled' | 'allowed_failures' | 'recover_after'>;
}) {
  const api = useApi();
  const [rangeId, setRangeId] = useState<ChartRangeId>('24h');
  const range = chartRange(rangeId);
  const results = useQuery(getHealthCheckResultsQueryOptions(api, check.id));
  const aggregates = useQuery(getHealthCheckAggregatesQueryOptions(api, check.id, AGGREGATES_BUCKET, AGGREGATES_SPAN));
  if (results.isPending) return <Spinner label={`Loading results of ${check.name}`} />;
  const status = checkCardStatus(check, results.data ?? []);
  const points = aggregates.data ?? [];
  // A heartbeat's results are pings: it has no response time to chart.
  const heartbeat = check.kind === 'heartbeat';
  return (
    <div className="flex flex-column gap-3">
      <CheckStatusLine name={check.name} heartbeat={heartbeat} status={status} results={results.data ?? []} />
      <UptimeFigures points={points} pending={aggregates.isPending} />
      <SelectButton
        aria-label={`Chart range of ${check.name}`}
        value={rangeId}
        options={CHART_RANGES.map(({ id, label }) => ({ value: id, label }))}
        allowEmpty={false}
        onChange={(event) => {
          if (event.value) setRangeId(event.value as ChartRangeId);
        }}
      />
      {range.source === 'results' ? (
        heartbeat ? (
          <PingsChart name={check.name} results={results.data ?? []} range={range} />
        ) : (
          <ResultsChart name={check.name} results={results.data ?? []} range={range} />
        )
      ) : aggregates.isPending ? (
        <Spinner label={`Loading ${range.caption.toLowerCase()} of ${check.name}`} />
      ) : heartbeat ? (
        <PingAggregatesChart name={check.name} points={points} range={range} />
      ) : (
        <AggregatesChart name={check.name} points={points} range={range} />
      )}
    </div>
  );
}
