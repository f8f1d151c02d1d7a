import { lookup as dnsLookup } from 'node:dns/promises';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { type Agent, buildConnector } from 'undici';
import { forbiddenKind, refusalMessage, type ForbiddenKind } from './address-policy.js';
import { certificateRecordingAgent, trustStore } from './certificates.js';

/** Resolves a host name to all of its addresses (dns.lookup with `all: true` by default). */
export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

/** Why an address may not be reached, or null when it may ({@link forbiddenKind} is the default). */
export type AddressPolicy = (ip: string) => ForbiddenKind | null;

export interface GuardedAgentOptions {
  /** Name resolution; defaults to the system resolver (dns.lookup, all addresses). */
  lookup?: LookupAll;
  /** Which addresses are refused; defaults to {@link forbiddenKind}. Tests narrow it to reach a local server. */
  policy?: AddressPolicy;
  /** Time allowed for one TCP/TLS connection attempt, in ms (default 10 s; a probe's own timeout cuts it). */
  connectTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept, in ms (default 4 s, or less when the server says so). */
  keepAliveTimeoutMs?: number;
  /** Trusted roots for https (PEM), replacing Node's: tests with their own CA. */
  ca?: string[];
}

/**
 * The error a refused connection fails with. Its message names the host as the check wrote it, never the address
 * a name resolved to; `address` and `kind` say which address was refused and why.
 */
export class RefusedAddressError extends Error {
  readonly code = 'BEACON_REFUSED_ADDRESS';
  constructor(
    readonly address: string,
    readonly kind: ForbiddenKind,
    host = address,
  ) {
    super(refusalMessage(host, kind));
    this.name = 'RefusedAddressError';
  }
}

/** Connect errors after which the next checked address is worth a try; others (TLS, say) end the attempt. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ETIMEDOUT']);

const systemLookup: LookupAll = (hostname) => dnsLookup(hostname, { all: true });

/**
 * An undici Agent whose connections can only reach permitted addresses. At every connect it resolves the host
 * itself, checks every address it gets (one forbidden address refuses the whole host, so a mixed answer cannot
 * be used), then connects to one of those checked addresses by IP, so a DNS answer that changes between check
 * and connect (rebinding) is never used. TLS still verifies the certificate against the host name (SNI).
 * Keep-alive connections are reused by origin; a reused connection goes to an address checked when it opened.
 * Each https connection's certificate is remembered for the probe that used it (certificates.ts).
 */
export function createGuardedAgent(options: GuardedAgentOptions = {}): Agent {
  const lookup = options.lookup ?? systemLookup;
  const policy = options.policy ?? forbiddenKind;
  const connectTimeout = options.connectTimeoutMs ?? 10_000;
  const baseConnect = buildConnector({ timeout: connectTimeout, ...(options.ca && { ca: options.ca }) });

  const connect: buildConnector.connector = (connectOptions, callback) => {
    const { hostname } = connectOptions;
    resolveChecked(hostname, lookup, policy).then(
      (addresses) => connectFirst(addresses, 0, null),
      (error: Error) => callback(error, null),
    );

    // Tries the checked addresses in resolver order, moving on when one cannot be reached (say, no IPv6 route).
    function connectFirst(addresses: string[], index: number, lastError: Error | null): void {
      const address = addresses[index];
      if (address === undefined) {
        callback(lastError ?? new Error(`Could not connect to ${hostname}`), null);
        return;
      }
      baseConnect(
        {
          ...connectOptions,
          hostname: address,
          // SNI and certificate checks use the name the check asked for, not the address we connect to.
          servername: connectOptions.servername || (isIP(hostname) ? undefined : hostname),
        },
        (error, socket) => {
          if (!error) callback(null, socket);
          else if (UNREACHABLE.has((error as { code?: string }).code ?? '')) connectFirst(addresses, index + 1, error);
          else callback(error, null);
        },
      );
    }
  };

  return certificateRecordingAgent(
    connect,
    {
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
      // The probe's own timeout covers the whole exchange; these only stop leaked requests.
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    },
    trustStore(options.ca),
  );
}

/**
 * All addresses of `hostname` (an IP literal is its own answer), or a RefusedAddressError for the first bad one.
 * Probes connect only to what this returned (resolve once, check every address, connect to the pinned one).
 */
export async function resolveChecked(
  hostname: string,
  lookup: LookupAll = systemLookup,
  policy: AddressPolicy = forbiddenKind,
): Promise<string[]> {
  const addresses = isIP(hostname) ? [hostname] : (await lookup(hostname)).map((entry) => entry.address);
  if (addresses.length === 0) {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  }
  for (const address of addresses) {
    const kind = policy(address);
    if (kind) throw new RefusedAddressError(address, kind, hostname);
  }
  return addresses;
}

/**
 * A TCP connection to the first of `addresses` (checked ones, from {@link resolveChecked}) that can be reached on
 * `port`, trying the next on the errors the agent moves on after; for probes that speak raw TCP or TLS. Aborting
 * `signal` ends the attempt with its reason.
 */
export async function connectAddresses(addresses: string[], port: number, signal: AbortSignal): Promise<Socket> {
  let lastError: unknown = new Error('No address to connect to');
  for (const address of addresses) {
    try {
      return await connectOne(address, port, signal);
    } catch (error) {
      if (signal.aborted || !UNREACHABLE.has((error as { code?: string }).code ?? '')) throw error;
      lastError = error;
    }
  }
  throw lastError;
}

function connectOne(address: string, port: number, signal: AbortSignal): Promise<Socket> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const socket = netConnect({ host: address, port });
    // Kept for the socket's life: an error between this hand-over and the caller's own listener must not crash
    // the process; the caller still hears every error through its listeners.
    socket.on('error', () => {});
    const onAbort = (): void => {
      socket.destroy();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => {
      signal.removeEventListener('abort', onAbort);
      resolve(socket);
    });
    socket.once('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(error);
    });
  });
}
