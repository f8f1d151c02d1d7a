/**
 * The tls kind's probe (docs/decisions.md#checks): a TLS handshake on any port (after SMTP's STARTTLS when asked), to
 * the address the guard checked, with the check's name as SNI. It never refuses a certificate: it reports the whole
 * chain's earliest expiry, whether the chain verifies and names the host, and the leaf's fingerprint, for the
 * assertions (`cert.valid`, `cert.days_left`, `cert.fingerprint changed`) to judge.
 */
import { isIP, type Socket } from 'node:net';
import {
  connect as tlsConnect,
  createSecureContext,
  rootCertificates,
  type SecureContext,
  type TLSSocket,
} from 'node:tls';
import type { Observation, ProbeSpec } from '../domain/check-kinds.js';
import { certInfo, snapshotCertificate, trustStore, type TrustStore } from './certificates.js';
import { startDeadline, stopwatch, type ObserveOptions } from './observe-support.js';
import { openRaw, rawTarget } from './observe-tcp.js';

/** The name the probe greets an SMTP server with: `.invalid` is reserved, so it claims no one's name. */
const EHLO_NAME = 'beacon.invalid';
/** Longest SMTP reply read before the server is judged not to speak SMTP. */
const SMTP_REPLY_MAX = 16 * 1024;

/** A server that does not speak the protocol expected (SMTP before STARTTLS). */
class ProtocolError extends Error {}

/** Handshakes and reports the certificate; connected means the handshake completed. Never throws. */
export async function observeTls(spec: ProbeSpec, options: ObserveOptions): Promise<Observation> {
  const elapsed = stopwatch();
  const target = rawTarget(spec.endpoint);
  if ('error' in target)
    return { connected: false, latency_ms: elapsed(), error: { class: 'protocol', message: target.error } };
  // SNI and the hostname check use the name without a root dot; an IP literal is checked against IP altnames.
  const host = target.host.replace(/\.$/, '');

  const deadline = startDeadline(spec.timeoutSeconds);
  let socket: Socket | undefined;
  try {
    const opened = await openRaw(target.host, target.port, spec.endpoint, options, deadline);
    if ('error' in opened) return { connected: false, latency_ms: elapsed(), error: opened.error };
    socket = opened.socket;
    if (spec.starttls === 'smtp') await smtpStartTls(socket, deadline.signal);
    const trust = trustFor(options.ca);
    const secure = await handshake(socket, host, trust.context, deadline.signal);
    socket = secure;
    const latency = elapsed();
    const snapshot = snapshotCertificate(secure, host, trust.store);
    if (!snapshot) {
      return {
        connected: true,
        latency_ms: latency,
        error: { class: 'tls', message: 'The server sent no certificate' },
      };
    }
    return { connected: true, latency_ms: latency, cert: certInfo(snapshot) };
  } catch (error) {
    const failure: Observation['error'] = deadline.signal.aborted
      ? deadline.error
      : error instanceof ProtocolError
        ? { class: 'protocol', message: error.message }
        : { class: 'tls', message: `TLS handshake failed: ${handshakeError(error)}` };
    return { connected: false, latency_ms: elapsed(), error: failure };
  } finally {
    socket?.destroy();
    deadline.clear();
  }
}

/**
 * The TLS handshake over an open connection. The certificate is not refused here (rejectUnauthorized false) so
 * that it can be reported; `authorized` and `authorizationError` still say whether it verifies.
 */
function handshake(socket: Socket, host: string, context: SecureContext, signal: AbortSignal): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const secure = tlsConnect({
      socket,
      // An IP address may not be sent as SNI (RFC 6066).
      ...(isIP(host) ? {} : { servername: host }),
      rejectUnauthorized: false,
      // `authorized` then says whether the chain verifies; the name is checked once, in snapshotCertificate.
      checkServerIdentity: () => undefined,
      secureContext: context,
    });
    const onAbort = (): void => {
      secure.destroy();
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    secure.once('secureConnect', () => {
      signal.removeEventListener('abort', onAbort);
      resolve(secure);
    });
    secure.once('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      secure.destroy();
      reject(error);
    });
    secure.once('close', () => reject(new Error('the server closed the connection')));
  });
}

/** Contexts by their extra roots: made once, not at every handshake (a fresh one cost a fifth of a tls probe). */
const contexts = new Map<string, { context: SecureContext; store: TrustStore }>();

/** The client context trusting Node's roots and `ca`, with the store that finishes its chains. */
function trustFor(ca: string[] | undefined): { context: SecureContext; store: TrustStore } {
  const key = ca?.join('\n') ?? '';
  let trust = contexts.get(key);
  if (!trust) {
    // A few runners' CA sets at most; a test making many starts over rather than growing without end.
    if (contexts.size >= 16) contexts.clear();
    const roots = ca && ca.length > 0 ? [...rootCertificates, ...ca] : undefined;
    trust = { context: createSecureContext(roots ? { ca: roots } : {}), store: trustStore(roots) };
    contexts.set(key, trust);
  }
  return trust;
}

