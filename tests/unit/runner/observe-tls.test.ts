import { X509Certificate } from 'node:crypto';
import { createServer as createNetServer, type Socket } from 'node:net';
import { createSecureContext, createServer as createTlsServer, TLSSocket, type TlsOptions } from 'node:tls';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Observation } from '../../../src/domain/check-kinds.js';
import { observe, type ObserveOptions } from '../../../src/runner/observe.js';
import { closedPort } from './test-server.js';
import { allowLoopback, closeServer, filteredPort, listen, lookupTo, startRawServer } from './probe-targets.js';
import { issue, rootCa, type KeyPair } from './test-certificates.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const NAME = 'secure.test';

/** A plain TCP server (not TLS) on 127.0.0.1, closed after the test. */
async function raw(onConnection: Parameters<typeof startRawServer>[0]) {
  const server = await startRawServer(onConnection);
  cleanups.push(() => server.close());
  return server;
}

let root: KeyPair;
let intermediate: KeyPair;
beforeAll(() => {
  root = rootCa();
  // The intermediate ends first: the chain's days left are its, not the leaf's.
  intermediate = issue({ commonName: 'Beacon Test Intermediate', issuer: root, ca: true, daysLeft: 5 });
});

const leaf = (daysLeft: number, host = NAME, issuer = root) =>
  issue({ commonName: host, issuer, altNames: [`DNS:${host}`], daysLeft });

/** A TLS server on 127.0.0.1 serving `certs` (leaf first, then the chain it sends); records the SNI names asked for. */
async function serveTls(
  key: string,
  certs: string[],
  extra: TlsOptions = {},
): Promise<{ port: number; names: string[] }> {
  const names: string[] = [];
  const context = createSecureContext({ key, cert: certs.join('') });
  const server = createTlsServer(
    {
      key,
      cert: certs.join(''),
      // Called during the ClientHello, only when the client sends SNI.
      SNICallback: (name, callback) => {
        names.push(name);
        callback(null, context);
      },
      ...extra,
    },
    (socket) => socket.end(),
  );
  server.on('tlsClientError', () => {});
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  cleanups.push(() => closeServer(server, sockets));
  return { port, names };
}

/** The shared runner's guard, letting the test's own server through, with `secure.test` resolving to it. */
const options = (extra: Partial<ObserveOptions> = {}): ObserveOptions => ({
  allowPrivate: false,
  policy: allowLoopback,
  lookup: lookupTo({ [NAME]: ['127.0.0.1'], 'mail.test': ['127.0.0.1'] }),
  ca: [root.cert],
  ...extra,
});

const tls = (endpoint: string, extra: { starttls?: 'smtp'; timeoutSeconds?: number } = {}) => ({
  kind: 'tls' as const,
  endpoint,
  timeoutSeconds: extra.timeoutSeconds ?? 3,
  ...(extra.starttls && { starttls: extra.starttls }),
});

const fingerprint = (cert: string) => new X509Certificate(cert).fingerprint256;
const notAfter = (cert: string) => new Date(new X509Certificate(cert).validTo).toISOString();

