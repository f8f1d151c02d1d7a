import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from '../../../src/app/api/client.js';
import { notificationOperations } from '../../../src/contract/operations/feeds.js';
import { backoffDelay, MAX_BACKOFF_MS, openEventStream } from '../../../src/app/notifications/event-stream.js';
import {
  startLiveRelay,
  type Connection,
  type RelayChannel,
  type RelayLocks,
  type RelayMessage,
} from '../../../src/app/notifications/live-relay.js';
import { readEventStream, SseParser, type SseEvent } from '../../../src/app/notifications/sse.js';

function parse(chunks: string[]) {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const parser = new SseParser({ onEvent: (event) => events.push(event), onRetry: (ms) => retries.push(ms) });
  for (const chunk of chunks) parser.push(chunk);
  return { events, retries, parser };
}

describe('the SSE parser', () => {
  it('reads what the server sends: retry, named events with ids, heartbeats', () => {
    const { events, retries, parser } = parse([
      'retry: 5000\n\n',
      'event: unread\ndata: {"unread":2}\n\n',
      ': heartbeat\n\n',
      'id: n-1\nevent: notification\ndata: {"id":"n-1"}\n\n',
    ]);
    expect(retries).toEqual([5000]);
    expect(events).toEqual([
      { event: 'unread', data: '{"unread":2}', id: '' },
      { event: 'notification', data: '{"id":"n-1"}', id: 'n-1' },
    ]);
    expect(parser.lastEventId).toBe('n-1');
  });

  it('joins data lines, defaults the type to message, keeps the id across events and ignores empty events', () => {
    const { events } = parse(['id: 7\ndata: one\ndata:two\ndata\n\n', 'event: ping\n\n', 'data: later\n\n']);
    expect(events).toEqual([
      { event: 'message', data: 'one\ntwo\n', id: '7' },
      { event: 'message', data: 'later', id: '7' },
    ]);
  });

  it('takes CRLF, CR and LF line ends, split anywhere across chunks, and drops a leading BOM', () => {
    const text = '\uFEFFevent: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\revent: c\ndata: 3\n\n';
    for (let size = 1; size <= 7; size++) {
      const chunks = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      expect(parse(chunks).events.map((event) => `${event.event}=${event.data}`)).toEqual(['a=1', 'b=2', 'c=3']);
    }
  });

  it('ignores ids with NUL, retries that are not digits, and an event cut off before its blank line', () => {
    const { events, retries, parser } = parse(['id: ok\n\nid: bad\0\nretry: soon\ndata: x\n\n', 'data: cut']);
    parser.end();
    expect(retries).toEqual([]);
    expect(events).toEqual([{ event: 'message', data: 'x', id: 'ok' }]);
  });

  it('decodes a body whose UTF-8 characters are split across chunks', async () => {
    const bytes = new TextEncoder().encode('data: Zürich ✓\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const events: SseEvent[] = [];
    await readEventStream(body, new SseParser({ onEvent: (event) => events.push(event) }));
    expect(events.map((event) => event.data)).toEqual(['Zürich ✓']);
  });
});

/** A response whose body the test writes to and ends. */
function streamResponse() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    send: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

describe('the event stream connection', () => {
  afterEach(() => vi.useRealTimers());

  it('backs off from the retry time, doubling up to a minute, with jitter below', () => {
    const top = () => 1 - 1e-9;
    expect(backoffDelay(1, 5000, top)).toBe(5000);
    expect(backoffDelay(2, 5000, top)).toBe(10000);
    expect(backoffDelay(3, 5000, () => 0)).toBe(16000);
    expect(backoffDelay(3, 5000, () => 0.5)).toBe(18000);
    expect(backoffDelay(20, 5000, top)).toBe(MAX_BACKOFF_MS);
  });

  it('reconnects after the server ends the stream, with Last-Event-ID, and backs off while it fails', async () => {
    vi.useFakeTimers();
    const first = streamResponse();
    const second = streamResponse();
    const opened: string[] = [];
    const answers: Array<() => Promise<Response>> = [
      async () => first.response,
      async () => Promise.reject(new TypeError('Failed to fetch')),
      async () => Promise.reject(new TypeError('Failed to fetch')),
      async () => second.response,
    ];
    const events: SseEvent[] = [];
    const statuses: boolean[] = [];
    const stream = openEventStream({
      open: (lastEventId) => {
        opened.push(lastEventId);
        return answers.shift()!();
      },
      onEvent: (event) => events.push(event),
      onStatus: (up) => statuses.push(up),
      random: () => 1 - 1e-9,
    });
    await vi.advanceTimersByTimeAsync(0);
    first.send('retry: 1000\n\nid: n-1\nevent: notification\ndata: {}\n\n');
    await vi.advanceTimersByTimeAsync(0);
    expect(events.map((event) => event.id)).toEqual(['n-1']);
    first.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(statuses).toEqual([true, false]);
    // The server's retry time after a stream that was open, then doubling while the attempts fail.
    await vi.advanceTimersByTimeAsync(999);
    expect(opened).toEqual(['']);
    await vi.advanceTimersByTimeAsync(1);
    expect(opened).toEqual(['', 'n-1']);
    await vi.advanceTimersByTimeAsync(2000);
    expect(opened).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(3999);
    expect(opened).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(opened).toEqual(['', 'n-1', 'n-1', 'n-1']);
    expect(statuses.at(-1)).toBe(true);
    stream.close();
    second.end();
  });

  it('resumes after the last event id another tab heard', async () => {
    const open = vi.fn(
      async (_lastEventId: string) => new Response('', { headers: { 'content-type': 'text/event-stream' } }),
    );
    const stream = openEventStream({ open, lastEventId: 'n-7', onEvent: () => undefined, onStatus: () => undefined });
    await vi.waitFor(() => expect(open).toHaveBeenCalled());
    expect(open.mock.calls[0]![0]).toBe('n-7');
    stream.close();
  });

  it('reconnects at once when woken (back online) and stops for good when closed', async () => {
    vi.useFakeTimers();
    const open = vi.fn(async (_lastEventId: string, signal: AbortSignal) => {
      if (signal.aborted) throw new DOMException('Aborted', 'AbortError');
      throw new TypeError('Failed to fetch');
    });
    const stream = openEventStream({ open, onEvent: () => undefined, onStatus: () => undefined });
    await vi.advanceTimersByTimeAsync(0);
    expect(open).toHaveBeenCalledTimes(1);
    stream.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(open).toHaveBeenCalledTimes(2);
    stream.close();
    await vi.advanceTimersByTimeAsync(10 * MAX_BACKOFF_MS);
    expect(open).toHaveBeenCalledTimes(2);
  });
});

/** BroadcastChannel between fake tabs: a message reaches every other channel of the same name. */
class FakeBus {
  private readonly channels = new Set<FakeChannel>();
  open = (name: string): RelayChannel => {
    const channel = new FakeChannel(name, this.channels);
    this.channels.add(channel);
    return channel;
  };
}

class FakeChannel implements RelayChannel {
  private readonly listeners = new Set<(event: MessageEvent<RelayMessage>) => void>();
  constructor(
    readonly name: string,
    private readonly all: Set<FakeChannel>,
  ) {}
  postMessage(message: RelayMessage) {
    for (const other of this.all)
      if (other !== this && other.name === this.name) queueMicrotask(() => other.deliver(structuredClone(message)));
  }
  deliver(message: RelayMessage) {
    for (const listener of this.listeners) listener({ data: message } as MessageEvent<RelayMessage>);
  }
  addEventListener(_type: 'message', listener: (event: MessageEvent<RelayMessage>) => void) {
    this.listeners.add(listener);
  }
  removeEventListener(_type: 'message', listener: (event: MessageEvent<RelayMessage>) => void) {
    this.listeners.delete(listener);
  }
  close() {
    this.all.delete(this);
  }
}

/** Web Locks: exclusive, granted in request order, released when the callback's promise settles. */
class FakeLocks implements RelayLocks {
  private held = false;
  private readonly queue: Array<() => void> = [];
  request(_name: string, options: { signal: AbortSignal }, callback: () => Promise<void>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const run = () => {
        this.held = true;
        void callback().finally(() => {
          this.held = false;
          resolve(undefined);
          this.queue.shift()?.();
        });
      };
      if (!this.held) return queueMicrotask(run);
      this.queue.push(run);
      options.signal.addEventListener('abort', () => {
        const at = this.queue.indexOf(run);
        if (at >= 0) this.queue.splice(at, 1);
        reject(new DOMException('Aborted', 'AbortError'));
      });
    });
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A tab: its relay, what it heard, and the stream it opened when it led. */
function tab(name: string, bus: FakeBus | undefined, locks: RelayLocks | undefined) {
  const heard: string[] = [];
  const statuses: boolean[] = [];
  const streams: Array<{
    emit(event: SseEvent): void;
    status(up: boolean): void;
    closed: boolean;
    resumeAfter: string;
  }> = [];
  const relay = startLiveRelay({
    name,
    locks,
    channel: bus?.open,
    connect: (handlers, resumeAfter): Connection => {
      const stream = {
        closed: false,
        resumeAfter,
        emit: handlers.onEvent,
        status: handlers.onStatus,
        wake: () => undefined,
        close: () => void (stream.closed = true),
      };
      streams.push(stream);
      return stream;
    },
    onEvent: (event) => heard.push(event.data),
    onStatus: (up) => statuses.push(up),
  });
  return { relay, heard, statuses, streams };
}

const event = (data: string): SseEvent => ({ event: 'notification', data, id: data });

describe('one tab holds the stream and relays it', () => {
  it('the first tab leads; the others hear its events and status and open no stream', async () => {
    const bus = new FakeBus();
    const locks = new FakeLocks();
    const one = tab('beacon-events:acme:mia', bus, locks);
    await tick();
    const two = tab('beacon-events:acme:mia', bus, locks);
    await tick();
    expect(one.relay.leading).toBe(true);
    expect(two.relay.leading).toBe(false);
    expect(one.streams).toHaveLength(1);
    expect(two.streams).toHaveLength(0);

    one.streams[0]!.status(true);
    one.streams[0]!.emit(event('a'));
    await tick();
    expect(one.heard).toEqual(['a']);
    expect(two.heard).toEqual(['a']);
    // Told on arrival (not up yet), then when it came up.
    expect(two.statuses).toEqual([false, true]);

    // A tab opened later asks, and is told the stream is up.
    const three = tab('beacon-events:acme:mia', bus, locks);
    await tick();
    expect(three.statuses).toEqual([true]);

    // Another user's tab has a lock and channel of its own.
    const other = tab('beacon-events:acme:max', bus, locks);
    await tick();
    one.streams[0]!.emit(event('b'));
    await tick();
    expect(other.heard).toEqual([]);
    other.relay.stop();

    for (const t of [one, two, three]) t.relay.stop();
  });

  it('when the leader stops (logout, tab closed), its stream closes and the next tab takes over', async () => {
    const bus = new FakeBus();
    const locks = new FakeLocks();
    const one = tab('events', bus, locks);
    await tick();
    const two = tab('events', bus, locks);
    await tick();
    one.streams[0]!.status(true);
    one.streams[0]!.emit(event('a'));
    one.streams[0]!.emit({ event: 'unread', data: '{"unread":1}', id: 'b' });
    await tick();
    expect(two.heard).toEqual(['a', '{"unread":1}']);

    one.relay.stop();
    expect(one.streams[0]!.closed).toBe(true);
    await tick();
    expect(two.statuses).toEqual([false, true, false]);
    expect(two.relay.leading).toBe(true);
    expect(two.streams).toHaveLength(1);
    // It resumes after the last event the old leader relayed: nothing is missed across the hand-over.
    expect(two.streams[0]!.resumeAfter).toBe('b');
    two.streams[0]!.emit(event('c'));
    await tick();
    expect(one.heard).toEqual(['a', '{"unread":1}']);
    expect(two.heard).toEqual(['a', '{"unread":1}', 'c']);
    two.relay.stop();
    expect(two.streams[0]!.closed).toBe(true);
  });

  it('a tab that stops while waiting for the lock never opens a stream', async () => {
    const bus = new FakeBus();
    const locks = new FakeLocks();
    const one = tab('events', bus, locks);
    await tick();
    const two = tab('events', bus, locks);
    await tick();
    two.relay.stop();
    one.relay.stop();
    await tick();
    expect(two.streams).toHaveLength(0);
  });

  it('without Web Locks or BroadcastChannel every tab streams for itself', async () => {
    const withoutLocks = tab('events', new FakeBus(), undefined);
    const withoutChannel = tab('events', undefined, new FakeLocks());
    await tick();
    expect(withoutLocks.streams).toHaveLength(1);
    expect(withoutChannel.streams).toHaveLength(1);
    withoutLocks.streams[0]!.emit(event('d'));
    expect(withoutLocks.heard).toEqual(['d']);
    withoutLocks.relay.stop();
    withoutChannel.relay.stop();
  });
});

describe('api.stream', () => {
  it('opens the stream with the bearer token and Last-Event-ID, refreshing the token on 401, body unread', async () => {
    let token = 'old';
    const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) =>
      (init?.headers as Record<string, string>).authorization === 'Bearer new'
        ? new Response('retry: 5000\n\n', { headers: { 'content-type': 'text/event-stream' } })
        : new Response(JSON.stringify({ message: 'Token expired' }), {
            status: 401,
            headers: { 'content-type': 'application/json' },
          }),
    );
    const client = createApiClient({ getToken: () => token, refreshToken: async () => (token = 'new'), fetch });
    const controller = new AbortController();
    const response = await client.stream(
      notificationOperations.streamEvents,
      {},
      { signal: controller.signal, headers: { 'last-event-id': 'n-9' } },
    );
    expect(await response.text()).toBe('retry: 5000\n\n');
    const [url, init] = fetch.mock.calls[1] as unknown as [string, RequestInit];
    expect(url).toBe('/api/events/stream');
    expect(init.signal).toBe(controller.signal);
    expect(init.headers).toMatchObject({ accept: 'text/event-stream', 'last-event-id': 'n-9' });
  });

  it("rejects with the server's refusal", async () => {
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ message: 'Not yours' }), {
          status: 403,
          headers: { 'content-type': 'application/json' },
        }),
    );
    const client = createApiClient({ getToken: () => 'tok', refreshToken: async () => null, fetch });
    const refused = client.stream(notificationOperations.streamEvents, {});
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 403, message: 'Not yours' });
  });
});
