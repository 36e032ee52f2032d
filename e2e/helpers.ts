import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { decodeLink } from '../src/core/config/link-codec';
import { resolveConfig } from '../src/core/config/resolve';

/** Collects console errors (page and workers) and uncaught page errors. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('worker', (w) =>
    w.on('console', (m) => {
      if (m.type() === 'error') problems.push(`worker console (${w.url()}): ${m.text()}`);
    }),
  );
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return problems;
}

export interface Settings {
  policy?: 'tabular' | 'mlp';
  mode?: 'sampled' | 'exact';
  iterations?: number;
  seeds?: number;
  executor?: 'auto' | 'cpu' | 'tensor';
  backend?: 'auto' | 'webgpu' | 'webgl' | 'wasm' | 'cpu';
}

/**
 * Open the settings drawer, where the experiment's controls are. A lesson or a link opened with the
 * page starts with it closed; a plain visit on a wide window starts with it open (nothing to do).
 */
export async function openSettings(page: Page): Promise<void> {
  const toggle = page.getByTestId('settings-toggle');
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('#settings-drawer')).toBeVisible();
}

/** Set the controls (each change is validated by the page) and check none was refused. */
export async function configure(page: Page, s: Settings): Promise<void> {
  // executor and backend sit in the backend badge; the rest in the settings drawer
  if (s.policy !== undefined || s.mode !== undefined || s.iterations !== undefined || s.seeds !== undefined) await openSettings(page);
  if (s.policy !== undefined) await page.getByTestId('field-policy.kind').selectOption(s.policy);
  if (s.mode !== undefined) await page.getByTestId('field-mode').selectOption(s.mode);
  if (s.executor !== undefined || s.backend !== undefined) {
    const menu = page.locator('.force-menu');
    if (!(await menu.evaluate((d) => (d as HTMLDetailsElement).open))) await menu.locator('summary').click();
  }
  if (s.executor !== undefined) await page.getByTestId('field-executor').selectOption(s.executor);
  if (s.backend !== undefined) await page.getByTestId('field-backend').selectOption(s.backend);
  for (const field of ['iterations', 'seeds'] as const)
    if (s[field] !== undefined) await page.getByTestId(`field-${field}`).fill(String(s[field]));
  await expect(page.locator('.field-error')).toHaveCount(0);
  await expect(page.getByTestId('run')).toBeEnabled();
}

/**
 * The most a run (or an executor's start) may take to reach the state a test waits for, on a 2-core
 * machine loaded by a second test suite: a cap, the wait itself ends as soon as the state is there.
 */
export const RUN_TIMEOUT = 180_000;

/** Press Run and wait for every iteration; returns the wall time in seconds. */
export async function runToEnd(page: Page, iterations: number, timeout = RUN_TIMEOUT): Promise<number> {
  const t0 = Date.now();
  await page.getByTestId('run').click();
  const progress = page.getByTestId('progress');
  await expect(progress).toHaveAttribute('data-status', /^(done|error)$/, { timeout });
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await expect(progress).toHaveAttribute('data-status', 'done');
  await expect(progress).toHaveAttribute('aria-valuenow', String(iterations));
  await drawn(page);
  return (Date.now() - t0) / 1000;
}

/**
 * Wait until every part of the page shows the latest results: the charts, verdicts, summary table
 * and caption follow them in paced slots, a few tasks after the progress bar (charts/common.tsx).
 */
export async function drawn(page: Page): Promise<void> {
  await expect(page.getByTestId('progress')).toHaveAttribute('data-drawn', 'true');
}

/** Mean final J of each algorithm, at full precision, from the summary table (once it shows the latest results). */
export async function finalJ(page: Page): Promise<Record<string, number>> {
  await drawn(page);
  const rows = page.getByTestId('summary-table').locator('tbody tr[data-algorithm]');
  const out: Record<string, number> = {};
  for (const row of await rows.all()) {
    const id = (await row.getAttribute('data-algorithm'))!;
    out[id] = Number((await row.locator('[data-metric="finalJ"]').getAttribute('data-value')) ?? NaN);
  }
  return out;
}

/** Wait until the page has rendered `n` more animation frames (a wait on the page's own progress, not on the clock). */
export async function frames(page: Page, n: number): Promise<void> {
  await page.evaluate(
    (count) =>
      new Promise<void>((resolve) => {
        let left = count;
        const tick = () => (--left <= 0 ? resolve() : requestAnimationFrame(tick));
        requestAnimationFrame(tick);
      }),
    n,
  );
}