describe('observe tls: the certificate', () => {
  it('a leaf expiring in 10 days: valid, 9 whole days left (floored), subject, issuer and fingerprint', async () => {
    const cert = leaf(10);
    const server = await serveTls(cert.key, [cert.cert]);
    const seen = await observe(tls(`${NAME}:${server.port}`), options());
    expect(seen).toMatchObject({ connected: true });
    expect(seen.error).toBeUndefined();
    expect(seen.cert).toEqual({
      days_left: 9,
      not_after: notAfter(cert.cert),
      subject: `CN=${NAME}, O=Beacon Tests`,
      issuer: 'CN=Beacon Test Root, O=Beacon Tests',
      fingerprint: fingerprint(cert.cert),
      valid: true,
    });
    // SNI is the check's name, although the connection went to the checked address.
    expect(server.names).toEqual([NAME]);
  });

  it('an expired certificate: negative days left, not valid, and why', async () => {
    const cert = leaf(-1.5);
    const server = await serveTls(cert.key, [cert.cert]);
    const seen = await observe(tls(`${NAME}:${server.port}`), options());
    expect(seen.connected).toBe(true);
    // Ended a day and a half ago: floored, -2.
    expect(seen.cert).toMatchObject({ days_left: -2, valid: false });
    expect(seen.cert?.error).toContain('CERT_HAS_EXPIRED');
  });

  it('a certificate for another host: not valid, with the hostname mismatch', async () => {
    const cert = leaf(30, 'other.test');
    const server = await serveTls(cert.key, [cert.cert]);
    const seen = await observe(tls(`${NAME}:${server.port}`), options());
    expect(seen.cert).toMatchObject({ valid: false, subject: 'CN=other.test, O=Beacon Tests' });
    expect(seen.cert?.error).toMatch(/does not match certificate's altnames.*secure\.test/);
  });

  it('a chain through an intermediate: valid, and the days left are the chain minimum (the intermediate)', async () => {
    const cert = leaf(30, NAME, intermediate);
    const server = await serveTls(cert.key, [cert.cert, intermediate.cert]);
    const seen = await observe(tls(`${NAME}:${server.port}`), options());
    expect(seen.cert).toMatchObject({
      valid: true,
      days_left: 4,
      not_after: notAfter(intermediate.cert),
      issuer: 'CN=Beacon Test Intermediate, O=Beacon Tests',
      fingerprint: fingerprint(cert.cert),
    });
    expect(seen.cert?.error).toBeUndefined();
  });

  it("a root the trust store adds that ends first: its end is the chain's, on every handshake", async () => {
    const shortRoot = rootCa('Beacon Short Root', 4);
    const middle = issue({ commonName: 'Beacon Long Intermediate', issuer: shortRoot, ca: true, daysLeft: 30 });
    const cert = leaf(30, NAME, middle);
    const server = await serveTls(cert.key, [cert.cert, middle.cert]);
    // The second handshake reads the store's part from what the first one learnt.
    for (let handshake = 0; handshake < 2; handshake++) {
      const seen = await observe(tls(`${NAME}:${server.port}`), options({ ca: [shortRoot.cert] }));
      expect(seen.cert).toMatchObject({ valid: true, days_left: 3, not_after: notAfter(shortRoot.cert) });
    }
  });

  it('an incomplete chain (the intermediate not sent): not valid, with the authorization error', async () => {
    const cert = leaf(30, NAME, intermediate);
    const server = await serveTls(cert.key, [cert.cert]);
    const seen = await observe(tls(`${NAME}:${server.port}`), options());
    expect(seen.connected).toBe(true);
    expect(seen.cert).toMatchObject({ valid: false, days_left: 29 });
    expect(seen.cert?.error).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });

  it('a root nobody trusts: connected, reported, not valid', async () => {
    const cert = leaf(30);
    const server = await serveTls(cert.key, [cert.cert]);
    const seen = await observe(tls(`${NAME}:${server.port}`), options({ ca: undefined }));
    expect(seen.cert).toMatchObject({ valid: false, days_left: 29 });
    expect(seen.cert?.error).toBeTruthy();
  });

  it('an IP literal is checked against the IP altnames, with no SNI', async () => {
    const cert = issue({ commonName: '127.0.0.1', issuer: root, altNames: ['IP:127.0.0.1'], daysLeft: 30 });
    const server = await serveTls(cert.key, [cert.cert]);
    const seen = await observe(tls(`127.0.0.1:${server.port}`), options());
    expect(seen.cert).toMatchObject({ valid: true, days_left: 29 });
    expect(server.names).toEqual([]);
  });
});

describe('observe tls: failures', () => {
  it('a port that does not speak TLS is a tls error, not connected', async () => {
    const server = await raw((socket) => socket.end('220 plain text here\r\n'));
    const seen = await observe(tls(`${NAME}:${server.port}`), options());
    expect(seen).toEqual({
      connected: false,
      latency_ms: expect.any(Number),
      error: {
        class: 'tls',
        message:
          'TLS handshake failed: wrong version number (ERR_SSL_WRONG_VERSION_NUMBER) (does this port speak TLS?)',
      },
    });
  });

  it('a handshake that never completes times out within the check timeout', async () => {
    const server = await raw(() => {}); // accepts, says nothing
    const port = server.port;
    const seen = await observe(tls(`${NAME}:${port}`, { timeoutSeconds: 1 }), options());
    expect(seen).toMatchObject({ connected: false, error: { class: 'timeout', message: 'Timed out after 1 s' } });
    expect(seen.latency_ms).toBeGreaterThanOrEqual(990);
    expect(seen.latency_ms).toBeLessThan(1300);
  });

  it('refused and filtered ports answer alike, as for tcp', async () => {
    const closed = await closedPort();
    const filtered = await filteredPort();
    cleanups.push(() => filtered.close());
    const refusedSeen = await observe(tls(`${NAME}:${closed}`, { timeoutSeconds: 1 }), options());
    const filteredSeen = await observe(tls(`${NAME}:${filtered.port}`, { timeoutSeconds: 1 }), options());
    expect(refusedSeen.error).toEqual({ class: 'refused', message: `Could not connect to ${NAME}:${closed}` });
    expect(filteredSeen.error).toEqual({ class: 'refused', message: `Could not connect to ${NAME}:${filtered.port}` });
  });

  it('refuses a forbidden address with the default policy: nothing reaches the server', async () => {
    const server = await raw(() => {});
    const seen = await observe(tls(`127.0.0.1:${server.port}`), { allowPrivate: false });
    expect(seen).toEqual({
      connected: false,
      latency_ms: expect.any(Number),
      error: { class: 'refused', message: 'Refused: 127.0.0.1 is a loopback address' },
    });
    expect(server.connections).toBe(0);
  });
});

describe('observe tls: SMTP STARTTLS', () => {
  /** A tiny SMTP server: greeting, EHLO (offering STARTTLS unless told not to), STARTTLS, then TLS. */
  async function serveSmtp(
    cert: KeyPair,
    { offerStartTls = true, greeting = '220 mail.test ESMTP Beacon test' } = {},
  ): Promise<{ port: number; commands: string[]; names: string[] }> {
    const commands: string[] = [];
    const names: string[] = [];
    const context = createSecureContext({ key: cert.key, cert: cert.cert });
    const sockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.write(`${greeting}\r\n`);
      let buffer = '';
      const onData = (chunk: Buffer): void => {
        buffer += chunk.toString('latin1');
        let end: number;
        while ((end = buffer.indexOf('\r\n')) >= 0) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          commands.push(line);
          if (/^EHLO /i.test(line)) {
            socket.write(
              `250-mail.test greets you\r\n250-PIPELINING\r\n${offerStartTls ? '250-STARTTLS\r\n' : ''}250 8BITMIME\r\n`,
            );
          } else if (/^STARTTLS$/i.test(line)) {
            socket.removeListener('data', onData);
            socket.write('220 2.0.0 Ready to start TLS\r\n', () => {
              const secure = new TLSSocket(socket, {
                isServer: true,
                secureContext: context,
                SNICallback: (name, callback) => {
                  names.push(name);
                  callback(null, context);
                },
              });
              secure.on('error', () => {});
            });
          } else socket.write('502 5.5.2 Command not recognised\r\n');
        }
      };
      socket.on('data', onData);
    });
    const port = await listen(server);
    cleanups.push(() => closeServer(server, sockets));
    return { port, commands, names };
  }

  it('greets, sends EHLO, asks STARTTLS, then reads the certificate', async () => {
    const cert = issue({ commonName: 'mail.test', issuer: root, altNames: ['DNS:mail.test'], daysLeft: 20 });
    const smtp = await serveSmtp(cert);
    const seen = await observe(tls(`mail.test:${smtp.port}`, { starttls: 'smtp' }), options());
    expect(seen.error).toBeUndefined();
    expect(seen).toMatchObject({
      connected: true,
      cert: { valid: true, days_left: 19, subject: 'CN=mail.test, O=Beacon Tests' },
    });
    expect(smtp.commands).toEqual(['EHLO beacon.invalid', 'STARTTLS']);
    // The handshake ran on the upgraded connection, with the check's name as SNI.
    expect(smtp.names).toEqual(['mail.test']);
  });

  it('a server that does not offer STARTTLS is a protocol error', async () => {
    const cert = leaf(20, 'mail.test');
    const smtp = await serveSmtp(cert, { offerStartTls: false });
    const seen = await observe(tls(`mail.test:${smtp.port}`, { starttls: 'smtp' }), options());
    expect(seen).toMatchObject<Partial<Observation>>({
      connected: false,
      error: { class: 'protocol', message: 'SMTP: the server does not offer STARTTLS' },
    });
    expect(smtp.commands).toEqual(['EHLO beacon.invalid']);
  });

  it('a server that refuses service in its greeting is a protocol error naming the reply', async () => {
    const cert = leaf(20, 'mail.test');
    const smtp = await serveSmtp(cert, { greeting: '554 5.7.1 No service for you' });
    const seen = await observe(tls(`mail.test:${smtp.port}`, { starttls: 'smtp' }), options());
    expect(seen.error).toEqual({
      class: 'protocol',
      message: 'SMTP: the server greeted with "554 5.7.1 No service for you"',
    });
  });

  it('a port that does not speak SMTP is a protocol error', async () => {
    const server = await raw((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    const seen = await observe(tls(`mail.test:${server.port}`, { starttls: 'smtp' }), options());
    expect(seen.error?.class).toBe('protocol');
    expect(seen.error?.message).toContain('not an SMTP reply');
  });
});
