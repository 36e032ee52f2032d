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
const POLICY_DIRECTIVES = [
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

/**
 * The header adds `frame-ancestors 'none'`: no other site may frame the page (clickjacking a
 * Run or an export). Browsers ignore frame-ancestors in a <meta> tag (and warn), so it travels
 * only as a header: a static host that cannot send headers cannot forbid framing.
 */
export const FRAMING_POLICY = "frame-ancestors 'none'";
/** The policy as the <meta> tag carries it. */
export const META_CONTENT_SECURITY_POLICY = POLICY_DIRECTIVES;
/** The policy as a response header (vite preview; send the same when deploying). */
export const CONTENT_SECURITY_POLICY = `${POLICY_DIRECTIVES}; ${FRAMING_POLICY}`;

/** Adds the policy to the built index.html (not in `vite dev`: its hot-reload client injects inline script). */
export function contentSecurityPolicy(): Plugin {
  return {
    name: 'seeupo-content-security-policy',
    apply: 'build',
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: META_CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' },
    ],
  };
}
