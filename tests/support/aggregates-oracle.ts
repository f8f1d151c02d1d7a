import {
  binUpperBound,
  BUCKET_MS,
  latencyBin,
  type AggregatePoint,
  type ProbeOutcome,
  type ReportBucket,
} from '../../src/domain/check-aggregates.js';

/**
 * Issue 18: aggregates equal what the raw results say. The oracle below works from the raw results alone (group,
 * count, sort, nearest rank), independently of the histogram code it checks.
 */
export function aggregatesOracle(results: readonly ProbeOutcome[], bucket: ReportBucket): AggregatePoint[] {
  const groups = new Map<number, ProbeOutcome[]>();
  for (const result of results) {
    const start = Math.floor(result.start / BUCKET_MS[bucket]) * BUCKET_MS[bucket];
    groups.set(start, [...(groups.get(start) ?? []), result]);
  }
  const nearestRank = (sorted: number[], q: number) =>
    sorted.length === 0 ? null : binUpperBound(latencyBin(sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1]!));
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([start, group]) => {
      const latencies = group
        .filter((result) => result.success)
        .map((result) => Math.round(result.time))
        .sort((a, b) => a - b);
      return {
        time: new Date(start).toISOString(),
        probes: group.length,
        failures: group.filter((result) => !result.success).length,
        p50: nearestRank(latencies, 0.5),
        p95: nearestRank(latencies, 0.95),
        max: latencies.length === 0 ? null : latencies.at(-1)!,
      };
    });
}
