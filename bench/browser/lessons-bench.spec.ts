// npm run bench:browser — every lesson's verdict: on a fresh page opened on the lesson, ms from the
// click on Run to the lesson's verdict shown final (lesson-outcome, which appears once the run has
// ended and its verdicts are computed), and the longest main-thread task meanwhile; then the
// opening page: ms from navigation to its verdict when Run is pressed as soon as it can be.
// BENCH_LESSONS: a comma-separated list of lesson ids to time (default: every lesson).
import { loadavg } from 'node:os';
import { expect, test, type Page } from '@playwright/test';
import { LESSONS } from '../../src/core/lessons/lessons';
import { table } from './measure';

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

declare global {
  interface Window {
    __verdict: { t0: number; shown: number; tasks: [number, number][] };
  }
}

/** Arm the page: Run's click time (a capture listener), when lesson-outcome appears, long tasks. */
async function arm(page: Page): Promise<void> {
  await page.evaluate(() => {
    const b: Window['__verdict'] = (window.__verdict = { t0: NaN, shown: NaN, tasks: [] });
    document.querySelector('[data-testid="run"]')!.addEventListener('click', () => (b.t0 = performance.now()), { capture: true, once: true });
    new PerformanceObserver((l) => l.getEntries().forEach((e) => b.tasks.push([e.startTime, e.duration]))).observe({ type: 'longtask' });
    const observer = new MutationObserver(() => {
      if (document.querySelector('[data-testid="lesson-outcome"]')) {
        b.shown = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document.body, { subtree: true, childList: true });
  });
}

async function timeLesson(page: Page, id: string): Promise<{ ms: number; longest: number; tasks: number }> {
  await page.goto(`/#v=1&lesson=${id}`);
  await page.getByTestId('chart-heatmap').waitFor();
  await expect(page.getByTestId('run')).toBeEnabled();
  await arm(page);
  await page.getByTestId('run').click();
  await expect(page.getByTestId('lesson-outcome')).toBeVisible({ timeout: 300_000 });
  const b = await page.evaluate(() => window.__verdict);
  const tasks = b.tasks.filter(([s, d]) => s + d > b.t0 && s < b.shown);
  return { ms: b.shown - b.t0, longest: Math.max(0, ...tasks.map(([, d]) => d)), tasks: tasks.length };
}

test('lessons: ms from Run to the lesson verdict', async ({ page }) => {
  test.setTimeout(1_500_000);
  const loadBefore = load();
  await page.setViewportSize({ width: 1366, height: 768 });
  const only = process.env.BENCH_LESSONS?.split(',');
  const rows: (string | number)[][] = [];
  let slowest = { id: '', ms: 0 };
  for (const lesson of LESSONS.filter((l) => !only || only.includes(l.id))) {
    const r = await timeLesson(page, lesson.id);
    const e = lesson.config as { seeds?: number; iterations?: number; policy?: { kind?: string }; mode?: string };
    console.log(`${lesson.id}: ${r.ms.toFixed(0)} ms, longest task ${r.longest.toFixed(0)} ms`);
    rows.push([lesson.id, `${e.mode ?? ''} ${e.policy?.kind ?? 'tabular'}, ${e.seeds ?? ''} seeds, ${e.iterations ?? ''} it.`, r.ms.toFixed(0), r.tasks, r.longest.toFixed(0)]);
    if (r.ms > slowest.ms) slowest = { id: lesson.id, ms: r.ms };
  }
  // the opening page: from navigation to its verdict, Run pressed once it is enabled
  await page.goto('/');
  await expect(page.getByTestId('run')).toBeEnabled();
  await arm(page);
  await page.getByTestId('run').click();
  await expect(page.getByTestId('lesson-outcome')).toBeVisible({ timeout: 300_000 });
  const opening = await page.evaluate(() => ({ ready: window.__verdict.t0, shown: window.__verdict.shown }));
  console.log(`\nLessons: ms from Run to the lesson's verdict (headless Chromium; load average before ${loadBefore}, after ${load()})`);
  console.log(table(['lesson', 'experiment', 'ms to verdict', 'long tasks', 'longest task ms'], rows, [0, 1]));
  console.log(`slowest: ${slowest.id}, ${slowest.ms.toFixed(0)} ms`);
  console.log(`opening page: Run enabled ${opening.ready.toFixed(0)} ms after navigation, verdict at ${opening.shown.toFixed(0)} ms`);
});
