/**
 * What a TLS peer's certificate says, for the tls kind and for https answers (docs/decisions.md#checks): the whole
 * chain's earliest expiry (an intermediate that expires first breaks the site as surely as the leaf), whether the chain
 * verifies and names the host, and the leaf's fingerprint. Also remembers what each connection of an undici agent
 * showed, since undici hands a response no socket to ask.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { checkServerIdentity, rootCertificates, type PeerCertificate, type TLSSocket } from 'node:tls';
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
 * What `socket` (after its handshake) was shown, judged for `host` (the name asked for, or an IP literal), with
 * the chain finished from `trust`, the store the socket's context verified against. Null when the peer sent no
 * certificate.
 *
 * Read through X509Certificate, whose fields are made only when asked for: getPeerCertificate(true) turns every
 * certificate of the chain into a plain object (keys, extensions, raw bytes) on every handshake, which cost the
 * shared runner a third of each tls probe (issue 26).
 */
export function snapshotCertificate(socket: TLSSocket, host: string, trust = trustStore()): CertSnapshot | null {
  const leaf = socket.getPeerX509Certificate();
  if (!leaf) return null;
  const sent = sentChain(leaf);
  const expiries = sent.map((cert) => Date.parse(cert.validTo));
  expiries.push(trustedIssuersExpiry(trust, sent.at(-1)!));
  const known = expiries.filter((time) => Number.isFinite(time));
  // Node hands back the raw verify code ('CERT_HAS_EXPIRED'); its type says Error.
  const authorizationError = socket.authorizationError ? String(socket.authorizationError) : undefined;
  const subject = nameEntries(leaf.subject);
  const identityError = checkServerIdentity(host, identityOf(subject, leaf.subjectAltName));
  const errors = [
    authorizationError && describeVerifyCode(authorizationError),
    identityError && identityError.message,
  ].filter((text): text is string => Boolean(text));
  return {
    notAfter: known.length > 0 ? Math.min(...known) : NaN,
    subject: formatName(subject),
    issuer: formatName(nameEntries(leaf.issuer)),
    fingerprint: leaf.fingerprint256,
    valid: socket.authorized && !identityError,
    ...(errors.length > 0 && { error: errors.join('; ') }),
  };
}

/** The leaf, then each issuer the peer sent after it, up to the first self-signed one. */
function sentChain(leaf: X509Certificate): X509Certificate[] {
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  let cert: X509Certificate | undefined = leaf;
  while (cert && !seen.has(cert.fingerprint256) && chain.length < MAX_CHAIN) {
    chain.push(cert);
    seen.add(cert.fingerprint256);
    cert = cert.issuerCertificate;
  }
  return chain;
}

/**
 * The earliest expiry among the issuers `trust` adds to the chain beyond `last`, the last certificate the peer
 * sent (usually an intermediate, whose root only the store holds); NaN when there are none. Remembered per
 * store and certificate: the roots behind an intermediate do not change while the process runs.
 */
function trustedIssuersExpiry(trust: TrustStore, last: X509Certificate): number {
  const key = last.fingerprint256;
  let expiry = trust.expiries.get(key);
  if (expiry !== undefined) return expiry;
  expiry = Infinity;
  const seen = new Set<string>([key]);
  for (let cert = trust.issuerOf(last); cert && !seen.has(cert.fingerprint256); cert = trust.issuerOf(cert)) {
    seen.add(cert.fingerprint256);
    expiry = Math.min(expiry, Date.parse(cert.validTo));
  }
  if (!Number.isFinite(expiry)) expiry = NaN;
  if (trust.expiries.size >= MAX_STORE_EXPIRIES) trust.expiries.clear();
  trust.expiries.set(key, expiry);
  return expiry;
}

/** Distinct issuing certificates remembered per store; real traffic meets a few hundred. */
const MAX_STORE_EXPIRIES = 10_000;

/**
 * The roots a TLS client trusts, to finish a chain the way OpenSSL does: getPeerCertificate(true) would walk into
 * the store too, but it cannot be read once getPeerX509Certificate has been (Node 20 hands back an empty object).
 */
