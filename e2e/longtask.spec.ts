import { expect, test } from '@playwright/test';

test('long tasks during the default run', async ({ page }) => {
  await page.goto(process.env.Q ?? '/');
  await page.evaluate(() => {
    (window as unknown as { __lt: number[] }).__lt = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => (window as unknown as { __lt: number[] }).__lt.push(Math.round(e.duration)))).observe({ type: 'longtask', buffered: false });
  });
  const t0 = Date.now();
  await page.getByTestId('run').click();
  await expect(page.getByTestId('progress')).toHaveAttribute('data-status', 'done', { timeout: 60000 });
  const ms = Date.now() - t0;
  await page.waitForTimeout(500);
  console.log('run ms', ms, 'longtasks', await page.evaluate(() => (window as unknown as { __lt: number[] }).__lt));
});
