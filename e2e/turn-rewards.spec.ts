import { expect, test, type Page } from '@playwright/test';
import { decodeLink } from '../src/core/config/link-codec';
import { finalJ, openSettings, runToEnd, watchProblems } from './helpers';

// Per-turn rewards in the custom-table editor and an algorithm's own learning rate: edited in
// the page, checked cell by cell, carried by the address (docs/cli.md "env").

/** The config the page's address holds now (readable or deflated). */
function addressConfig(page: Page): Record<string, unknown> {
  const d = decodeLink(page.url());
  if (!d.ok) throw new Error(`the address does not decode: ${d.message}`);
  return d.state.config;
}

const turnRewardsOf = (page: Page) => (addressConfig(page).env as { turnRewards?: number[][][] }).turnRewards;

test('per-turn rewards: turned on in a custom table, a cell edited, a bad value named by its path, and the address carries them', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await page.getByTestId('field-env.preset').selectOption('__custom');
  await expect(page.getByTestId('reward-editor')).toBeVisible();
  const toggle = page.getByTestId('turn-rewards-toggle');
  await expect(toggle).not.toBeChecked();
  await expect(page.getByTestId('turn-table-0')).toHaveCount(0);
  await expect.poll(() => page.url()).toContain('#v=1');
  expect(turnRewardsOf(page)).toBeUndefined(); // off: no key at all

  // on: lock has T = 3, V = 3 → turn tables of 3 and 9 prefixes, zeros
  await toggle.check();
  await expect(page.getByTestId('turn-table-0')).toBeVisible();
  await expect(page.getByTestId('turn-table-1')).toBeVisible();
  await expect(page.getByTestId('turn-table-2')).toHaveCount(0);
  await expect(page.getByTestId('turn-table-1').locator('tbody tr')).toHaveCount(9);
  await expect(page.getByTestId('turn-table-1').locator('tbody th').nth(4)).toHaveText('1-1');
  await expect.poll(() => turnRewardsOf(page)).toEqual([[[0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0]]]);

  // a bad value: its message names the cell's path, and nothing can run
  const cell = page.getByTestId('field-env.turnRewards[0][1][4]');
  await expect(cell).toHaveAttribute('aria-label', 'turn 2 reward of 1-1 in context 0');
  await cell.fill('abc');
  const error = page.getByTestId('error-env.turnRewards[0][1][4]');
  await expect(error).toHaveText('env.turnRewards[0][1][4]: must be a finite number, got "abc"');
  await expect(cell).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('run')).toBeDisabled();
  await page.getByTestId('reward-editor').screenshot({ path: 'test-results/turn-rewards-invalid.png' });

  // fixed: the message goes, the run is possible, the address carries the value
  await cell.fill('0.5');
  await cell.press('Enter');
  await expect(error).toHaveCount(0);
  await expect(page.locator('.field-error')).toHaveCount(0);
  await expect(page.getByTestId('run')).toBeEnabled();
  await expect.poll(() => turnRewardsOf(page)).toEqual([[[0, 0, 0], [0, 0, 0, 0, 0.5, 0, 0, 0, 0]]]);
  expect(decodeURIComponent(page.url())).toMatch(/env\.turnRewards|&z=/);

  // the terminal table is still there with its own ids
  await expect(page.getByTestId('field-env.rewards[0][26]')).toBeVisible();
  // and the experiment runs with them (J* counts the turn reward: the summary states it)
  await runToEnd(page, 200);
  await expect(page.getByTestId('summary-caption')).toContainText('J* = ');

  // reload from the address: the editor shows the same tables
  await page.reload(); // the page opens its own link: the drawer starts closed
  await openSettings(page);
  await expect(page.getByTestId('turn-rewards-toggle')).toBeChecked();
  await expect(page.getByTestId('field-env.turnRewards[0][1][4]')).toHaveValue('0.5');

  // off: the key goes from the address
  await page.getByTestId('turn-rewards-toggle').uncheck();
  await expect(page.getByTestId('turn-table-0')).toHaveCount(0);
  await expect.poll(() => turnRewardsOf(page)).toBeUndefined();
  expect(problems).toEqual([]);
});