export class TrustStore {
  /** By subject, as X509Certificate prints it. */
  private readonly bySubject = new Map<string, X509Certificate[]>();
  /** What {@link trustedIssuersExpiry} learnt, by the fingerprint of the last certificate a peer sent. */
  readonly expiries = new Map<string, number>();

  constructor(pems: readonly string[]) {
    for (const pem of pems) {
      for (const block of pem.match(PEM_BLOCK) ?? []) {
        try {
          const cert = new X509Certificate(block);
          const same = this.bySubject.get(cert.subject) ?? [];
          same.push(cert);
          this.bySubject.set(cert.subject, same);
        } catch {
          // Not a certificate OpenSSL reads; the context skips it as well.
        }
      }
    }
  }

  /** The trusted certificate that issued `cert` (its name, key identifier and signature), unless it is self-issued. */
  issuerOf(cert: X509Certificate): X509Certificate | undefined {
    if (cert.checkIssued(cert)) return undefined;
    return this.bySubject.get(cert.issuer)?.find((issuer) => cert.checkIssued(issuer) && cert.verify(issuer.publicKey));
  }
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

const trustStores = new Map<string, TrustStore>();

/**
 * The store of a context made with `ca` (exactly those roots), or of Node's default context when undefined: its
 * bundled roots and NODE_EXTRA_CA_CERTS. Made once per set of roots.
 */
export function trustStore(ca?: readonly string[]): TrustStore {
  const key = ca ? ca.join('\n') : '';
  let store = trustStores.get(key);
  if (!store) {
    // A few runners' CA sets at most; a test making many starts over rather than growing without end.
    if (trustStores.size >= 16) trustStores.clear();
    store = new TrustStore(ca ?? [...rootCertificates, ...extraCaCertificates()]);
    trustStores.set(key, store);
  }
  return store;
}

/** NODE_EXTRA_CA_CERTS, which Node adds to its default roots at start. */
function extraCaCertificates(): string[] {
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return [readFileSync(file, 'utf8')];
  } catch {
    return [];
  }
}

/** A distinguished name as X509Certificate prints it (`C=GB\nO=Example\nCN=leaf.example`), repeated keys together. */
function nameEntries(text: string): [string, string[]][] {
  const entries = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at <= 0) continue;
    const key = line.slice(0, at);
    const values = entries.get(key) ?? [];
    values.push(line.slice(at + 1));
    entries.set(key, values);
  }
  return [...entries];
}

/** What checkServerIdentity reads of a certificate: the subject's common name and the alternative names. */
function identityOf(subject: [string, string[]][], altNames: string | undefined): PeerCertificate {
  const cn = subject.find(([key]) => key === 'CN')?.[1];
  return {
    subject: cn ? { CN: cn.length === 1 ? cn[0] : cn } : {},
    ...(altNames !== undefined && { subjectaltname: altNames }),
  } as unknown as PeerCertificate;
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

/** `CN=leaf.example, O=Example, C=GB`: the common name first, then the rest as the certificate orders them. */
function formatName(entries: [string, string[]][]): string {
  return [...entries]
    .sort(([a], [b]) => Number(b === 'CN') - Number(a === 'CN'))
    .flatMap(([key, values]) => values.map((value) => `${key}=${value}`))
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
export function certificateRecordingAgent(
  connect: buildConnector.connector,
  options: Agent.Options = {},
  trust = trustStore(),
): Agent {
  const store = new Map<string, Recorded>();
  const recordingConnect: buildConnector.connector = (connectOptions, callback) => {
    connect(connectOptions, (...args) => {
      const [error, socket] = args;
      if (!error && connectOptions.protocol === 'https:') {
        const host = connectOptions.servername || connectOptions.hostname;
        remember(
          store,
          originKey(connectOptions.hostname, connectOptions.port, 'https:'),
          socket as TLSSocket,
          host,
          trust,
        );
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

function remember(store: Map<string, Recorded>, key: string, socket: TLSSocket, host: string, trust: TrustStore): void {
  const snapshot = snapshotCertificate(socket, host, trust);
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
