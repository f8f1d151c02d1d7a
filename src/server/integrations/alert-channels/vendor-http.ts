/**
 * What the vendor senders share (docs/decisions.md#alerts): one POST through the send's dispatcher and timeouts, its
 * answer read (so the connection goes back to the pool), and a refusal turned into a DeliveryError with the vendor's
 * status, its own words cut short (they are shown in the delivery log) and the wait it asked for.
 */
import { request, type Dispatcher } from 'undici';
import { DeliveryError, type SendContext } from './channel.js';

export interface VendorAnswer {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  /** The answer's text: read only when refused (a 2xx is dumped), and no more than READ_LIMIT of it. */
  text: string;
}

/** How much of a refusal is read: its first words are all the log keeps, and a receiver may answer without end. */
const READ_LIMIT = 64 * 1024;
/** How long a reason the delivery log is given. */
export const REASON_LENGTH = 300;

export const isSent = (answer: VendorAnswer): boolean => answer.status >= 200 && answer.status < 300;

export async function postTo(
  url: string | URL,
  send: SendContext,
  headers: Record<string, string>,
  body: string,
): Promise<VendorAnswer> {
  const response = await request(url, {
    method: 'POST',
    dispatcher: send.dispatcher,
    headers: { 'user-agent': 'Beacon-Alerts/1', ...headers },
    body,
    headersTimeout: send.timeoutMs,
    bodyTimeout: send.timeoutMs,
  });
  const status = response.statusCode;
  if (status >= 200 && status < 300) {
    await response.body.dump();
    return { status, headers: response.headers, text: '' };
  }
  return { status, headers: response.headers, text: await readSome(response.body) };
}

/** The start of a body; breaking off the read destroys the rest (and its connection). */
async function readSome(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= READ_LIMIT) break;
  }
  return Buffer.concat(chunks).subarray(0, READ_LIMIT).toString('utf8');
}

/** At most `max` characters (code points, so an emoji is never split), ending in an ellipsis when cut. */
export function cut(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, Math.max(0, max - 1)).join('')}…`;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The value at `path` in a parsed answer, whatever its shape. */
export function valueAt(value: unknown, ...path: string[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

export function stringAt(value: unknown, ...path: string[]): string | undefined {
  const at = valueAt(value, ...path);
  return typeof at === 'string' && at.trim() !== '' ? at : undefined;
}

export function numberAt(value: unknown, ...path: string[]): number | undefined {
  const at = valueAt(value, ...path);
  return typeof at === 'number' && Number.isFinite(at) ? at : undefined;
}

/** A wait in seconds (a float from Discord and Telegram) as whole milliseconds, or undefined when there is none. */
export function secondsToMs(seconds: number | undefined): number | undefined {
  return seconds === undefined || seconds < 0 ? undefined : Math.ceil(seconds * 1000);
}

/** Retry-After as HTTP has it: seconds, or a date (counted from `now`). */
export function retryAfterHeader(answer: VendorAnswer, now: number): number | undefined {
  const raw = answer.headers['retry-after'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return secondsToMs(Number(value));
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * A refusal: the vendor's reason (else its text, else its status) cut to REASON_LENGTH, and the wait it asked for
 * (`retryAfterMs` read from its body, else the Retry-After header).
 */
export function refusal(
  answer: VendorAnswer,
  send: SendContext,
  reason?: string,
  retryAfterMs?: number,
): DeliveryError {
  const words = reason?.trim() || answer.text.trim().replace(/\s+/g, ' ') || `answered ${answer.status}`;
  return new DeliveryError(
    cut(words, REASON_LENGTH),
    answer.status,
    retryAfterMs ?? retryAfterHeader(answer, send.now),
  );
}
