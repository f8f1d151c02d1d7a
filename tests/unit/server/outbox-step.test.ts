import type { Logger } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { outboxStep, type OutboxStore } from '../../../src/server/jobs/outbox-step.js';

interface Row {
  id: string;
  attempts: number;
  order: number;
}

/** An outbox in memory: rows due now, claimed a batch at a time, with what the step recorded. */
function memoryStore(rows: Row[]) {
  const pending = [...rows];
  const sent: string[] = [];
  const failed: { id: string; error: string; retryAt: string | null }[] = [];
  const store: OutboxStore<Row> = {
    claim: async ({ limit }) => pending.splice(0, limit).map((row) => ({ ...row, attempts: row.attempts + 1 })),
    markSent: async (id) => {
      sent.push(id);
      return true;
    },
    markFailed: async (id, _owner, failure) => {
      failed.push({ id, ...failure });
    },
    nextDue: async () => 42,
  };
  return { store, sent, failed };
}

const log = () => ({ warn: vi.fn(), error: vi.fn() }) as unknown as Logger;
const options = { owner: 'me', noun: 'thing', about: (row: Row) => ({ id: row.id }), leaseMs: 1000 };
const backoff = { batchSize: 2, maxAttempts: 3, retryBaseMs: 1000, retryMaxMs: 10_000 };

describe('the outbox step', () => {
  it('sends every due row, marks it sent, and answers when the next is due', async () => {
    const { store, sent } = memoryStore([1, 2, 3].map((n) => ({ id: `r${n}`, attempts: 0, order: n })));
    const send = vi.fn(async () => undefined);
    const step = outboxStep({ ...options, ...backoff, store, log: log(), send });
    expect(await step.drain(() => false)).toBe(42);
    expect(sent.sort()).toEqual(['r1', 'r2', 'r3']);
    expect(send).toHaveBeenCalledTimes(3);
  });

  it('retries a failed row with backoff, and gives up after the last attempt', async () => {
    const { store, failed } = memoryStore([
      { id: 'early', attempts: 0, order: 1 },
      { id: 'last', attempts: 2, order: 2 },
    ]);
    const before = Date.now();
    const step = outboxStep({
      ...options,
      ...backoff,
      store,
      log: log(),
      send: async () => {
        throw new Error('refused');
      },
    });
    await step.drain(() => false);
    const early = failed.find((row) => row.id === 'early')!;
    expect(early.error).toBe('refused');
    expect(Date.parse(early.retryAt!) - before).toBeGreaterThanOrEqual(1000);
    expect(failed.find((row) => row.id === 'last')).toEqual({ id: 'last', error: 'refused', retryAt: null });
  });

  it('waits out a rate limit whatever the attempts, and cuts the stored error', async () => {
    const { store, failed } = memoryStore([{ id: 'r', attempts: 5, order: 1 }]);
    const before = Date.now();
    const step = outboxStep({
      ...options,
      ...backoff,
      store,
      log: log(),
      errorMax: 4,
      describe: () => 'ratelimited',
      retryAfterMs: () => 60_000,
      send: async () => {
        throw new Error('429');
      },
    });
    await step.drain(() => false);
    expect(failed[0]!.error).toBe('rate');
    expect(Date.parse(failed[0]!.retryAt!) - before).toBeGreaterThanOrEqual(60_000);
  });

  it('leaves a settled or held-back row unmarked, and sends in order one at a time when asked', async () => {
    const { store, sent, failed } = memoryStore([3, 1, 2].map((n) => ({ id: `r${n}`, attempts: 0, order: n })));
    const seen: string[] = [];
    let inFlight = 0;
    const step = outboxStep({
      ...options,
      ...backoff,
      batchSize: 3,
      store,
      log: log(),
      order: (a, b) => a.order - b.order,
      holdBack: async (row) => row.id === 'r3',
      send: async (row) => {
        expect(inFlight++).toBe(0);
        seen.push(row.id);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight--;
        return row.id === 'r2' ? 'settled' : undefined;
      },
    });
    await step.drain(() => false);
    expect(seen).toEqual(['r1', 'r2']);
    expect(sent).toEqual(['r1']);
    expect(failed).toEqual([]);
  });

  it('runs the batch bookkeeping once a batch, after its rows are marked; its failure is logged, not thrown', async () => {
    const { store, sent, failed } = memoryStore([1, 2, 3].map((n) => ({ id: `r${n}`, attempts: 0, order: n })));
    const batches: { rows: string[]; markedBefore: number }[] = [];
    const logger = log();
    const step = outboxStep({
      ...options,
      ...backoff,
      store,
      log: logger,
      send: async (row) => {
        if (row.id === 'r2') throw new Error('refused');
      },
      afterBatch: async (rows) => {
        batches.push({ rows: rows.map((row) => row.id), markedBefore: sent.length + failed.length });
        if (batches.length === 2) throw new Error('the database went away');
      },
    });
    expect(await step.drain(() => false)).toBe(42);
    expect(batches).toEqual([
      { rows: ['r1', 'r2'], markedBefore: 2 },
      { rows: ['r3'], markedBefore: 3 },
    ]);
    expect(logger.error).toHaveBeenCalledWith(expect.anything(), 'could not record a thing attempt');
  });

  it('stops claiming once stopped', async () => {
    const { store, sent } = memoryStore([1, 2, 3].map((n) => ({ id: `r${n}`, attempts: 0, order: n })));
    const step = outboxStep({ ...options, ...backoff, store, log: log(), send: async () => undefined });
    expect(await step.drain(() => true)).toBeUndefined();
    expect(sent).toHaveLength(2);
  });
});
