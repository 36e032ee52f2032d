import type { Plugin } from 'vite';

// The built page's Content-Security-Policy (issue 16). Scripts, workers and wasm come only from
// the page's own origin, with no inline script and no eval ('wasm-unsafe-eval' lets the tfjs
// wasm backend compile its .wasm files; it permits WebAssembly compilation only, not JavaScript
// eval). Exported chart images are drawn from blob:/data: URLs. zod runs jitless (core/config/fields.ts),
// so it never probes `new Function`.
//
// It travels twice: as a <meta http-equiv> in the built index.html (static hosts that cannot set
// headers), and as a response header from `vite preview` — workers are governed by the header of
// their own script, not by the page's meta tag. Deploying elsewhere: send the same header.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

/** Adds the policy to the built index.html (not in `vite dev`: its hot-reload client injects inline script). */
export function contentSecurityPolicy(): Plugin {
  return {
    name: 'seeupo-content-security-policy',
    apply: 'build',
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' },
    ],
  };
}
