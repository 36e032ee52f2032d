import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { CONTENT_SECURITY_POLICY, contentSecurityPolicy } from './csp.config.ts';

// The web app. `dist/` holds the Node bundles (scripts/build-node.mjs), so the page builds to `dist-web/`.
export default defineConfig({
  plugins: [react(), contentSecurityPolicy()],
  // Relative asset paths: the built app works from any subpath (https://host/some/path/).
  base: './',
  worker: { format: 'es' },
  // One app chunk of ~450 kB (React, zod, the engine): fine for a single-page tool.
  // tfjs (all four backends, ~1.8 MB) lives only in the tensor worker's chunk, loaded on the first
  // tensor-executor run; its three .wasm binaries are emitted as assets (register-browser.ts).
  build: { outDir: 'dist-web', emptyOutDir: true, chunkSizeWarningLimit: 900 },
  preview: { port: 4173, strictPort: true, headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY } },
});
