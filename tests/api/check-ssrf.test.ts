import { createServer, type Server } from 'node:http';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import dnsPacket from 'dns-packet';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthCheckResult } from '../../src/contract/health.js';
import { closeSharedAgents } from '../../src/runner/probe.js';
import { createTeam } from '../support/fixtures.js';
import {
  authHeaders,
  json,
  registerWorkspace,
  startTestServer,
  type Member,
  type TestServer,
} from '../support/server.js';

/**
 * Issue 26 item 6 and docs/decisions.md#address-guard and #checks: on the shared runner (private targets not allowed),
 * every probing kind resolves once, refuses loopback, private, link-local, CGNAT, IPv4-mapped and metadata addresses in
 * every spelling, and never connects to them; the RDAP lookup of a domain check is guarded the same way. Local servers
 * count every connection they get: none may arrive.
 */
let server: TestServer;
let owner: Member;
let http: Server;
let tcp: TcpServer;
let httpPort: number;
let tcpPort: number;
let connections = 0;
/** The operator's resolver: every name is at a private address; it counts the questions it hears. */
let resolver: UdpSocket;
const questions: string[] = [];

beforeAll(async () => {
  http = createServer((_request, response) => response.end('{"services":[]}'));
  http.on('connection', () => connections++);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  httpPort = (http.address() as AddressInfo).port;
  tcp = createTcpServer((socket) => socket.end('hello'));
  tcp.on('connection', () => connections++);
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  tcpPort = (tcp.address() as AddressInfo).port;
  resolver = createSocket('udp4');
  resolver.on('message', (message, peer) => {
    const query = dnsPacket.decode(message);
    const question = query.questions![0]!;
    questions.push(question.name);
    const data = question.type === 'AAAA' ? 'fd00::7' : '10.0.0.7';
    const answers = [{ type: question.type, name: question.name, data }] as dnsPacket.Answer[];
    const answer = dnsPacket.encode({ type: 'response', id: query.id, questions: query.questions, answers });
    resolver.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => resolver.bind(0, '127.0.0.1', resolve));
  server = await startTestServer({
    BEACON_DNS_RESOLVERS: `127.0.0.1:${resolver.address().port}`,
    BEACON_RDAP_BOOTSTRAP_URL: `http://127.0.0.1:${httpPort}/dns.json`,
    BEACON_CHECK_TEST_RATE_LIMIT: '1000',
  });
  owner = await registerWorkspace(server, 'ssrfco');
  await createTeam(server, owner, { name: 'Ops', handle: 'ops' });
  await server.app.inject({
    method: 'POST',
    url: '/api/teams/ops/services',
    headers: authHeaders(owner),
    payload: { name: 'Probe', handle: 'probe' },
  });
});
afterAll(async () => {
  await server.close();
  await closeSharedAgents();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
  await new Promise((resolve) => tcp.close(resolve));
  resolver.close();
});

async function tryCheck(kind: string, endpoint: string): Promise<HealthCheckResult> {
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/services/probe/health-checks/actions/test',
    headers: authHeaders(owner),
    payload: { name: 'Probe', kind, endpoint, timeout: 2 },
  });
  expect(response.statusCode, response.body).toBe(200);
  return json<HealthCheckResult>(response);
}

const refusedAddress = {
  success: false,
  error: { class: 'refused', message: expect.stringMatching(/not allowed|refused/i) },
};

describe('the shared runner refuses internal targets for every kind', () => {
  it.each([
    `http://127.0.0.1:PORT/`,
    `http://localhost:PORT/`,
    `http://[::1]:PORT/`,
    `http://[::ffff:127.0.0.1]:PORT/`,
    `http://[::ffff:7f00:1]:PORT/`,
    `http://2130706433:PORT/`,
    `http://0x7f.0.0.1:PORT/`,
    `http://0177.0.0.1:PORT/`,
    `http://169.254.169.254/latest/meta-data/`,
    `http://100.64.0.1/`,
    `http://10.0.0.1/`,
    `http://[fd00::1]/`,
  ])('http %s', async (url) => {
    expect(await tryCheck('http', url.replace('PORT', String(httpPort)))).toMatchObject(refusedAddress);
  });

  it.each([
    '127.0.0.1:PORT',
    'localhost:PORT',
    '[::1]:PORT',
    '[::ffff:127.0.0.1]:PORT',
    '169.254.169.254:80',
    '100.64.0.1:22',
    '192.168.1.1:22',
  ])('tcp and tls %s', async (endpoint) => {
    const target = endpoint.replace('PORT', String(tcpPort));
    expect(await tryCheck('tcp', target)).toMatchObject(refusedAddress);
    expect(await tryCheck('tls', target)).toMatchObject(refusedAddress);
  });

  it('domain: the RDAP lookup goes through the guard too', async () => {
    const result = await tryCheck('domain', 'example.com');
    expect(result.success).toBe(false);
    expect(result.error?.message).toMatch(/not allowed|refused/i);
  });

  it.each(['db.internal', 'api.payments.svc.cluster.local', 'nas.home.arpa', 'printer.local'])(
    'dns: the private name %s is never asked',
    async (name) => {
      const result = await tryCheck('dns', name);
      expect(result).toMatchObject({
        success: false,
        error: { class: 'refused', message: `Refused: ${name} is not an allowed host` },
      });
      expect(questions).not.toContain(name);
    },
  );

  it('dns: a private address in an answer is refused, never shown', async () => {
    for (const record of ['A', 'AAAA']) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/services/probe/health-checks/actions/test',
        headers: authHeaders(owner),
        payload: { name: 'Probe', kind: 'dns', endpoint: 'db.example.com', record, timeout: 2 },
      });
      expect(questions).toContain('db.example.com');
      expect(json(response)).toMatchObject({
        success: false,
        error: { class: 'refused', message: 'Refused: db.example.com is not an allowed host' },
      });
      expect(response.body).not.toMatch(/10\.0\.0\.7|fd00/);
    }
  });

  it('no connection ever reached the local servers', () => {
    expect(connections).toBe(0);
  });
});
