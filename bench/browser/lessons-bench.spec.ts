// npm run bench:browser — every lesson's verdict: on a fresh page opened on the lesson, ms from the
// click on Run to the lesson's verdict shown final (lesson-outcome, which appears once the run has
// ended and its verdicts are computed), and the longest main-thread task meanwhile; then the
// opening page: ms from navigation to its verdict when Run is pressed as soon as it can be.
// BENCH_LESSONS: a comma-separated list of lesson ids to time (default: every lesson).
import { loadavg } from 'node:os';
import { expect, test, type Page } from '@playwright/test';
import { LESSONS } from '../../src/core/lessons/lessons';
import { table } from './measure';
import { describeTasks, START_MARK, watchMainThread } from '../../e2e/main-thread';

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

/**
 * Wait for the verdict on the page's own record (arm's observer), polled by a one-line evaluate.
 * Not `expect(locator).toBeVisible()`: while the element is missing, each of Playwright's failed
 * polls takes an accessibility snapshot of the whole page on its main thread (30–150 ms a poll on
 * this page), long tasks that the benchmark itself would put there.
 */
async function waitShown(page: Page): Promise<void> {
  await page.waitForFunction(() => !Number.isNaN(window.__verdict.shown), null, { timeout: 300_000, polling: 100 });
}

interface Timing {
  ms: number;
  /** Long tasks (the page's longtask entries, wall time) from the click to the verdict, and the longest. */
  tasks: number;
  longest: number;
  /** The longest main-thread task by CPU time (e2e/main-thread.ts) from the click to the verdict. */
  longestCpu: number;
  /** The main thread's tasks, for the log, and their CPU time in all (ms). */
  described: string;
  mainCpu: number;
  /** The page's busiest other thread (a worker) and its CPU time (ms) in those tasks. */
  worker: string;
}

async function timeLesson(page: Page, id: string): Promise<Timing> {
  await page.goto(`/#v=1&lesson=${id}`);
  await page.getByTestId('chart-heatmap').waitFor();
  await expect(page.getByTestId('run')).toBeEnabled();
  await arm(page);
  const watch = await watchMainThread(page);
  await page.getByTestId('run').click();
  await waitShown(page);
  const cpu = await watch.stop();
  const b = await page.evaluate(() => window.__verdict);
  if (process.env.BENCH_TASKS) {
    // BENCH_TASKS=ms: every task of more CPU than that, ms after the click and before the verdict
    const start = await page.evaluate((name) => performance.getEntriesByName(name)[0].startTime, START_MARK);
    const at = (t: { startMs: number }) => start + t.startMs;
    for (const t of cpu.filter((t) => t.cpuMs > Number(process.env.BENCH_TASKS)).sort((x, y) => x.startMs - y.startMs))
      console.log(`  task at ${(at(t) - b.t0).toFixed(0)} ms (${(at(t) - b.shown).toFixed(0)} from the verdict): ${t.cpuMs.toFixed(1)} ms CPU, ${t.wallMs.toFixed(1)} wall, ${t.postedBy}`);
  }
  const tasks = b.tasks.filter(([s, d]) => s + d > b.t0 && s < b.shown);
  return { ms: b.shown - b.t0, longest: Math.max(0, ...tasks.map(([, d]) => d)), tasks: tasks.length, longestCpu: cpu[0]?.cpuMs ?? 0, described: describeTasks(cpu), mainCpu: cpu.reduce((sum, t) => sum + t.cpuMs, 0), worker: watch.otherThreads().slice(0, 2).map((t) => `${t.thread} ${t.cpuMs.toFixed(0)} ms CPU`).join(', ') };
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
    console.log(`${lesson.id}: ${r.ms.toFixed(0)} ms, longest task ${r.longest.toFixed(0)} ms (${r.longestCpu.toFixed(0)} ms CPU); main thread ${r.mainCpu.toFixed(0)} ms CPU in all; busiest other threads: ${r.worker}; ${r.described}`);
    rows.push([lesson.id, `${e.mode ?? ''} ${e.policy?.kind ?? 'tabular'}, ${e.seeds ?? ''} seeds, ${e.iterations ?? ''} it.`, r.ms.toFixed(0), r.tasks, r.longest.toFixed(0), r.longestCpu.toFixed(0)]);
    if (r.ms > slowest.ms) slowest = { id: lesson.id, ms: r.ms };
  }
  // the opening page: from navigation to its verdict, Run pressed once it is enabled
  await page.goto('/');
  await expect(page.getByTestId('run')).toBeEnabled();
  await arm(page);
  await page.getByTestId('run').click();
  await waitShown(page);
  const opening = await page.evaluate(() => ({ ready: window.__verdict.t0, shown: window.__verdict.shown }));
  console.log(`\nLessons: ms from Run to the lesson's verdict (headless Chromium; load average before ${loadBefore}, after ${load()})`);
  console.log(table(['lesson', 'experiment', 'ms to verdict', 'long tasks', 'longest task ms', 'longest task CPU ms'], rows, [0, 1]));
  console.log(`slowest: ${slowest.id}, ${slowest.ms.toFixed(0)} ms`);
  console.log(`opening page: Run enabled ${opening.ready.toFixed(0)} ms after navigation, verdict at ${opening.shown.toFixed(0)} ms`);
});
