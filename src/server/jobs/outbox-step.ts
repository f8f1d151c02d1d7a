/**
 * The step every outbox job repeats (mail, chat, webhooks; an alert channel's outbox next): claim a batch of due
 * rows under a lease, send each, mark it sent, or on failure schedule a retry with exponential backoff, and mark it
 * failed after the last attempt. The loop around it is outbox-loop.ts; what is sent and how is the job's own (its
 * `send`, and the hooks below for the rules only one outbox has).
 */
import type { Logger } from 'pino';
import { retryDelay } from './outbox-loop.js';

/** The row columns the step reads: every outbox table has them (db/repositories/outbox.ts). */
export interface OutboxRow {
  id: string;
  /** Attempts so far, this one included (claiming counts it). */
  attempts: number;
}

/** An outbox table's bookkeeping, as its repository offers it. */
export interface OutboxStore<Row extends OutboxRow> {
  claim(options: { owner: string; now: string; until: string; limit: number }): Promise<Row[]>;
  /** False when `owner` no longer held the lease (another process may send it again). */
  markSent(id: string, owner: string, now: string): Promise<boolean>;
  markFailed(id: string, owner: string, failure: { error: string; retryAt: string | null }): Promise<void>;
  /** When the next row nobody holds is due (epoch ms). */
  nextDue(): Promise<number | undefined>;
}

/**
 * What a send answers: nothing when it sent the row (the step marks it sent), `settled` when it dealt with the row
 * itself (dropped it, deferred it) and the step must leave it be.
 */
export type SendResult = void | 'settled';

export interface OutboxStepOptions<Row extends OutboxRow> {
  store: OutboxStore<Row>;
  /** This process's lease owner id. */
  owner: string;
  log: Logger;
  /** What a row is called in the log: "mail", "chat message", "webhook". */
  noun: string;
  /** Log fields naming the row (and where it goes). */
  about(row: Row): Record<string, unknown>;
  leaseMs: number;
  batchSize: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** Sends one row; throws to fail the attempt. */
  send(row: Row): Promise<SendResult>;
  /** Before the attempt, outside it: true when the row was held back (deferred, untried) instead of sent. */
  holdBack?(row: Row): Promise<boolean>;
  /** The failure as stored and logged (default: the error's message), cut to `errorMax` (default 1000). */
  describe?(error: unknown): string;
  errorMax?: number;
  /** A wait the receiver asked for (a rate limit): the row retries after it, whatever its attempts. */
  retryAfterMs?(error: unknown): number | undefined;
  /** When given, a batch is sent one row at a time in this order; otherwise all its rows at once. */
  order?(a: Row, b: Row): number;
  /** After each batch's rows are sent or failed: bookkeeping a batch needs once, not once a row. */
  afterBatch?(rows: readonly Row[]): Promise<void>;
}

/** How an outbox job that sends over HTTP is tuned (its defaults are the job's own; tests shorten them). */
export interface HttpOutboxOptions {
  pollMs?: number;
  leaseMs?: number;
  batchSize?: number;
  maxAttempts?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  timeoutMs?: number;
}

export interface OutboxStep {
  /** Claims and sends due rows until none is left; answers when the next one is due (the loop's `drain`). */
  drain(isStopped: () => boolean): Promise<number | undefined>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function outboxStep<Row extends OutboxRow>(options: OutboxStepOptions<Row>): OutboxStep {
  const { store, owner, log, noun, maxAttempts } = options;
  const describe = options.describe ?? messageOf;
  const errorMax = options.errorMax ?? 1000;

  const deliver = async (row: Row) => {
    if (await options.holdBack?.(row)) return;
    let result: SendResult;
    try {
      result = await options.send(row);
    } catch (error) {
      const text = describe(error);
      const askedWait = options.retryAfterMs?.(error);
      const giveUp = askedWait === undefined && row.attempts >= maxAttempts;
      const retryAt = Date.now() + (askedWait ?? retryDelay(row.attempts, options.retryBaseMs, options.retryMaxMs));
      log.warn(
        { ...options.about(row), attempt: row.attempts, maxAttempts, error: text },
        giveUp ? `${noun} failed; giving up` : `${noun} failed; will retry`,
      );
      await store.markFailed(row.id, owner, {
        error: text.slice(0, errorMax),
        retryAt: giveUp ? null : new Date(retryAt).toISOString(),
      });
      return;
    }
    if (result === 'settled') return;
    if (!(await store.markSent(row.id, owner, new Date().toISOString()))) {
      log.error(options.about(row), `${noun} sent after its lease ran out; another process may send it again`);
    }
  };

  const failedToRecord = (error: unknown) => log.error({ err: error }, `could not record a ${noun} attempt`);

  return {
    async drain(isStopped) {
      for (;;) {
        const now = Date.now();
        const rows = await store.claim({
          owner,
          now: new Date(now).toISOString(),
          until: new Date(now + options.leaseMs).toISOString(),
          limit: options.batchSize,
        });
        if (rows.length === 0) break;
        if (options.order) {
          for (const row of rows.sort(options.order)) await deliver(row).catch(failedToRecord);
        } else {
          // allSettled: one row's database error must not leave the others of the batch unmarked.
          for (const result of await Promise.allSettled(rows.map(deliver))) {
            if (result.status === 'rejected') failedToRecord(result.reason);
          }
        }
        await options.afterBatch?.(rows).catch(failedToRecord);
        if (isStopped()) return undefined;
      }
      return store.nextDue();
    },
  };
}