/**
 * SMTP up to the point where TLS starts (RFC 3207): the 220 greeting, EHLO, a 250 that offers STARTTLS,
 * STARTTLS, and its 220. Throws a ProtocolError naming the reply that did not fit.
 */
async function smtpStartTls(socket: Socket, signal: AbortSignal): Promise<void> {
  const reader = new ReplyReader(socket, signal);
  try {
    const greeting = await reader.next();
    if (greeting.code !== 220) throw new ProtocolError(`SMTP: the server greeted with "${greeting.text}"`);
    socket.write(`EHLO ${EHLO_NAME}\r\n`);
    const ehlo = await reader.next();
    if (ehlo.code !== 250) throw new ProtocolError(`SMTP: EHLO was answered "${ehlo.text}"`);
    if (!ehlo.lines.some((line) => /^starttls\b/i.test(line))) {
      throw new ProtocolError('SMTP: the server does not offer STARTTLS');
    }
    socket.write('STARTTLS\r\n');
    const ready = await reader.next();
    if (ready.code !== 220) throw new ProtocolError(`SMTP: STARTTLS was answered "${ready.text}"`);
  } finally {
    reader.detach();
  }
}

interface SmtpReply {
  code: number;
  /** Each line's text after the code and separator. */
  lines: string[];
  /** The first line as the server sent it, shortened, for messages. */
  text: string;
}

/** Reads SMTP replies (one or more `250-...` lines ending with `250 ...`) off a socket, one at a time. */
class ReplyReader {
  private buffer = '';
  private pending: { resolve: (reply: SmtpReply) => void; reject: (error: Error) => void } | undefined;
  private failure: Error | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly signal: AbortSignal,
  ) {
    socket.on('data', this.onData);
    socket.on('close', this.onClose);
    socket.on('error', this.onError);
    signal.addEventListener('abort', this.onAbort);
  }

  next(): Promise<SmtpReply> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.settle();
    });
  }

  /** Stops listening, so the TLS layer alone reads the socket from here on. */
  detach(): void {
    this.socket.removeListener('data', this.onData);
    this.socket.removeListener('close', this.onClose);
    this.socket.removeListener('error', this.onError);
    this.signal.removeEventListener('abort', this.onAbort);
  }

  private readonly onData = (chunk: Buffer): void => {
    this.buffer += chunk.toString('latin1');
    if (this.buffer.length > SMTP_REPLY_MAX) this.fail(new ProtocolError('SMTP: the reply is too long'));
    this.settle();
  };
  private readonly onClose = (): void => this.fail(new ProtocolError('SMTP: the server closed the connection'));
  private readonly onError = (error: Error): void => this.fail(new ProtocolError(`SMTP: ${error.message}`));
  private readonly onAbort = (): void => this.fail(this.signal.reason as Error);

  private fail(error: Error): void {
    this.failure ??= error;
    this.settle();
  }

  /** Hands the waiting caller a complete reply, or the failure. */
  private settle(): void {
    if (!this.pending) return;
    const reply = this.parse();
    if (reply instanceof Error) this.failure ??= reply;
    else if (reply) {
      this.pending.resolve(reply);
      this.pending = undefined;
      return;
    }
    if (this.failure) {
      this.pending.reject(this.failure);
      this.pending = undefined;
    }
  }

  /** The first complete reply in the buffer (removed from it), null when incomplete, an error when not SMTP. */
  private parse(): SmtpReply | ProtocolError | null {
    const lines: string[] = [];
    let offset = 0;
    for (;;) {
      const end = this.buffer.indexOf('\n', offset);
      if (end < 0) return null;
      const line = this.buffer.slice(offset, end).replace(/\r$/, '');
      offset = end + 1;
      const match = /^(\d{3})([ -]|$)(.*)$/.exec(line);
      if (!match) return new ProtocolError(`SMTP: not an SMTP reply ("${shorten(line)}")`);
      lines.push(match[3] ?? '');
      if (match[2] !== '-') {
        const first = this.buffer.slice(0, this.buffer.indexOf('\n')).replace(/\r$/, '');
        this.buffer = this.buffer.slice(offset);
        return { code: Number(match[1]), lines, text: shorten(first) };
      }
    }
  }
}

/** OpenSSL's reason and code ('wrong version number (ERR_SSL_WRONG_VERSION_NUMBER)'), not its whole error line. */
function handshakeError(error: unknown): string {
  const { reason, code, message } = (error ?? {}) as { reason?: unknown; code?: unknown; message?: unknown };
  const words = typeof reason === 'string' && reason ? reason : typeof message === 'string' ? message.trim() : '';
  const hint = code === 'ERR_SSL_WRONG_VERSION_NUMBER' ? ' (does this port speak TLS?)' : '';
  return `${words || 'the connection failed'}${typeof code === 'string' ? ` (${code})` : ''}${hint}`;
}

function shorten(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
