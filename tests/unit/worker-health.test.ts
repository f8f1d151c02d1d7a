import { expose, wrap } from 'comlink';
import { afterEach, expect, it } from 'vitest';
import { rollupDailyHealth, type DailyHealth } from '../../src/domain/health.js';
import { rollupDailyHealthOffThread } from '../../src/app/health/rollup-client.js';
import { healthWorkerApi, type HealthWorkerApi } from '../../src/workers/health-worker-api.js';

const days: DailyHealth[] = [
  { date: '2024-06-01', critical: 0, error: 0, warning: 0, maintenance: 0 },
  { date: '2024-06-02', critical: 7500, error: 0, warning: 600, maintenance: 0 },
];

let channel: MessageChannel | null = null;
afterEach(() => {
  channel?.port1.close();
  channel?.port2.close();
  channel = null;
});

it('answers the rollups over Comlink with what the domain computes', async () => {
  channel = new MessageChannel();
  expose(healthWorkerApi, channel.port1);
  const remote = wrap<HealthWorkerApi>(channel.port2);
  const now = Date.parse('2024-06-02T12:00:00.000Z');
  expect(await remote.rollupDailyHealth(days, now)).toEqual(rollupDailyHealth(days, now));
  expect(await remote.rollupDailyHealth([])).toEqual({ uptime: 100, days: [] });
});

it('computes in the page where there is no Worker', async () => {
  expect(typeof Worker).toBe('undefined');
  expect(await rollupDailyHealthOffThread(days)).toEqual(rollupDailyHealth(days));
});
