/**
 * What a TLS peer's certificate says, for the tls kind and for https answers (DESIGN.md 12): the whole chain's
 * earliest expiry (an intermediate that expires first breaks the site as surely as the leaf), whether the chain
 * verifies and names the host, and the leaf's fingerprint. Also remembers what each connection of an undici agent
 * showed, since undici hands a response no socket to ask.
 */
import { checkServerIdentity, type DetailedPeerCertificate, type PeerCertificate, type TLSSocket } from 'node:tls';
import { Agent, type buildConnector, type Dispatcher } from 'undici';
import type { CertInfo } from '../domain/check-kinds.js';

const DAY_MS = 86_400_000;
/** Longest chain walked; real chains have 2 to 4 certificates, this only stops a malicious loop. */
const MAX_CHAIN = 16;

/** A handshake's certificate without the clock: days left are counted when a result is made, not at connect. */
export interface CertSnapshot {
  /** The earliest `valid_to` in the chain, epoch ms. */
  notAfter: number;
  subject: string;
  issuer: string;
  fingerprint: string;
  valid: boolean;
  error?: string;
}

/**
 * What `socket` (after its handshake) was shown, judged for `host` (the name asked for, or an IP literal).
 * Null when the peer sent no certificate.
 */
export function snapshotCertificate(socket: TLSSocket, host: string): CertSnapshot | null {
  const leaf = socket.getPeerCertificate(true);
  if (!leaf?.raw) return null;
  const chain = certificateChain(leaf);
  const expiries = chain.map((cert) => Date.parse(cert.valid_to)).filter((time) => Number.isFinite(time));
  // Node hands back the raw verify code ('CERT_HAS_EXPIRED'); its type says Error.
  const authorizationError = socket.authorizationError ? String(socket.authorizationError) : undefined;
  const identityError = checkServerIdentity(host, leaf);
  const errors = [
    authorizationError && describeVerifyCode(authorizationError),
    identityError && identityError.message,
  ].filter((text): text is string => Boolean(text));
  return {
    notAfter: expiries.length > 0 ? Math.min(...expiries) : NaN,
    subject: formatName(leaf.subject),
    issuer: formatName(leaf.issuer),
    fingerprint: leaf.fingerprint256,
    valid: socket.authorized && !identityError,
    ...(errors.length > 0 && { error: errors.join('; ') }),
  };
}

/** The result's view of a snapshot at `now`: days left are whole days, floored (negative once expired). */
export function certInfo(snapshot: CertSnapshot, now = Date.now()): CertInfo {
  const known = Number.isFinite(snapshot.notAfter);
  return {
    days_left: known ? Math.floor((snapshot.notAfter - now) / DAY_MS) : 0,
    not_after: known ? new Date(snapshot.notAfter).toISOString() : '',
    subject: snapshot.subject,
    issuer: snapshot.issuer,
    fingerprint: snapshot.fingerprint,
    valid: snapshot.valid,
    ...(snapshot.error !== undefined && { error: snapshot.error }),
  };
}

/** The leaf, then each issuer the peer (or the trust store) supplied, up to the first self-signed one. */
function certificateChain(leaf: DetailedPeerCertificate): PeerCertificate[] {
  const chain: PeerCertificate[] = [];
  const seen = new Set<string>();
  let cert: DetailedPeerCertificate | undefined = leaf;
  while (cert?.raw && !seen.has(cert.fingerprint256) && chain.length < MAX_CHAIN) {
    chain.push(cert);
    seen.add(cert.fingerprint256);
    cert = cert.issuerCertificate === cert ? undefined : cert.issuerCertificate;
  }
  return chain;
}

/** `CN=leaf.example, O=Example, C=GB`: the common name first, then the rest as the certificate orders them. */
function formatName(name: PeerCertificate['subject'] | undefined): string {
  if (!name) return '';
  const entries = Object.entries(name as unknown as Record<string, string | string[]>);
  entries.sort(([a], [b]) => Number(b === 'CN') - Number(a === 'CN'));
  return entries
    .flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${key}=${v}`))
    .join(', ');
}

/** OpenSSL's verify codes people meet most, in words (the code kept, for searching). */
const VERIFY_CODES: Record<string, string> = {
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not yet valid',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the chain ends in an untrusted self-signed root',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the chain is incomplete or untrusted (cannot verify the leaf)',
  UNABLE_TO_GET_ISSUER_CERT: 'the chain is incomplete (an issuer is missing)',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the chain is incomplete or its root is not trusted',
  CERT_REVOKED: 'the certificate is revoked',
};

function describeVerifyCode(code: string): string {
  const words = VERIFY_CODES[code];
  return words ? `${words} (${code})` : code;
}

// --- What an undici agent's connections showed ---

interface Recorded {
  snapshot: CertSnapshot;
  /** Connections open to the origin; the entry outlives the last one briefly (see below). */
  open: number;
}

/** How long a record stays after its origin's last connection closed: a probe whose answer closed it reads it. */
const LINGER_MS = 1_000;

const stores = new WeakMap<Dispatcher, Map<string, Recorded>>();

/**
 * An undici Agent whose https connections remember their peer's certificate per origin, so a probe can report
 * the certificate of the answer it got ({@link recordedCertificate}) while connections stay shared and kept
 * alive. Every connection to one origin is the same server name, so the latest handshake speaks for all of them.
 */
export function certificateRecordingAgent(connect: buildConnector.connector, options: Agent.Options = {}): Agent {
  const store = new Map<string, Recorded>();
  const recordingConnect: buildConnector.connector = (connectOptions, callback) => {
    connect(connectOptions, (...args) => {
      const [error, socket] = args;
      if (!error && connectOptions.protocol === 'https:') {
        const host = connectOptions.servername || connectOptions.hostname;
        remember(store, originKey(connectOptions.hostname, connectOptions.port, 'https:'), socket as TLSSocket, host);
      }
      callback(...args);
    });
  };
  const agent = new Agent({ ...options, connect: recordingConnect });
  stores.set(agent, store);
  return agent;
}

/** The certificate the connection that answered `url` showed, when `dispatcher` records them; else undefined. */
export function recordedCertificate(dispatcher: Dispatcher, url: URL, now = Date.now()): CertInfo | undefined {
  if (url.protocol !== 'https:') return undefined;
  const recorded = stores.get(dispatcher)?.get(originKey(url.hostname, url.port, url.protocol));
  return recorded && certInfo(recorded.snapshot, now);
}

function remember(store: Map<string, Recorded>, key: string, socket: TLSSocket, host: string): void {
  const snapshot = snapshotCertificate(socket, host);
  if (!snapshot) return;
  let entry = store.get(key);
  if (entry) {
    entry.snapshot = snapshot;
    entry.open++;
  } else store.set(key, (entry = { snapshot, open: 1 }));
  const kept = entry;
  socket.once('close', () => {
    kept.open--;
    const timer = setTimeout(() => {
      if (kept.open === 0 && store.get(key) === kept) store.delete(key);
    }, LINGER_MS);
    timer.unref();
  });
}

/** `host:port` as undici's connector and a URL both spell it (no IPv6 brackets, the scheme's default port). */
function originKey(hostname: string, port: string | number | undefined | null, protocol: string): string {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return `${host}:${port || (protocol === 'https:' ? 443 : 80)}`;
}
