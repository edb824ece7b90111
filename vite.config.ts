/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { ProcessFilesFirst } from './tests/helpers/sequencer.ts';

export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
  build: {
    // WEB_DIST_DIR lets parallel checkouts/tests build side by side; default dist/web.
    outDir: resolve(process.env.WEB_DIST_DIR ?? 'dist/web'),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    // Two entries (docs/decisions/074): index.html boots the router app; islands.ts is all that the
    // prerendered public pages load. The manifest tells the prerender which files islands.ts needs.
    ...(isSsrBuild
      ? {}
      : {
          manifest: true,
          rollupOptions: { input: { index: resolve('src/web/index.html'), islands: resolve('src/web/islands.ts') } },
        }),
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      // The socket server accepts only PUBLIC_URL's origin (+ CORS_ORIGINS); the dev page is its proxy.
      '/socket.io': { target: 'http://localhost:3000', ws: true, headers: { origin: 'http://localhost:3000' } },
    },
  },
  test: {
    root: '.',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'tests/api/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one core fewer than the machine has (a single worker on a 2-core one);
    // the main process idles while files run, so every core runs a file (decision 205).
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || availableParallelism(),
    // A worker keeps its loaded modules from one file to the next: importing the app (Fastify,
    // drizzle, PGlite's WASM) was most of a file's cost. Safe because features keep no module-level
    // state (src/server/architecture.test.ts); each file still builds its own app and database
    // (docs/decisions/290-test-workers-keep-their-modules.md).
    isolate: false,
    // Migrates once per run; each file starts from a copy (docs/decisions/205-tests-start-from-a-migrated-copy.md).
    globalSetup: ['tests/helpers/global-setup.ts'],
    // The files that start other processes run first, timings cached or not (tests/helpers/sequencer.ts).
    sequence: { sequencer: ProcessFilesFirst },
  },
}));
