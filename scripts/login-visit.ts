/**
 * A cold visit to /login as Chromium counts it: every response the page receives until the network is idle (no
 * cache, no service worker), each as its encoded length with its headers. `npm run build` prints it and fails
 * above LOGIN_BUDGET_KB (scripts/bundle-budget.ts); tests/e2e/wire.test.ts measures the visit in Chromium and
 * checks that both fetch the same and count the same.
 *
 * What the visit fetches comes from the build (the page's script, style sheet and icon, the entry's static
 * imports, the fonts of its text) and from what the app does on /login, listed in LOGIN_FETCHES; each response is
 * then asked of a running Beacon and counted as it arrives, status line and headers included.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';

export const LOGIN_BUDGET_KB = 200;

export type Kind = 'page' | 'script' | 'style' | 'font' | 'image' | 'api';

export interface VisitRequest {
  kind: Kind;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/** What the app fetches on /login besides the page's own assets and the entry's imports (see the modules named). */
export const LOGIN_FETCHES = {
  /**
   * Chunks imported at start-up: registering the service worker (pwa/update-prompt.tsx) brings workbox-window,
   * and main.tsx preloads the screen of the path (none while the login screen is in the entry).
   */
  startupChunks: [/[\\/]workbox-window[\\/]/, /auth\/login-screen\.tsx$/],
  /** The login card's logo (auth/auth-card.tsx): fetched again beside the favicon, which Chromium asks for alone. */
  images: ['/icons/icon-192.png'],
  /**
   * The session's start (session/auth-context.tsx: a token from the session cookie, 401 on a cold visit, and the
   * workspace) and the single sign-on option of the login screen.
   */
  api: (workspace: string): VisitRequest[] => [
    { kind: 'api', method: 'POST', path: '/api/token', body: { grant_type: 'session', workspace } },
    { kind: 'api', method: 'GET', path: '/api/workspace' },
    { kind: 'api', method: 'GET', path: '/api/sso/login-option' },
  ],
  /**
   * The login screen's text is upright Inter: its faces are fetched, the italic ones and PrimeIcons' are not (no
   * icon shows on /login while single sign-on is off; with it on, the sign-in button's icon adds that font).
   */
  textFaces: (family: string, style: string) => /\bInter\b/.test(family) && !/italic/.test(style),
};

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** Every request of a cold visit to /login of `workspace`, from the build in `dist`. */
export function loginRequests(dist: string, workspace: string): VisitRequest[] {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const icons: string[] = [];
  for (const [, src] of html.matchAll(/<script\b[^>]*\ssrc="([^"]+)"/g)) scripts.add(src!);
  for (const [, attributes] of html.matchAll(/<link\b([^>]*)>/g)) {
    const rel = attributes!.match(/\srel="([^"]+)"/)?.[1];
    const href = attributes!.match(/\shref="([^"]+)"/)?.[1];
    if (!href) continue;
    if (rel === 'stylesheet') styles.add(href);
    else if (rel === 'modulepreload') scripts.add(href);
    // The manifest and the apple-touch-icon are not fetched by a visit; the favicon is.
    else if (rel === 'icon') icons.push(href);
  }

  // The entry's static imports and the start-up chunks with theirs, with their style sheets.
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key]!;
    scripts.add(`/${chunk.file}`);
    for (const css of chunk.css ?? []) styles.add(`/${css}`);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) {
    if (chunk.isEntry || LOGIN_FETCHES.startupChunks.some((pattern) => pattern.test(key))) visit(key);
  }

  const fonts = new Set<string>();
  for (const style of styles) {
    const css = readFileSync(join(dist, style), 'utf8');
    for (const [, face] of css.matchAll(/@font-face\s*\{([^}]*)\}/g)) {
      const family = face!.match(/font-family:\s*([^;]+)/)?.[1] ?? '';
      const fontStyle = face!.match(/font-style:\s*([^;]+)/)?.[1] ?? 'normal';
      if (!LOGIN_FETCHES.textFaces(family, fontStyle)) continue;
      for (const [, url] of face!.matchAll(/url\(["']?([^)"'?#]+\.woff2)/g))
        fonts.add(new URL(url!, `http://beacon${style}`).pathname);
    }
  }

  const get = (kind: Kind) => (path: string) => ({ kind, method: 'GET' as const, path });
  return [
    get('page')('/login'),
    ...[...scripts].map(get('script')),
    ...[...styles].map(get('style')),
    ...[...fonts].map(get('font')),
    ...[...icons, ...LOGIN_FETCHES.images].map(get('image')),
    ...LOGIN_FETCHES.api(workspace),
  ];
}

export interface Received extends VisitRequest {
  status: number;
  /** The status line and the headers. */
  headerBytes: number;
  /** The body as sent (compressed when it was). */
  bodyBytes: number;
}

/**
 * Asks a Beacon listening on 127.0.0.1:`port` for `visit` as a browser on `host` (e.g. `demo.localhost:8080`)
 * does: a fresh connection kept alive, accepting brotli, no cookie. Counts the bytes read off the connection.
 */
export function receive(port: number, host: string, visit: VisitRequest): Promise<Received> {
  const payload = visit.body === undefined ? undefined : JSON.stringify(visit.body);
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: '127.0.0.1',
        port,
        method: visit.method,
        path: visit.path,
        agent: false,
        headers: {
          host,
          connection: 'keep-alive',
          'accept-encoding': 'gzip, deflate, br, zstd',
          accept: visit.kind === 'api' ? 'application/json' : '*/*',
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (response) => {
        const socket = response.socket;
        let bodyBytes = 0;
        response.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
        response.on('end', () => {
          // Only this answer came over this connection.
          const total = socket.bytesRead;
          socket.destroy();
          resolve({ ...visit, status: response.statusCode ?? 0, headerBytes: total - bodyBytes, bodyBytes });
        });
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(payload);
  });
}

/** Every response of the visit, one after the other. */
export async function receiveAll(port: number, host: string, visit: VisitRequest[]): Promise<Received[]> {
  const received: Received[] = [];
  for (const one of visit) received.push(await receive(port, host, one));
  return received;
}

export function totalBytes(received: readonly Received[]): number {
  return received.reduce((sum, one) => sum + one.headerBytes + one.bodyBytes, 0);
}
