import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Answer } from '../cache/answer-cache.js';
import type { ServerContext } from '../context.js';
import { workspaceLabelOf } from '../config.js';
import { workspaceOfHost } from '../http.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };

/** index.html with the settings the app needs to tell workspace hosts from the root host. */
export function renderIndexHtml(template: string, ctx: Pick<ServerContext, 'config'>): string {
  const config = JSON.stringify({ baseDomain: ctx.config.baseDomain, signupHost: ctx.config.signupHost ?? null });
  const meta = `<meta name="beacon-config" content="${config.replace(/[&"<>]/g, (c) => HTML_ESCAPES[c]!)}" />`;
  return template.replace('<!--beacon-config-->', meta);
}

/** Crawlers may index the public status pages, never the workspace's app (its pages need a session anyway). */
export const ROBOTS_TXT = 'User-agent: *\nAllow: /status/\nDisallow: /\n';
/** A custom domain serves only its status page: all of it may be indexed. */
export const CUSTOM_DOMAIN_ROBOTS_TXT = 'User-agent: *\nAllow: /\n';

export function sendRobots(reply: FastifyReply, text: string): FastifyReply {
  return reply.header('cache-control', 'public, max-age=3600').type('text/plain; charset=utf-8').send(text);
}

/** Whether an Accept-Encoding header accepts `coding` (named, and not refused with q=0). */
export function acceptsEncoding(header: string | undefined, coding: string): boolean {
  return (header ?? '').split(',').some((part) => {
    const [name, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    return name === coding && !params.some((param) => /^q=0(\.0*)?$/.test(param));
  });
}

/** The coding a kept answer goes in for a request's Accept-Encoding: brotli, then gzip, else none. */
export function codingOf(answer: Answer, accepted: string | undefined): 'br' | 'gzip' | null {
  if (!answer.compressible) return null;
  return acceptsEncoding(accepted, 'br') ? 'br' : acceptsEncoding(accepted, 'gzip') ? 'gzip' : null;
}

/**
 * A kept answer as it is (made once; nothing to serialise), compressed when the client accepts it: its compressed
 * twin is made once too, off the event loop.
 */
export async function sendAnswer(
  reply: FastifyReply,
  answer: Answer,
  type: string,
  vary = 'accept-encoding',
): Promise<FastifyReply> {
  void reply.header('vary', vary).type(type);
  const coding = codingOf(answer, reply.request.headers['accept-encoding']);
  if (coding === null) return reply.send(answer.body);
  return reply.header('content-encoding', coding).send(await answer.encoded(coding));
}

/**
 * Serves the built app (dist/app) on the API's origin: files as they are (hashed assets cached for good,
 * the service worker and the page never), and index.html for every other page path so the router takes over.
 * Assets go as the `.br` or `.gz` twin the build wrote when the browser accepts it; the page is compressed once
 * here. Without a build, pages answer with a hint to run it.
 */
export async function registerWebApp(
  app: FastifyInstance,
  ctx: ServerContext,
  webDir: string,
): Promise<(reply: FastifyReply) => FastifyReply> {
  app.get('/robots.txt', { schema: { hide: true } }, (_request, reply) => sendRobots(reply, ROBOTS_TXT));
  const indexFile = join(webDir, 'index.html');
  if (!existsSync(indexFile)) {
    return (reply) =>
      reply
        .code(503)
        .type('text/plain')
        .send('The web app is not built yet: run `npm run build`, then restart Beacon.');
  }
  const html = renderIndexHtml(readFileSync(indexFile, 'utf8'), ctx);
  await app.register(fastifyStatic, {
    root: webDir,
    prefix: '/',
    index: false,
    wildcard: true,
    preCompressed: true,
    setHeaders(res, path) {
      if (/[\\/]assets[\\/]/.test(path)) res.header('cache-control', 'public, max-age=31536000, immutable');
      else res.header('cache-control', 'no-cache');
      if (path.endsWith('.webmanifest')) res.header('content-type', 'application/manifest+json');
    },
  });
  const compressed = (text: string) => ({ text, br: brotliCompressSync(text), gzip: gzipSync(text) });
  const page = compressed(html);
  const send = (reply: FastifyReply, variant: typeof page) => {
    const accepted = reply.request.headers['accept-encoding'];
    const coding = acceptsEncoding(accepted, 'br') ? 'br' : acceptsEncoding(accepted, 'gzip') ? 'gzip' : null;
    reply.code(200).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (coding) reply.header('content-encoding', coding);
    return reply.type('text/html; charset=utf-8').send(coding ? variant[coding] : variant.text);
  };
  const sendPage = (reply: FastifyReply) => send(reply, page);
  // A workspace's /login with its card already in the page (scripts/prerender-login.tsx), when the build made it.
  const loginFile = join(webDir, 'login.html');
  if (existsSync(loginFile)) {
    const login = compressed(renderIndexHtml(readFileSync(loginFile, 'utf8'), ctx));
    app.get('/login', { schema: { hide: true } }, (request, reply) =>
      workspaceLabelOf(request.headers.host, ctx.config.baseDomain) ? send(reply, login) : sendPage(reply),
    );
  }
  // The installed app carries its workspace's name ("Acme · Beacon"), so two installed workspaces can be told apart.
  const manifestFile = join(webDir, 'manifest.webmanifest');
  if (existsSync(manifestFile)) {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
    app.get('/manifest.webmanifest', { schema: { hide: true } }, async (request, reply) => {
      const workspace = await workspaceOfHost(ctx, request);
      const named = workspace
        ? { ...manifest, name: `${workspace.name} · Beacon`, short_name: workspace.name }
        : manifest;
      return reply.header('cache-control', 'no-cache').type('application/manifest+json').send(JSON.stringify(named));
    });
  }
  // The static handler would answer the bare root as a directory listing request (403).
  app.get('/', { schema: { hide: true } }, (_request, reply) => sendPage(reply));
  // The service worker precaches the page by this name; it must get the same settings.
  app.get('/index.html', { schema: { hide: true } }, (_request, reply) => sendPage(reply));
  return sendPage;
}