/**
 * The progress once it holds still: read, let the page render 30 frames, read again, until two
 * reads agree (after a pause, an iteration already in flight may still land once).
 */
export async function settledProgress(page: Page): Promise<number> {
  const bar = page.getByTestId('progress');
  let last = await bar.getAttribute('aria-valuenow');
  for (;;) {
    await frames(page, 30);
    const now = await bar.getAttribute('aria-valuenow');
    if (now === last) return Number(now);
    last = now;
  }
}

/** The result JSON the page exports now (Export JSON, read from the download). */
export async function exportedResult<R>(page: Page): Promise<R> {
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  return JSON.parse(readFileSync((await d.path())!, 'utf8')) as R;
}

/**
 * Open `link` on the WebGPU executor, press Run, and while the page runs compute `reference` (the
 * other executor's result, in this process, for the config the link holds: the browser and this
 * process then use a core each); then wait for the run's end and return both, the page's as its
 * exported result JSON. The reference is checked to be of the page's own experiment.
 */
export async function webgpuPageResult<R extends { config: Record<string, unknown> }, W>(
  page: Page,
  link: string,
  iterations: number,
  timeout: number,
  reference: (config: Record<string, unknown>) => Promise<W>,
): Promise<{ got: R; want: W }> {
  const fragment = `#v=1&${link}&executor=webgpu`;
  const decoded = decodeLink(fragment);
  if (!decoded.ok) throw new Error(`the test's link does not decode: ${decoded.message}`);
  await page.goto(`/${fragment}`);
  await expect(page.getByTestId('backend-badge')).toHaveAttribute('data-executor', 'webgpu');
  await expect(page.getByTestId('run')).toBeEnabled();
  await page.getByTestId('run').click();
  const want = await reference(decoded.state.config);
  const progress = page.getByTestId('progress');
  await expect(progress).toHaveAttribute('data-status', /^(done|error)$/, { timeout });
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await expect(progress).toHaveAttribute('data-status', 'done');
  await expect(progress).toHaveAttribute('aria-valuenow', String(iterations));
  await expect(page.getByTestId('backend-badge')).toHaveAttribute('data-backend', 'webgpu');
  const got = await exportedResult<R>(page);
  // the reference ran the experiment the page ran
  expect(resolveConfig(got.config)).toEqual(resolveConfig(decoded.state.config));
  return { got, want };
}

/** Mean and standard error of the final J over an algorithm's runs. */
export function finalStats(runs: { J: (number | null)[] }[]): { mean: number; se: number } {
  const f = runs.map((r) => r.J[r.J.length - 1]!);
  const mean = f.reduce((a, b) => a + b, 0) / f.length;
  const sd = Math.sqrt(f.reduce((a, b) => a + (b - mean) ** 2, 0) / (f.length - 1));
  return { mean, se: sd / Math.sqrt(f.length) };
}

/** Results whose algorithms' runs hold per-iteration series (the result JSON of any executor). */
export type SeriesResult = { algorithms: { id: string; runs: unknown[] }[] };

/**
 * Largest |a − b| of one metric's series over every algorithm, run and iteration (relative: divided by
 * max(1, |b|)). Same algorithms, runs and lengths on both sides; b's nulls (metrics before iteration 1)
 * are skipped, a must have a number wherever b has one.
 */
export function maxSeriesDiff(a: SeriesResult, b: SeriesResult, metric: string, relative = false): number {
  let worst = 0;
  a.algorithms.forEach((alg, i) => {
    expect(alg.id).toBe(b.algorithms[i]!.id);
    alg.runs.forEach((run, r) => {
      const got = (run as Record<string, (number | null)[]>)[metric]!;
      const want = (b.algorithms[i]!.runs[r] as Record<string, (number | null)[]>)[metric]!;
      expect(got).toHaveLength(want.length);
      got.forEach((x, k) => {
        if (want[k] === null) return;
        expect(x, `${alg.id} seed ${r} iteration ${k}`).not.toBeNull();
        worst = Math.max(worst, Math.abs(x! - want[k]!) / (relative ? Math.max(1, Math.abs(want[k]!)) : 1));
      });
    });
  });
  return worst;
}
