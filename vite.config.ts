import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * The web app: built from src/app into dist/app, served by the Beacon server on the same origin as the API.
 * The service worker (src/sw/sw.ts) is built by vite-plugin-pwa with the precache manifest injected; it is
 * registered with a prompt, never reloading a page on its own.
 */
export default defineConfig({
  root: 'src/app',
  publicDir: '../../public',
  build: {
    outDir: '../../dist/app',
    emptyOutDir: true,
    sourcemap: false,
    // The manifest lets scripts/bundle-budget.mjs find what a route loads.
    manifest: true,
    chunkSizeWarningLimit: 900,
  },
  plugins: [
    react(),
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
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
  ],
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
