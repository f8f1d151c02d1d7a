import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { TestIdentityProvider } from './saml-idp.js';

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** GET `url` from 127.0.0.1 with its host in the Host header (so `demo.localhost:port` needs no resolver). */
function fetchLocal(url: string): Promise<string> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: target.port,
        path: `${target.pathname}${target.search}`,
        headers: { host: target.host },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`${url}: ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * The browser's face of a TestIdentityProvider: an HTTP server whose GET /sso?SAMLRequest=…&RelayState=… answers
 * a page that posts the signed SAMLResponse (for `email`) to the service provider's ACS at once, as a real IdP
 * does after its own login. The SP's metadata is read from its entity id (Beacon's is the metadata URL).
 */
export class HttpIdentityProvider {
  idp: TestIdentityProvider | undefined;
  /** Who signs in at the next request. */
  email = 'sam@sso.test';
  name = 'Sam Sso';
  /** The requests answered. */
  readonly requests: string[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<TestIdentityProvider> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.idp = new TestIdentityProvider({ ssoUrl: `${this.url}/sso`, sloUrl: `${this.url}/slo` });
    return this.idp;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    try {
      if (request.method !== 'GET' || url.pathname !== '/sso' || !url.searchParams.get('SAMLRequest')) {
        response.writeHead(404).end('Not found');
        return;
      }
      this.requests.push(url.toString());
      const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
      const issuer = /<(?:saml2?:)?Issuer[^>]*>([^<]+)</.exec(xml)![1]!;
      const metadata = await fetchLocal(issuer);
      const acs = /AssertionConsumerService[^>]*Location="([^"]+)"/.exec(metadata)![1]!;
      const samlResponse = await this.idp!.respond(metadata, this.idp!.requestIdOf(url.toString()), {
        email: this.email,
        name: this.name,
      });
      const relayState = url.searchParams.get('RelayState');
      const page =
        '<!doctype html><html><head><title>Test IdP</title></head><body>' +
        `<form id="saml" method="post" action="${escapeHtml(acs)}">` +
        `<input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">` +
        (relayState ? `<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}">` : '') +
        '<noscript><button type="submit">Continue</button></noscript></form>' +
        "<script>document.getElementById('saml').submit()</script></body></html>";
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  }
}
