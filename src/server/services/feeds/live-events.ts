/**
 * The live side of notifications (docs/decisions.md#feeds): open event streams, by user, and what reaches them. A
 * committed event with recipients is announced (db/repositories/events.ts): on PostgreSQL by NOTIFY, which every
 * process hears on a connection of its own that LISTENs, so a stream on any process sees events written by all of them;
 * on SQLite in this process. Announcements are gathered and read in batches: one query for the notifications
 * of the events announced meanwhile, then each recipient with an open stream gets them and its unread count.
 */
import pg from 'pg';
import type { Logger } from 'pino';
import type { LiveEventsHub, StreamListener } from '../../context.js';
import {
  countUnread,
  EVENTS_CHANNEL,
  localAnnouncements,
  notificationsOfEvents,
} from '../../db/repositories/events.js';
import type { Db } from '../../db/repositories/workspaces.js';
import { ALERT_WORK } from '../alerting/deliveries.js';
import { toNotification } from './feeds.js';

export interface LiveEventsOptions {
  db: Db;
  logger: Logger;
  /** PostgreSQL: where to LISTEN (a connection of its own) and the schema whose channel to hear. */
  postgres?: { url: string; schema: string };
}

const RECONNECT_MS = [250, 1000, 5000];
const key = (workspaceId: string, userId: string) => `${workspaceId} ${userId}`;

export class LiveEvents implements LiveEventsHub {
  private readonly streams = new Map<string, Set<StreamListener>>();
  private readonly pendingEvents = new Set<string>();
  private readonly pendingUnread = new Set<string>();
  private running = false;
  private again = false;
  private closed = false;
  private listener: pg.Client | undefined;
  private reconnects = 0;
  private readonly onAnnouncement = (payload: string) => this.announced(payload);
  private readonly chatWakers = new Set<() => void>();
  private readonly alertWakers = new Set<() => void>();

  constructor(private readonly options: LiveEventsOptions) {}

  /** Starts hearing announcements; on PostgreSQL once the LISTEN connection is up. */
  async start(): Promise<void> {
    if (!this.options.postgres) {
      localAnnouncements.on('announcement', this.onAnnouncement);
      return;
    }
    await this.listen();
  }

  /** The number of open streams (for the benchmark and the logs). */
  get openStreams(): number {
    let count = 0;
    for (const listeners of this.streams.values()) count += listeners.size;
    return count;
  }

  subscribe(workspaceId: string, userId: string, listener: StreamListener): () => void {
    const k = key(workspaceId, userId);
    let listeners = this.streams.get(k);
    if (!listeners) this.streams.set(k, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.streams.get(k) === listeners) this.streams.delete(k);
    };
  }

  /** Calls `wake` whenever alert work was queued (deliveries, an escalation), by any process. */
  onAlertWork(wake: () => void): () => void {
    this.alertWakers.add(wake);
    return () => this.alertWakers.delete(wake);
  }

  /** Calls `wake` whenever chat messages were queued, by any process (the chat outbox job). */
  onChatQueued(wake: () => void): () => void {
    this.chatWakers.add(wake);
    return () => this.chatWakers.delete(wake);
  }

  /** Ends every open stream (shutdown: a held response would keep the server from closing). */
  closeStreams(): void {
    for (const listeners of this.streams.values()) for (const listener of listeners) listener.close();
    this.streams.clear();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.closeStreams();
    localAnnouncements.off('announcement', this.onAnnouncement);
    const client = this.listener;
    this.listener = undefined;
    await client?.end().catch(() => {});
  }

  private channel(): string {
    return `${EVENTS_CHANNEL}:${this.options.postgres!.schema}`;
  }

  private async listen(): Promise<void> {
    const { url, schema } = this.options.postgres!;
    const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
    client.on('notification', (message) => {
      if (message.payload) this.announced(message.payload);
    });
    client.on('error', (error) => this.options.logger.warn({ err: error }, 'the event listener connection broke'));
    client.on('end', () => {
      if (this.listener === client) this.listener = undefined;
      if (!this.closed) this.reconnectLater();
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel().replace(/"/g, '""')}"`);
      this.listener = client;
      this.reconnects = 0;
      if (this.closed) await client.end();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not listen for events; trying again');
      await client.end().catch(() => {});
    }
  }

  private reconnectLater(): void {
    const delay = RECONNECT_MS[Math.min(this.reconnects++, RECONNECT_MS.length - 1)]!;
    setTimeout(() => {
      if (!this.closed && !this.listener) void this.listen();
    }, delay).unref();
  }

  /** `e {eventId}`, `u {workspaceId} {userId}` or `c`; streams have nothing to do while none is open. */
  private announced(payload: string): void {
    if (payload === 'c') {
      for (const wake of this.chatWakers) wake();
      return;
    }
    if (payload === ALERT_WORK) {
      for (const wake of this.alertWakers) wake();
      return;
    }
    if (this.streams.size === 0) return;
    const [kind, first, second] = payload.split(' ');
    if (kind === 'e' && first) this.pendingEvents.add(first);
    else if (kind === 'u' && first && second) this.pendingUnread.add(key(first, second));
    else return;
    this.kick();
  }

  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.deliver();
      } while (this.again);
    } catch (error) {
      this.options.logger.error({ err: error }, 'could not deliver live events');
    } finally {
      this.running = false;
      if (this.pendingEvents.size > 0 || this.pendingUnread.size > 0) this.kick();
    }
  }

  private async deliver(): Promise<void> {
    const eventIds = [...this.pendingEvents];
    const counts = new Map<string, { workspaceId: string; userId: string }>();
    for (const k of this.pendingUnread) {
      const [workspaceId, userId] = k.split(' ') as [string, string];
      counts.set(k, { workspaceId, userId });
    }
    this.pendingEvents.clear();
    this.pendingUnread.clear();
    const { db } = this.options;
    for (let start = 0; start < eventIds.length; start += 500) {
      const rows = await notificationsOfEvents(db, eventIds.slice(start, start + 500));
      for (const row of rows) {
        const k = key(row.workspace_id, row.user_id);
        const listeners = this.streams.get(k);
        if (!listeners) continue;
        const notification = toNotification(row);
        for (const listener of listeners) listener.notification(notification);
        counts.set(k, { workspaceId: row.workspace_id, userId: row.user_id });
      }
    }
    for (const [k, { workspaceId, userId }] of counts) {
      if (!this.streams.has(k)) continue;
      const unread = await countUnread(db, workspaceId, userId);
      for (const listener of this.streams.get(k) ?? []) listener.unread(unread);
    }
  }
}
