import { expect, test, type Page } from '@playwright/test';
import { finalJ, frames, runToEnd, settledProgress, watchProblems, RUN_TIMEOUT } from './helpers';

// The explorer page: transport, turn stepping, hot and cold changes, keyboard,
// dark mode, bad values, interactivity during a run. Screenshots go to test-results/.

const ALGORITHMS = 9;
const progress = (page: Page) => page.getByTestId('progress');
const at = (page: Page, k: number) => expect(progress(page)).toHaveAttribute('aria-valuenow', String(k));
const status = (page: Page, s: string) => expect(progress(page)).toHaveAttribute('data-status', s);

test('the default comparison: one line per algorithm, a row per algorithm, captions and explanations', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await expect(page.getByTestId('explain')).toBeVisible();
  await runToEnd(page, 200);
  const chart = page.getByTestId('chart-return');
  await expect(chart).toHaveAttribute('data-lines', String(ALGORITHMS));
  await expect(chart.locator('.plot-line')).toHaveCount(ALGORITHMS);
  const rows = page.getByTestId('summary-table').locator('tbody tr[data-algorithm]');
  await expect(rows).toHaveCount(ALGORITHMS);
  const j = await finalJ(page);
  expect(Object.keys(j)).toHaveLength(ALGORITHMS);
  for (const v of Object.values(j)) expect(v).toBeGreaterThanOrEqual(0);
  await expect(page.getByTestId('caption')).toContainText(/SeeUPO/);
  await expect(page.getByTestId('verdicts')).toContainText(/[Rr]everse[- ]order/);
  for (const id of ['chart-seeds', 'chart-gap', 'chart-heatmap', 'chart-metric']) await expect(page.getByTestId(id)).toBeVisible();
  await page.screenshot({ path: 'test-results/explorer-default-light.png', fullPage: true });
  await page.locator('.sidebar').screenshot({ path: 'test-results/explorer-controls.png' });
  await page.getByTestId('caption').screenshot({ path: 'test-results/explorer-caption.png' });
  expect(problems).toEqual([]);
});

test('Step advances exactly one iteration; Step one turn one turn, in reverse order for SeeUPO', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await page.getByTestId('step').click();
  await at(page, 1);
  await status(page, 'paused');
  await page.getByTestId('step').click();
  await at(page, 2);

  const turn = page.getByTestId('turn-updated-seeupo');
  const forward = page.getByTestId('turn-updated-seeupo-forward');
  await page.getByTestId('step-turn').click();
  await expect(turn).toContainText('turn 3');
  await expect(forward).toContainText('turn 1');
  await at(page, 2); // the iteration is not complete until every turn has been updated
  await page.getByTestId('step-turn').click();
  await expect(turn).toContainText('turn 2');
  await at(page, 2);
  await page.getByTestId('step-turn').click();
  await expect(turn).toContainText('turn 1');
  await expect(forward).toContainText('turn 3');
  await at(page, 3);
  await page.screenshot({ path: 'test-results/explorer-turn-step.png', fullPage: true });
  await page.getByTestId('chart-heatmap').screenshot({ path: 'test-results/explorer-turn-step-heatmap.png' });

  await page.getByTestId('step').click();
  await at(page, 4);
  await page.getByTestId('reset').click();
  await at(page, 0);
  await status(page, 'idle');
  expect(problems).toEqual([]);
});

