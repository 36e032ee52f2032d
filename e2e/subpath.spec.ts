import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { configure, runToEnd, watchProblems } from './helpers';
import { CONTENT_SECURITY_POLICY } from '../csp.config.ts';

// The built app works from a subpath (vite `base: './'`): served as a static site under
// /some/deep/path/ by a plain file server (with the policy header a deployment would send),
// the page loads, its workers and the tfjs wasm binaries load, and both executors run.

const ROOT = join(process.cwd(), 'dist-web');
const PREFIX = '/some/deep/path/';
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.json': 'application/json' };

let server: Server;
let base = '';

test.beforeAll(async () => {
  server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (!path.startsWith(PREFIX)) {
      res.writeHead(404).end('outside the subpath');
      return;
    }
    const rel = normalize(path.slice(PREFIX.length) || 'index.html');
    if (rel.startsWith('..')) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(join(ROOT, rel));
      res.writeHead(200, { 'content-type': TYPES[extname(rel)] ?? 'application/octet-stream', 'content-security-policy': CONTENT_SECURITY_POLICY }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PREFIX}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

test('served from a subpath, the page, its workers and the wasm backend load and run', async ({ page }) => {
  const problems = watchProblems(page);
  const missing: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(`${base}#v=1&mode=exact&seeds=2&iterations=5`);
  await runToEnd(page, 5);
  await expect(page.getByTestId('backend-badge')).toHaveAttribute('data-executor', 'cpu');
  await configure(page, { backend: 'wasm' });
  await runToEnd(page, 5, 120_000);
  await expect(page.getByTestId('backend-badge')).toHaveAttribute('data-backend', 'wasm');
  expect(missing).toEqual([]);
  expect(problems).toEqual([]);
});
