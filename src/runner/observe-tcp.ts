/**
 * The tcp kind's probe (docs/decisions.md#checks): connect to `host:port` through the guard (resolve once, check every
 * address, connect to a checked one), optionally send the check's body, and read back what the peer says (a
 * banner, an answer) until it closes, goes quiet, or the cap is reached.
 */
import type { Socket } from 'node:net';
import type { Observation, ProbeSpec } from '../domain/check-kinds.js';
import { parseHostPort } from '../domain/check-targets.js';
import { connectAddresses, resolveChecked } from './guarded-agent.js';
import {
  abortable,
  BODY_CAP_BYTES,
  connectError,
  startDeadline,
  stopwatch,
  type Deadline,
  type ObserveOptions,
  type ProbeError,
} from './observe-support.js';

/**
 * How long the peer may stay quiet (after the connect or the send, and after each piece it sends) before the
 * answer counts as complete: long enough for a banner, short enough not to hold a probe on a silent port.
 */
export const TCP_IDLE_MS = 300;

/** Where a tcp or tls probe connects: the parsed endpoint, or why it is not one. */
export type RawTarget = { host: string; port: number } | { error: string };

export function rawTarget(endpoint: string): RawTarget {
  return parseHostPort(endpoint) ?? { error: 'The endpoint must be host:port (IPv6 as [::1]:443)' };
}

/**
 * Opens the guarded connection a tcp or tls probe starts with: the name resolved once (the guard's policy unless
 * private targets are allowed), then a checked address connected to. A resolution that outlasts the deadline is a
 * timeout; every failure to connect answers alike (connectError).
 */
export async function openRaw(
  host: string,
  port: number,
  endpoint: string,
  options: ObserveOptions,
  deadline: Deadline,
): Promise<{ socket: Socket } | { error: ProbeError }> {
  let addresses: string[];
  try {
    const policy = options.allowPrivate ? () => null : options.policy;
    addresses = await abortable(resolveChecked(host, options.lookup, policy), deadline.signal);
  } catch (error) {
    return { error: deadline.signal.aborted ? deadline.error : connectError(error, host, endpoint) };
  }
  try {
    return { socket: await connectAddresses(addresses, port, deadline.signal) };
  } catch (error) {
    return { error: connectError(error, host, endpoint) };
  }
}

/**
 * Connects, sends `spec.request.body` when there is one, and reads the answer. latency_ms is the time to the
 * first byte of the answer when something was sent, else the time to connect. Never throws.
 */
export async function observeTcp(spec: ProbeSpec, options: ObserveOptions): Promise<Observation> {
  const elapsed = stopwatch();
  const target = rawTarget(spec.endpoint);
  if ('error' in target)
    return { connected: false, latency_ms: elapsed(), error: { class: 'protocol', message: target.error } };

  const deadline = startDeadline(spec.timeoutSeconds);
  try {
    const opened = await openRaw(target.host, target.port, spec.endpoint, options, deadline);
    if ('error' in opened) return { connected: false, latency_ms: elapsed(), error: opened.error };
    let latency = elapsed();
    const { socket } = opened;
    const toSend = spec.request?.body;
    const answer = await readAnswer(socket, deadline.signal, toSend, () => {
      if (toSend) latency = elapsed();
    });
    return { connected: true, latency_ms: latency, body: answer };
  } finally {
    deadline.clear();
  }
}

/**
 * Writes `send` (if any), then collects what the peer sends until it closes, BODY_CAP_BYTES arrive, it is quiet
 * for TCP_IDLE_MS, or `signal` aborts; then destroys the socket. A reset or error ends the answer, not the probe:
 * the connection was made.
 */
function readAnswer(
  socket: Socket,
  signal: AbortSignal,
  send: string | undefined,
  onFirstByte: () => void,
): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let read = 0;
    let idle: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(idle);
      signal.removeEventListener('abort', finish);
      socket.removeListener('data', onData);
      socket.destroy();
      resolve(Buffer.concat(chunks).subarray(0, BODY_CAP_BYTES).toString('utf8'));
    };
    // The quiet is judged once the loop has read what arrived meanwhile: a timer runs before the loop polls its
    // sockets, so after a busy moment of the process it would fire on an answer already waiting to be read.
    const quietFor = (): void => {
      clearTimeout(idle);
      idle = setTimeout(
        () =>
          setImmediate(() => {
            if (Date.now() - lastHeard >= TCP_IDLE_MS) finish();
          }),
        TCP_IDLE_MS,
      );
    };
    let lastHeard = Date.now();
    const onData = (chunk: Buffer): void => {
      lastHeard = Date.now();
      if (read === 0) onFirstByte();
      chunks.push(chunk);
      read += chunk.length;
      if (read >= BODY_CAP_BYTES) finish();
      else quietFor();
    };
    if (signal.aborted) return finish();
    signal.addEventListener('abort', finish, { once: true });
    socket.on('data', onData);
    socket.once('end', finish);
    socket.once('close', finish);
    socket.once('error', finish);
    if (send) socket.write(send, () => quietFor());
    else quietFor();
  });
}
