import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostOf, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;

beforeAll(async () => {
  // A stand-in build, so the server's page handling is tested whether or not `vite build` ran.
  const webDir = mkdtempSync(join(tmpdir(), 'beacon-web-'));
  writeFileSync(join(webDir, 'index.html'), '<html><head><!--beacon-config--></head><body>app</body></html>');
  writeFileSync(join(webDir, 'sw.js'), 'self.x = 1;');
  writeFileSync(join(webDir, 'manifest.webmanifest'), '{"name":"Beacon"}');
  mkdirSync(join(webDir, 'assets'));
  writeFileSync(join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
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

  it('serves hashed assets for good, the service worker and manifest never cached, the manifest with its type', async () => {
    const asset = await server.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const worker = await server.app.inject({ method: 'GET', url: '/sw.js' });
    expect(worker.headers['cache-control']).toBe('no-cache');
    const manifest = await server.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.headers['content-type']).toContain('application/manifest+json');
  });

  it('keeps unknown API paths and non-GET requests JSON 404s', async () => {
    const api = await server.app.inject({ method: 'GET', url: '/api/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Not Found' });
    const post = await server.app.inject({ method: 'POST', url: '/users/ann' });
    expect(post.statusCode).toBe(404);
  });
});
