import { expect, type Page } from '@playwright/test';

// In-page measurements for the browser benchmark. Times are taken inside the page
// (performance.now()), from the click on Run (a capture listener) to the DOM change that shows
// the result, so Playwright's polling adds nothing to them.

declare global {
  interface Window {
    __bench: { t0: number; first: number; firstLine: number; done: number; tasks: [number, number][] };
  }
}

/** Watch the next run: when Run is clicked, when the return chart first draws J[0] and a segment, when it ends; long tasks. */
async function arm(page: Page): Promise<void> {
  await page.evaluate(() => {
    const b: Window['__bench'] = (window.__bench = { t0: NaN, first: NaN, firstLine: NaN, done: NaN, tasks: [] });
    document.querySelector('[data-testid="run"]')!.addEventListener('click', () => (b.t0 = performance.now()), { capture: true, once: true });
    new PerformanceObserver((l) => l.getEntries().forEach((e) => b.tasks.push([e.startTime, e.duration]))).observe({ type: 'longtask' });
    const check = () => {
      if (Number.isNaN(b.t0)) return;
      const now = performance.now();
      const chart = document.querySelector('[data-testid="chart-return"]');
      const attr = chart?.getAttribute('data-upto');
      // without data-upto (older builds): the first line with a path drawn
      const upTo = attr != null ? Number(attr) : [...(chart?.querySelectorAll('path.plot-line-curve') ?? [])].some((p) => p.getAttribute('d')) ? 1 : -1;
      if (upTo >= 0 && Number.isNaN(b.first)) b.first = now;
      if (upTo >= 1 && Number.isNaN(b.firstLine)) b.firstLine = now;
      const status = document.querySelector('[data-testid="progress"]')?.getAttribute('data-status');
      if ((status === 'done' || status === 'error') && Number.isNaN(b.done)) b.done = now;
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}

async function finish(page: Page, iterations: number, timeout: number): Promise<void> {
  const progress = page.getByTestId('progress');
  await expect(progress).toHaveAttribute('data-status', /^(done|error)$/, { timeout });
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await expect(progress).toHaveAttribute('aria-valuenow', String(iterations));
}

export interface Responsiveness {
  /** ms from the click on Run to the return chart drawing J[0] of every run, and its first segment. */
  first: number;
  firstLine: number;
  /** ms from the click to the last iteration. */
  done: number;
  /** Main-thread tasks over 50 ms from the click until 300 ms after the end: [start ms after the click, duration ms]. */
  tasks: [number, number][];
}

/** Press Run on the page as it is (the default experiment on a fresh page) and watch it to the end. */
export async function watchRun(page: Page, iterations: number, timeout = 120_000): Promise<Responsiveness> {
  await arm(page);
  await page.getByTestId('run').click();
  await finish(page, iterations, timeout);
  await page.waitForTimeout(300);
  const b = await page.evaluate(() => window.__bench);
  return {
    first: b.first - b.t0,
    firstLine: b.firstLine - b.t0,
    done: b.done - b.t0,
    tasks: b.tasks.filter(([s, d]) => s + d > b.t0).map(([s, d]) => [Math.round(s - b.t0), Math.round(d)]),
  };
}

export interface Timed {
  ms: number;
  /** The backend the badge reports after the run (null on the CPU executor) and its explanation. */
  backend: string | null;
  label: string;
  why: string;
}

/** One run to the end: ms from the click to the last iteration, and what it ran on. */
export async function timedRun(page: Page, iterations: number, timeout = 600_000): Promise<Timed> {
  const { done } = await watchRun(page, iterations, timeout);
  const badge = page.getByTestId('backend-badge');
  return {
    ms: done,
    backend: await badge.getAttribute('data-backend'),
    label: (await page.getByTestId('backend-label').textContent()) ?? '',
    why: (await page.getByTestId('backend-why').textContent()) ?? '',
  };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

/** A table as aligned text: the columns in `left` left-aligned (default the first), the others right-aligned. */
export function table(head: string[], rows: (string | number)[][], left: number[] = [0]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, c) => Math.max(...cells.map((r) => (r[c] ?? '').length)));
  return cells.map((r) => r.map((v, c) => (left.includes(c) ? v.padEnd(widths[c]) : v.padStart(widths[c]))).join('  ').trimEnd()).join('\n');
}
