import { request, type ClientRequest } from 'node:http';

export interface StreamEvent {
  event: string;
  id?: string;
  data: string;
}

export interface EventStreamClient {
  status: number;
  contentType: string;
  events: StreamEvent[];
  comments: number;
  /** Resolves with the first event (seen so far or to come) that matches; rejects after `timeoutMs`. */
  waitFor(match: (event: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  close(): void;
}

/**
 * Opens `GET /api/events/stream` on a listening server as a browser's EventSource reader would (a Server-Sent
 * Events parser over node:http, since fetch may not set Host), with a bearer token or a session cookie.
 */
export function openEventStream(options: {
  port: number;
  host: string;
  token?: string;
  cookie?: string;
  lastEventId?: string;
}): Promise<EventStreamClient> {
  const headers: Record<string, string> = { host: options.host, accept: 'text/event-stream' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = `beacon_session=${options.cookie}`;
  if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
  return new Promise((resolve, reject) => {
    let req: ClientRequest | undefined = undefined;
    req = request({ host: '127.0.0.1', port: options.port, path: '/api/events/stream', headers }, (response) => {
      const waiters = new Set<() => void>();
      const client: EventStreamClient = {
        status: response.statusCode ?? 0,
        contentType: String(response.headers['content-type'] ?? ''),
        events: [],
        comments: 0,
        waitFor(match, timeoutMs = 5000) {
          return new Promise((resolveEvent, rejectEvent) => {
            const check = () => {
              const found = client.events.find(match);
              if (!found) return false;
              waiters.delete(check as () => void);
              clearTimeout(timer);
              resolveEvent(found);
              return true;
            };
            const timer = setTimeout(() => {
              waiters.delete(check as () => void);
              rejectEvent(new Error(`no matching event in ${timeoutMs} ms: ${JSON.stringify(client.events)}`));
            }, timeoutMs);
            if (!check()) waiters.add(check as () => void);
          });
        },
        close: () => req?.destroy(),
      };
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: StreamEvent = { event: 'message', data: '' };
          let fields = 0;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) {
              client.comments++;
              continue;
            }
            const [name, ...rest] = line.split(':');
            const value = rest.join(':').replace(/^ /, '');
            if (name === 'event') event.event = value;
            else if (name === 'id') event.id = value;
            else if (name === 'data') event.data += value;
            else continue;
            fields++;
          }
          if (fields > 0 && event.data !== '') client.events.push(event);
        }
        for (const waiter of [...waiters]) waiter();
      });
      response.on('error', () => {});
      resolve(client);
    });
    req.on('error', reject);
    req.end();
  });
}
