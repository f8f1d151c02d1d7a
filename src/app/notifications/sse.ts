/**
 * A Server-Sent Events parser for a stream read with `fetch` (EventSource cannot send the bearer token), after
 * the HTML standard's "event stream interpretation": lines end with CRLF, LF or CR; `:` starts a comment; a blank
 * line dispatches the event gathered so far; `id` sets the last event id (kept across events, sent back as
 * `Last-Event-ID` on reconnect); `retry` sets the reconnection time in milliseconds.
 */

export interface SseEvent {
  /** The `event` field; 'message' when the event named none. */
  event: string;
  /** The `data` lines, joined with a line feed. */
  data: string;
  /** The last event id at the time of this event ('' when none was ever sent). */
  id: string;
}

export interface SseHandlers {
  onEvent(event: SseEvent): void;
  /** The server asked for another reconnection time. */
  onRetry?(milliseconds: number): void;
}

export class SseParser {
  private buffer = '';
  private started = false;
  private data: string[] = [];
  private eventType = '';
  /** The last event id, kept across events and reconnections. */
  lastEventId = '';

  constructor(private readonly handlers: SseHandlers) {}

  /** Feeds decoded text; complete lines are interpreted at once, a partial one waits for the rest. */
  push(text: string): void {
    let buffer = this.buffer + text;
    if (!this.started && buffer.length > 0) {
      this.started = true;
      if (buffer.startsWith('\uFEFF')) buffer = buffer.slice(1);
    }
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const char = buffer[i];
      if (char !== '\n' && char !== '\r') continue;
      // A CR at the end of what arrived may be the first half of a CRLF: wait for the next chunk.
      if (char === '\r' && i === buffer.length - 1) break;
      this.line(buffer.slice(start, i));
      if (char === '\r' && buffer[i + 1] === '\n') i++;
      start = i + 1;
    }
    this.buffer = buffer.slice(start);
  }

  /** The stream ended: a lone CR still ends its line; an event without its blank line is dropped (standard). */
  end(): void {
    if (this.buffer.endsWith('\r')) this.line(this.buffer.slice(0, -1));
    this.buffer = '';
    this.data = [];
    this.eventType = '';
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.handlers.onRetry?.(Number(value));
        break;
      default:
      // Unknown fields are ignored.
    }
  }

  private dispatch(): void {
    const data = this.data;
    const event = this.eventType || 'message';
    this.data = [];
    this.eventType = '';
    if (data.length === 0) return;
    this.handlers.onEvent({ event, data: data.join('\n'), id: this.lastEventId });
  }
}

/** Reads a response body into the parser until it ends (resolves) or fails (rejects). */
export async function readEventStream(body: ReadableStream<Uint8Array>, parser: SseParser): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
    parser.end();
  } finally {
    reader.releaseLock();
  }
}
