import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { appOperations } from './scripts/app-operations.js';
import { precompress, trimVendorCss } from './scripts/build-assets.js';

/**
 * The web app: built from src/app into dist/app, served by the Beacon server on the same origin as the API.
 * The service worker (src/sw/sw.ts) is built by vite-plugin-pwa with the precache manifest injected; it is
 * registered with a prompt, never reloading a page on its own. The vendor CSS and its fonts are trimmed to what
 * the app uses and every asset gets brotli and gzip twins (scripts/build-assets.ts); `npm run build` then checks
 * the bytes a cold visit to /login receives (scripts/bundle-budget.ts).
 */
/** Lazy chunks not precached, by the name rollup gives them (their module's file name). */
const LAZY_CHUNKS = ['swagger-view', 'codemirror-editor'];

export default defineConfig({
  root: 'src/app',
  css: { postcss: { plugins: [trimVendorCss()] } },
  publicDir: '../../public',
  build: {
    outDir: '../../dist/app',
    emptyOutDir: true,
    sourcemap: false,
    // The manifest lets scripts/login-visit.ts find what /login loads.
    manifest: true,
    chunkSizeWarningLimit: 900,
  },
  // The Comlink worker loads its graph layout as a chunk of its own on first use (code splitting needs ES workers).
  worker: { format: 'es' },
  plugins: [
    react(),
    // The operations without their zod schemas: the app calls the API by id, method and path only.
    appOperations(),
    precompress(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: '../sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        // woff2 is the only font format current browsers need; the older ones would double the precache.
        globPatterns: ['**/*.{js,css,html,png,woff2,webmanifest}'],
        // The heavy lazy chunks (the API view with its CSS, the code editor) are left to the service worker's
        // runtime cache: downloaded by those who open them, kept once seen (src/sw/sw.ts).
        globIgnores: LAZY_CHUNKS.map((name) => `assets/${name}-*`),
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
  ],
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
