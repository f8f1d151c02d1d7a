import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsEncoding } from '../../src/server/routes/web.js';
import { hostOf, json, registerWorkspace, startTestServer, type TestServer } from '../support/server.js';

const SCRIPT = 'console.log("a hashed asset");'.repeat(20);

let server: TestServer;

beforeAll(async () => {
  // A stand-in build, so the server's page handling is tested whether or not `vite build` ran.
  const webDir = mkdtempSync(join(tmpdir(), 'beacon-web-'));
  writeFileSync(join(webDir, 'index.html'), '<html><head><!--beacon-config--></head><body>app</body></html>');
  writeFileSync(
    join(webDir, 'login.html'),
    '<html><head><!--beacon-config--></head><body><div id="root"><h1>Log in</h1></div></body></html>',
  );
  writeFileSync(join(webDir, 'sw.js'), 'self.x = 1;');
  writeFileSync(join(webDir, 'manifest.webmanifest'), '{"name":"Beacon"}');
  mkdirSync(join(webDir, 'assets'));
  writeFileSync(join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  // As the build writes them (scripts/build-assets.ts): compressed twins beside the asset.
  writeFileSync(join(webDir, 'assets', 'app-def456.js'), SCRIPT);
  writeFileSync(join(webDir, 'assets', 'app-def456.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(webDir, 'assets', 'app-def456.js.gz'), gzipSync(SCRIPT));
  server = await startTestServer({ BEACON_WEB_DIR: webDir, BEACON_SIGNUP_HOST: 'signup.localhost' });
});
afterAll(() => server.close());

describe('the web app', () => {
  it('serves index.html with the host settings for / and every page path, uncached', async () => {
    for (const url of ['/', '/index.html', '/users/ann', '/invite/abc?code=x']) {
      const response = await server.app.inject({ method: 'GET', url, headers: { host: hostOf('acme') } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain(
        '<meta name="beacon-config" content="{&quot;baseDomain&quot;:&quot;localhost&quot;,&quot;signupHost&quot;:&quot;signup.localhost&quot;}" />',
      );
    }
  });

  it('answers a workspace’s /login with the prerendered card, compressed and uncached; the root host the plain page', async () => {
    const login = await server.app.inject({
      method: 'GET',
      url: '/login',
      headers: { host: hostOf('acme'), 'accept-encoding': 'br' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-cache');
    expect(login.headers['content-encoding']).toBe('br');
    const page = brotliDecompressSync(login.rawPayload).toString();
    expect(page).toContain('<div id="root"><h1>Log in</h1></div>');
    expect(page).toContain('<meta name="beacon-config"');
    const withQuery = await server.app.inject({
      method: 'GET',
      url: '/login?registered=1',
      headers: { host: hostOf('acme') },
    });
    expect(withQuery.body).toContain('<h1>Log in</h1>');
    const root = await server.app.inject({ method: 'GET', url: '/login', headers: { host: 'localhost:8080' } });
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('<body>app</body>');
  });

  it('serves hashed assets for good, the service worker and manifest never cached, the manifest with its type', async () => {
    const asset = await server.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const worker = await server.app.inject({ method: 'GET', url: '/sw.js' });
    expect(worker.headers['cache-control']).toBe('no-cache');
    const manifest = await server.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.headers['content-type']).toContain('application/manifest+json');
  });

  it('answers robots.txt as text: status pages may be indexed, the app not', async () => {
    for (const host of [hostOf('acme'), 'localhost:8080']) {
      const robots = await server.app.inject({ method: 'GET', url: '/robots.txt', headers: { host } });
      expect(robots.statusCode).toBe(200);
      expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(robots.body).toBe('User-agent: *\nAllow: /status/\nDisallow: /\n');
    }
  });

  it("names the installed app after the host's workspace", async () => {
    await registerWorkspace(server, 'acme');
    const named = await server.app.inject({
      method: 'GET',
      url: '/manifest.webmanifest',
      headers: { host: hostOf('acme') },
    });
    expect(named.headers['cache-control']).toBe('no-cache');
    expect(json(named)).toMatchObject({ name: 'Workspace acme · Beacon', short_name: 'Workspace acme' });
    const root = await server.app.inject({
      method: 'GET',
      url: '/manifest.webmanifest',
      headers: { host: 'localhost:8080' },
    });
    expect(json(root)).toEqual({ name: 'Beacon' });
  });

  it('sends an asset as its brotli or gzip twin by Accept-Encoding, cached for good, and as it is otherwise', async () => {
    const get = (encoding?: string) =>
      server.app.inject({
        method: 'GET',
        url: '/assets/app-def456.js',
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
    const br = await get('gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect((await get('gzip')).headers['content-encoding']).toBe('gzip');
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    // An asset without twins (an image, a font) goes as it is to every browser.
    const single = await server.app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(single.headers['content-encoding']).toBeUndefined();
    expect(single.body).toBe('console.log(1)');
  });

  it('sends the page compressed when accepted, never cached for long', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/services',
      headers: { host: hostOf('acme'), 'accept-encoding': 'gzip, br' },
    });
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(response.rawPayload).toString()).toContain('<meta name="beacon-config"');
  });

  it('reads Accept-Encoding with its q-values', () => {
    expect(acceptsEncoding('gzip, deflate, br', 'br')).toBe(true);
    expect(acceptsEncoding('br;q=0, gzip', 'br')).toBe(false);
    expect(acceptsEncoding('BR;q=0.5', 'br')).toBe(true);
    expect(acceptsEncoding('brotli', 'br')).toBe(false);
    expect(acceptsEncoding(undefined, 'gzip')).toBe(false);
  });

  it('keeps unknown API paths and non-GET requests JSON 404s', async () => {
    const api = await server.app.inject({ method: 'GET', url: '/api/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Not Found' });
    const post = await server.app.inject({ method: 'POST', url: '/users/ann' });
    expect(post.statusCode).toBe(404);
  });
});
