import { expect, test, type Page } from '@playwright/test';
import { configure, runToEnd, watchProblems } from './helpers';

// The built page carries a Content-Security-Policy (csp.config.ts), and nothing
// the page does breaks it: both executors, every tfjs backend Chromium offers here, the Claims
// view, and exporting charts as PNG and SVG. Violations are caught three ways: the page's
// `securitypolicyviolation` events, console errors (page and workers: a worker reports its
// violations in its own console), and the uncaught errors a refusal causes.

declare global {
  interface Window {
    __cspViolations: string[];
  }
}

async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
}
const violations = (page: Page) => page.evaluate(() => window.__cspViolations);

test('the built page sends its policy, and it is enforced (inline script and eval are refused)', async ({ page }) => {
  await recordViolations(page);
  const response = await page.goto('/#v=1&iterations=5');
  expect(response!.headers()['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
  await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute('content', /default-src 'self'/);
  // (code run by page.evaluate itself is exempt, as devtools are: string timers and an inline
  // <script> are the page's own eval and inline script)
  await page.evaluate(() => {
    (setTimeout as (code: string, ms: number) => number)('window.__evalRan = true', 0);
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true';
    document.head.append(s);
  });
  await expect.poll(async () => (await violations(page)).length).toBeGreaterThanOrEqual(2); // both refusals heard
  const ran = await page.evaluate(() => [(window as unknown as Record<string, unknown>).__evalRan, (window as unknown as Record<string, unknown>).__inlineRan]);
  expect(ran).toEqual([undefined, undefined]);
  expect((await violations(page)).join('\n')).toMatch(/script-src/);
});

test('no policy violation while running every executor and backend, opening the Claims view and exporting charts', async ({ page }) => {
  test.setTimeout(240_000);
  await recordViolations(page);
  const problems = watchProblems(page);
  const workerScripts: Record<string, string | undefined> = {};
  page.on('response', (r) => {
    if (/\/assets\/.*worker.*\.js$/i.test(r.url())) workerScripts[r.url()] = r.headers()['content-security-policy'];
  });
  // two iterations: the first runs every kernel and worker a run loads (what the policy could refuse)
  await page.goto('/#v=1&iterations=2&seeds=2&mode=exact');

  await runToEnd(page, 2); // the CPU executor
  await expect(page.getByTestId('backend-badge')).toHaveAttribute('data-executor', 'cpu');
  for (const backend of ['webgpu', 'webgl', 'wasm', 'cpu'] as const) {
    await configure(page, { backend });
    await runToEnd(page, 2);
    await expect(page.getByTestId('backend-badge')).toHaveAttribute('data-backend', backend);
  }
  await page.getByTestId('verdict-select-3').click(); // the highlight: an adopted style sheet, not an inline <style>
  await expect(page.getByTestId('highlight-style')).toHaveCount(1);
  for (const chart of ['return', 'gap', 'metric', 'seeds', 'heatmap'] as const)
    for (const kind of ['png', 'svg'] as const) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`export-${kind}-${chart}`).click()]);
      expect(await download.failure()).toBeNull();
    }
  await page.getByTestId('tab-claims').click();
  await expect(page.getByTestId('claims-view')).toBeVisible();

  expect(await violations(page)).toEqual([]);
  expect(problems.filter((p) => /Content Security Policy|Refused to/i.test(p))).toEqual([]);
  expect(problems).toEqual([]);
  // the workers ran under the same policy (sent with their scripts)
  expect(Object.keys(workerScripts).length).toBeGreaterThan(0);
  for (const [url, csp] of Object.entries(workerScripts)) expect(csp, url).toContain("default-src 'self'");
});
