import { expect, test } from '@playwright/test';
import { RUN_TIMEOUT } from './helpers';

const TOTAL = 200;
const ALGORITHMS = 9;

declare global {
  interface Window {
    /** Set by the test: the chart showed a drawn line while progress was still below the total. */
    __sawPartialChart?: boolean;
  }
}

test('the default experiment runs in Web Workers, streams the chart, and fills the summary', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));

  await page.goto('/#v=1');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('SeeUPO explorer');
  const progress = page.getByTestId('progress');
  await expect(progress).toHaveAttribute('aria-valuenow', '0');
  const badge = page.getByTestId('backend-badge');
  await expect(badge).toHaveAttribute('data-executor', 'cpu');
  await expect(page.getByTestId('backend-label')).toHaveText(/^CPU executor · \d+ worker threads? · float64$/);
  await expect(page.getByTestId('backend-why')).toContainText('tabular policy: the CPU executor is the float64 reference');
  await expect(page.getByTestId('error-banner')).toHaveCount(0);

  // Watch every DOM change (a poll from here could miss a run that takes well under a second):
  // record whether a drawn line existed at a moment when progress was still below its total.
  await page.evaluate(() => {
    window.__sawPartialChart = false;
    const check = () => {
      const bar = document.querySelector('[data-testid="progress"]');
      const now = Number(bar?.getAttribute('aria-valuenow'));
      const max = Number(bar?.getAttribute('aria-valuemax'));
      const drawn = [...document.querySelectorAll('[data-testid="chart-return"] .plot-line path.plot-line-curve')]
        .some((p) => (p.getAttribute('d') ?? '').length > 0);
      if (drawn && now < max) window.__sawPartialChart = true;
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true });
  });

  const t0 = Date.now();
  await page.getByTestId('run').click();
  await expect(progress).toHaveAttribute('aria-valuenow', String(TOTAL), { timeout: RUN_TIMEOUT });
  await expect(progress).toContainText(`${TOTAL} / ${TOTAL} iterations`);
  await expect(page.getByTestId('run')).toBeEnabled();
  console.log(`run took ${((Date.now() - t0) / 1000).toFixed(2)} s in the browser`);

  const chart = page.getByTestId('chart-return');
  await expect(chart.locator('.plot-line')).toHaveCount(ALGORITHMS);
  await expect(chart.locator('.plot-line path.plot-line-curve')).toHaveCount(ALGORITHMS);
  await expect(chart.locator('.plot-reference-line')).toHaveCount(1);
  // the values can be read with the keyboard: focus the chart, End shows the last iteration's tooltip, Escape hides it
  const plot = chart.locator('.plot').first();
  await plot.focus();
  await page.keyboard.press('End');
  await expect(chart.locator('.plot-tip')).toBeVisible();
  await expect(chart.locator('.plot-tip')).toContainText(String(TOTAL));
  await page.keyboard.press('ArrowLeft');
  await expect(chart.locator('.plot-tip')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(chart.locator('.plot-tip')).toHaveCount(0);

  const rows = page.getByTestId('summary-table').locator('tbody tr[data-algorithm]');
  await expect(rows).toHaveCount(ALGORITHMS);
  for (const cell of await rows.locator('[data-metric="finalJ"]').all()) {
    const value = Number.parseFloat((await cell.textContent()) ?? '');
    expect(value).toBeGreaterThanOrEqual(0);
    expect(value).toBeLessThanOrEqual(1);
  }
  for (const metric of ['atOptimum', 'violations', 'itersTo95']) {
    await expect(rows.locator(`[data-metric="${metric}"]`)).toHaveCount(ALGORITHMS);
  }
  await expect(rows.first().locator('[data-metric="atOptimum"]')).toHaveText(/^\d+\/16 seeds$/);

  expect(await page.evaluate(() => window.__sawPartialChart)).toBe(true);
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/first-page.png', fullPage: true });
  expect(problems).toEqual([]);
});
