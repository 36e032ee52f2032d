import { expect, test } from '@playwright/test';

// Main-thread long tasks (> 50 ms, PerformanceObserver 'longtask') while the default
// experiment runs, from the click on Run until every iteration is drawn. A measurement for
// the notes, not a pass/fail test: it prints [start ms after the click, duration ms] per task.

declare global {
  interface Window {
    __longTasks: [number, number][];
    __t0: number;
  }
}

test('long tasks during a run of the default experiment', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('chart-heatmap')).toBeVisible(); // charts mounted before the run
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((l) =>
      l.getEntries().forEach((e) => window.__longTasks.push([Math.round(e.startTime - window.__t0), Math.round(e.duration)])),
    ).observe({ type: 'longtask' });
  });
  for (let rep = 1; rep <= 3; rep++) {
    await page.evaluate(() => {
      window.__longTasks = [];
      window.__t0 = performance.now();
    });
    const t0 = Date.now();
    await page.getByTestId('run').click();
    await expect(page.getByTestId('progress')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
    const ms = Date.now() - t0;
    await page.waitForTimeout(300);
    const tasks = await page.evaluate(() => window.__longTasks);
    const worst = tasks.reduce((m, [, d]) => Math.max(m, d), 0);
    console.log(`run ${rep}: ${ms} ms; long tasks [start, duration]: ${JSON.stringify(tasks)}; longest ${worst} ms`);
    await page.getByTestId('reset').click();
  }
});
