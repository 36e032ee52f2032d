import { expect, test } from '@playwright/test';
import { openSettings, watchProblems } from './helpers';

// The page never writes a link it would refuse to open; the share
// bar's "Copied" goes once the experiment changes.

const file = (name: string, value: unknown) => ({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(value)) });

function randomTable(n: number): number[] {
  let x = 12345;
  return Array.from({ length: n }, () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1);
}

test('an environment too large for a link: the page says "use Export config" and never writes a link it refuses', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1&iterations=20');
  const env = { turns: 4, vocab: 16, tokensPerTurn: 1, rewards: [randomTable(65_536)] };
  await page.getByTestId('import-env').setInputFiles(file('big-env.json', env));
  await expect(page.getByTestId('notice')).toContainText('big-env.json');
  const note = page.getByTestId('link-too-large');
  await expect(note).toContainText('too large for a link: use Export config');
  // the address holds no experiment (a reload opens the page, not a refused link)
  await expect.poll(() => page.evaluate(() => location.hash)).toBe('');
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('share-link')).toHaveCount(0);
  await expect(note).toContainText('too large for a link');
  await page.reload();
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('"Copied" disappears when the experiment changes', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/#v=1&iterations=20');
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('share-link')).toHaveValue(/#v=1&iterations=20/);
  await expect(page.getByTestId('share-note')).toBeVisible();
  await openSettings(page);
  await page.getByTestId('field-iterations').fill('25');
  await page.getByTestId('field-iterations').press('Enter');
  await expect(page.getByTestId('share-note')).toHaveCount(0);
  await expect(page.getByTestId('share-link')).toHaveCount(0);
});
