/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { SERVER_PAGES } from '../contract/server-pages.js';

declare const self: ServiceWorkerGlobalScope;

// The app shell: every built file but the heavy lazy chunks (vite.config.ts), so the app opens with the network
// cut. API reads are never cached here: Cache Storage is keyed by URL, not by user or workspace; the offline read
// cache is Dexie (docs/decisions.md#offline).
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/** Built files fetched on first use (the API view, the code editor and their CSS), kept from then on. */
const LAZY_ASSETS_CACHE = 'beacon-lazy-assets';

// Those left out of the precache are cached when first loaded: their names carry their content's hash, so a
// cached copy never goes stale and is served without asking the network (a spec seen once opens offline).
// Past 30 files the least recently used go (older builds' copies, in time).
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
  new CacheFirst({
    cacheName: LAZY_ASSETS_CACHE,
    plugins: [new ExpirationPlugin({ maxEntries: 30, purgeOnQuotaError: true })],
  }),
);

// Every page of the app is the same index.html; the server's own pages (status pages, acknowledge links, /api) are
// left to the network, or a member opening one would get the app's 404. No route matches /api/events/stream
// either: the live stream goes to the network and is never cached (docs/decisions.md#feeds).
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [...SERVER_PAGES] }));

// A new version waits until the user accepts the update prompt.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
clientsClaim();
