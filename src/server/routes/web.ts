import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServerContext } from '../context.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };

/** index.html with the settings the app needs to tell workspace hosts from the root host. */
export function renderIndexHtml(template: string, ctx: Pick<ServerContext, 'config'>): string {
  const config = JSON.stringify({ baseDomain: ctx.config.baseDomain, signupHost: ctx.config.signupHost ?? null });
  const meta = `<meta name="beacon-config" content="${config.replace(/[&"<>]/g, (c) => HTML_ESCAPES[c]!)}" />`;
  return template.replace('<!--beacon-config-->', meta);
}

/**
 * Serves the built app (dist/app) on the API's origin: files as they are (hashed assets cached for good,
 * the service worker and the page never), and index.html for every other page path so the router takes over.
 * Without a build, pages answer with a hint to run it.
 */
export async function registerWebApp(
  app: FastifyInstance,
  ctx: ServerContext,
  webDir: string,
): Promise<(reply: FastifyReply) => FastifyReply> {
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
    setHeaders(res, path) {
      if (/[\\/]assets[\\/]/.test(path)) res.header('cache-control', 'public, max-age=31536000, immutable');
      else res.header('cache-control', 'no-cache');
      if (path.endsWith('.webmanifest')) res.header('content-type', 'application/manifest+json');
    },
  });
  const sendPage = (reply: FastifyReply) =>
    reply.code(200).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  // The static handler would answer the bare root as a directory listing request (403).
  app.get('/', { schema: { hide: true } }, (_request, reply) => sendPage(reply));
  // The service worker precaches the page by this name; it must get the same settings.
  app.get('/index.html', { schema: { hide: true } }, (_request, reply) => sendPage(reply));
  return sendPage;
}