test('resizing turns reshapes the per-turn tables; one turn has none', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await page.getByTestId('field-env.preset').selectOption('__custom');
  await page.getByTestId('turn-rewards-toggle').check();
  await page.getByTestId('field-env.turns').fill('2');
  await page.getByTestId('resize-rewards').click();
  await expect(page.getByTestId('turn-table-0')).toBeVisible();
  await expect(page.getByTestId('turn-table-1')).toHaveCount(0);
  await expect(page.getByTestId('turn-table-0').locator('tbody tr')).toHaveCount(3);
  await expect(page.locator('.field-error')).toHaveCount(0);
  await page.getByTestId('field-env.turns').fill('1');
  await page.getByTestId('resize-rewards').click();
  await expect(page.getByTestId('turn-table-0')).toHaveCount(0);
  await expect(page.getByTestId('turn-rewards-toggle')).not.toBeChecked();
  await expect(page.getByTestId('turn-rewards-toggle')).toBeDisabled();
  await expect(page.getByTestId('run')).toBeEnabled();
  expect(problems).toEqual([]);
});

test("an algorithm's own learning rate: typed in its card, restarts rather than hot, carried by the address; blank = the experiment's", async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await page.getByTestId('toggle-grpo').click();
  const lr = page.getByTestId('field-algorithms[2].lr');
  await expect(lr).toHaveValue('');
  await expect(lr).toHaveAttribute('placeholder', "the experiment's lr (0.3)");
  await lr.fill('2000');
  await expect(page.getByTestId('error-algorithms[2].lr')).toContainText('algorithms[2].lr: must be null or a number > 0 and ≤ 1000, got 2000');
  await lr.fill('2');
  await lr.press('Enter');
  await expect(page.getByTestId('error-algorithms[2].lr')).toHaveCount(0);
  await expect(page.getByTestId('toggle-grpo')).toContainText('lr 2');
  await expect.poll(() => page.url()).toContain('algorithms.2.lr=2');
  await expect(lr.locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " ctl ")][1]').locator('.ctl-tag')).toHaveText('restarts');
  // the experiment's lr accepts up to 1000
  await page.getByTestId('field-optimizer.lr').fill('1000');
  await expect(page.getByTestId('error-optimizer.lr')).toHaveCount(0);
  await page.getByTestId('field-optimizer.lr').fill('0.3');
  await lr.fill('');
  await lr.press('Enter');
  await expect.poll(() => page.url()).not.toContain('lr=');
  expect(problems).toEqual([]);
});

test('a link with seedIndices: the run settings say which, the address keeps them, "Run every seed" drops them', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1&seeds=4&seedIndices=[1,3]&iterations=20');
  await openSettings(page);
  await expect(page.getByTestId('seed-indices')).toContainText('Seed indices 1, 3 only');
  await expect.poll(() => addressConfig(page).seedIndices).toEqual([1, 3]);
  // the page runs those two seeds only
  await runToEnd(page, 20);
  await expect(page.getByTestId('summary-caption')).toContainText('2 of 4 seeds (indices 1, 3) per algorithm');
  const replayed = await finalJ(page);
  expect(Object.keys(replayed)).toHaveLength(9);
  await page.getByTestId('field-seeds').fill('2');
  await expect(page.getByTestId('error-seedIndices')).toContainText('seedIndices[1]: must be a seed index from 0 to 1');
  await expect(page.getByTestId('run')).toBeDisabled();
  await page.getByTestId('clear-seed-indices').click();
  await expect(page.getByTestId('seed-indices')).toHaveCount(0);
  await expect(page.getByTestId('run')).toBeEnabled();
  await expect.poll(() => addressConfig(page).seedIndices).toBeUndefined();
  expect(problems).toEqual([]);
});
