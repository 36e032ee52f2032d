// npm run bench:browser — instant feedback on the opening lesson (the 5-turn lock, exact mode, 40
// iterations, 9 algorithms, one seed): after a finished run, ms from a quick switch (turn order) or
// a learning-rate slider move to (a) the first points of the new curves on the return chart and
// (b) the new run drawn to its end. BENCH_INSTANT_RUNS (default 6) presses of each, alternating.
import { loadavg } from 'node:os';
import { test, type Page } from '@playwright/test';
import { runToEnd } from '../../e2e/helpers';
import { median, table } from './measure';

const RUNS = Number(process.env.BENCH_INSTANT_RUNS ?? 6);
const ITERATIONS = 40;

/**
 * In the page: act, then wait for the return chart to draw the new run (its data-run changes) with
 * a segment, and then to iteration ITERATIONS.
 */
function timeRedraw(page: Page, act: { kind: 'click'; selector: string } | { kind: 'slider'; value: number }) {
  return page.evaluate(
    ({ act, iterations }) =>
      new Promise<{ first: number; done: number }>((resolve) => {
        let first = -1;
        const t0 = performance.now();
        const runOf = () => document.querySelector('[data-testid="chart-return"]')?.getAttribute('data-run') ?? null;
        const before = runOf();
        // builds without data-run: the new run is the one drawn after the chart was cleared
        let cleared = false;
        const check = () => {
          const chart = document.querySelector('[data-testid="chart-return"]');
          const upTo = chart ? Number(chart.getAttribute('data-upto')) : -1;
          const status = document.querySelector('[data-testid="progress"]')?.getAttribute('data-status');
          if (!(upTo >= 1)) cleared = true;
          const fresh = before === null ? cleared : runOf() !== before && runOf() !== '0';
          if (fresh && first < 0 && upTo >= 1) first = performance.now() - t0;
          if (first >= 0 && status === 'done' && upTo >= iterations) {
            observer.disconnect();
            resolve({ first, done: performance.now() - t0 });
          }
        };
        // a press whose new run is never seen (an old build that drew it without clearing the chart) counts as missing
        setTimeout(() => {
          observer.disconnect();
          resolve({ first: NaN, done: NaN });
        }, 30_000);
        const observer = new MutationObserver(check);
        observer.observe(document.body, { attributes: true, subtree: true, childList: true });
        if (act.kind === 'click') (document.querySelector(act.selector) as HTMLElement).click();
        else {
          const input = document.querySelector('[data-testid="quick-lr"]') as HTMLInputElement;
          Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, String(act.value));
          input.dispatchEvent(new Event('input', { bubbles: true }));
        }
      }),
    { act, iterations: ITERATIONS },
  );
}

test('instant feedback: a quick switch or the learning-rate slider on the opening lesson', async ({ page }) => {
  test.setTimeout(600_000);
  const loadBefore = loadavg().map((l) => l.toFixed(2)).join(' ');
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/');
  await page.getByTestId('chart-heatmap').waitFor();
  await runToEnd(page, ITERATIONS);
  const rows: { what: string; first: number[]; done: number[] }[] = [
    { what: 'turn order switch (reverse ↔ forward)', first: [], done: [] },
    { what: 'learning-rate slider (100 ↔ 320)', first: [], done: [] },
  ];
  for (let r = 0; r < RUNS; r++) {
    const order = r % 2 === 0 ? 'forward' : 'reverse';
    const a = await timeRedraw(page, { kind: 'click', selector: `[data-testid="quick-order"] [data-value="${order}"]` });
    rows[0].first.push(a.first);
    rows[0].done.push(a.done);
    const b = await timeRedraw(page, { kind: 'slider', value: r % 2 === 0 ? 2 : 2.5 });
    rows[1].first.push(b.first);
    rows[1].done.push(b.done);
    console.log(`press ${r + 1}: switch ${a.first.toFixed(0)} / ${a.done.toFixed(0)} ms, slider ${b.first.toFixed(0)} / ${b.done.toFixed(0)} ms`);
  }
  const fmt = (all: number[]) => {
    const xs = all.filter(Number.isFinite);
    const missing = all.length - xs.length;
    return `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})${missing ? `, ${missing} not seen` : ''}`;
  };
  console.log(`\nInstant feedback, opening lesson (lock T=5, exact, 40 iterations, 9 algorithms, 1 seed), ${RUNS} presses each; load before ${loadBefore}, after ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(table(['change', 'ms to first new points: median (range)', 'ms to the whole new run drawn'], rows.map((x) => [x.what, fmt(x.first), fmt(x.done)])));
});