test('Pause takes effect at once, the page stays interactive during a run, and a hot change does not restart', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await page.getByTestId('speed').fill('2'); // 5 iterations per second: the run lasts 40 s
  await page.getByTestId('run').click();
  await status(page, 'running');
  await expect.poll(async () => Number(await progress(page).getAttribute('aria-valuenow'))).toBeGreaterThan(2);

  // a click is handled while the workers compute
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await status(page, 'running');

  // hot: the learning rate applies from the current iteration, the run goes on
  const before = Number(await progress(page).getAttribute('aria-valuenow'));
  await page.getByTestId('field-optimizer.lr').fill('0.2');
  await expect(page.getByTestId('notice')).toContainText('Applied without restarting');
  await status(page, 'running');
  expect(Number(await progress(page).getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(before);

  await page.getByTestId('pause').click();
  await status(page, 'paused');
  const paused = await settledProgress(page); // an iteration in flight may land once
  await frames(page, 60);
  expect(Number(await progress(page).getAttribute('aria-valuenow'))).toBe(paused);

  // cold: the group size restarts the experiment from iteration 0
  await page.getByTestId('run').click();
  await status(page, 'running');
  await page.getByTestId('field-groupSize').fill('6');
  await expect(page.getByTestId('notice')).toContainText('restarted');
  await expect.poll(async () => Number(await progress(page).getAttribute('aria-valuenow'))).toBeLessThan(paused + 1);
  await page.getByTestId('pause').click();
  expect(problems).toEqual([]);
});

test('keyboard: Space runs and pauses, → steps, Shift+→ steps a turn, R resets, ? opens help', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1&iterations=20'); // Space runs it to the end: 20 iterations show that as well as 200
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  await at(page, 1);
  await page.keyboard.press('Shift+ArrowRight');
  await expect(page.getByTestId('turn-updated-seeupo')).toContainText('turn 3');
  await page.keyboard.press('r');
  await at(page, 0);
  await status(page, 'idle');
  await page.keyboard.press('Space');
  await expect(progress(page)).toHaveAttribute('data-status', /running|done/);
  await expect(progress(page)).toHaveAttribute('data-status', 'done', { timeout: RUN_TIMEOUT });
  await page.keyboard.press('?');
  await expect(page.getByTestId('help')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('help')).toBeHidden();
  expect(problems).toEqual([]);
});

test('dark mode follows the system and can be toggled', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/#v=1');
  const bg = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bg').trim());
  expect(await bg()).toBe('#15171b');
  await page.getByTestId('theme-toggle').click(); // system → light
  expect(await bg()).toBe('#f7f7f5');
  await page.getByTestId('theme-toggle').click(); // light → dark
  expect(await bg()).toBe('#15171b');
  await runToEnd(page, 200);
  await page.screenshot({ path: 'test-results/explorer-default-dark.png', fullPage: true });
});

test('switching GRPO from group to batch normalization changes its row', async ({ page }) => {
  await page.goto('/#v=1');
  // on `lock` (one prompt, B = 1) the batch is one group, so group and batch normalization
  // coincide; two prompts make them differ
  await page.getByTestId('field-env.preset').selectOption('two-prompts');
  // after 20 iterations GRPO's mean final J is 0.248 with group and 0.294 with batch normalization
  await page.getByTestId('field-iterations').fill('20');
  await runToEnd(page, 20);
  const group = (await finalJ(page)).grpo;
  await page.getByTestId('toggle-grpo').click();
  await page.getByTestId('field-algorithms[2].normalization').selectOption('batch');
  await runToEnd(page, 20);
  const batch = (await finalJ(page)).grpo;
  expect(batch).not.toBe(group);
});

test('bad values show their message beside the field and never start a run', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await page.getByTestId('field-seeds').fill('abc');
  await expect(page.getByTestId('error-seeds')).toContainText('seeds: must be an integer from 1 to 1024');
  await expect(page.getByTestId('run')).toBeDisabled();
  await page.getByTestId('field-seeds').fill('4');
  await expect(page.getByTestId('error-seeds')).toHaveCount(0);
  await page.getByTestId('field-optimizer.lr').fill('-1');
  await expect(page.getByTestId('error-optimizer.lr')).toContainText('optimizer.lr');
  await expect(page.getByTestId('run')).toBeDisabled();
  await page.keyboard.press('Escape');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Space');
  await status(page, 'idle');
  await page.screenshot({ path: 'test-results/explorer-bad-value.png', fullPage: true });
  expect(problems).toEqual([]);
});
