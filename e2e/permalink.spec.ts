import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { configure, finalJ, openSettings, runToEnd, watchProblems, RUN_TIMEOUT } from './helpers';

// Permalinks: a copied link with its results hash reopens in a fresh browser context
// and reproduces; the CLI prints the same hash for it; live changes replay; the address follows
// the experiment (Back/Forward); embed mode; importing config and environment files.

const status = (page: Page) => page.getByTestId('reproduce-status');

async function copyLink(page: Page, withHash: boolean): Promise<string> {
  if (withHash) await page.getByTestId('include-hash').check();
  await page.getByTestId('copy-link').click();
  const link = await page.getByTestId('share-link').inputValue();
  expect(link).toMatch(/#v=1/);
  return link;
}

function cliHash(link: string): { digest: string; by: string; stderr: string } {
  const out = execFileSync('node', ['bin/seeupo-explorer.js', 'run', '--link', link], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const result = JSON.parse(out) as { resultsHash: { digest: string; by: string } };
  return { ...result.resultsHash, stderr: '' };
}

test('Copy link with the results hash → a fresh context reruns it: same curves, "reproduced ✓", and the CLI prints the same hash', async ({ page, browser }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await page.getByTestId('field-env.preset').selectOption('two-prompts');
  await configure(page, { iterations: 40, seeds: 4 });
  await runToEnd(page, 40);
  const link = await copyLink(page, true);
  expect(link).toContain('env.preset=two-prompts');
  expect(link).toMatch(/&hash=[0-9a-f]{12}&by=cpu&app=/);
  const before = await finalJ(page);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  const otherProblems = watchProblems(other);
  await other.goto(link);
  await expect(status(other)).toContainText('reproduced ✓', { timeout: RUN_TIMEOUT });
  expect(await finalJ(other)).toEqual(before);
  await openSettings(other);
  await expect(other.getByTestId('field-iterations')).toHaveValue('40');
  await other.screenshot({ path: 'test-results/permalink-reproduced.png' });
  await fresh.close();

  const digest = /hash=([0-9a-f]{12})/.exec(link)![1];
  expect(cliHash(link)).toMatchObject({ digest, by: 'cpu' });
  expect(problems).toEqual([]);
  expect(otherProblems).toEqual([]);
});

test('a learning-rate change made while the run went is in the link and replays exactly', async ({ page, browser }) => {
  await page.goto('/#v=1');
  await configure(page, { iterations: 60, seeds: 3 });
  await page.getByTestId('speed').fill('2'); // 5 it/s: time to change lr mid-run
  await page.getByTestId('run').click();
  await expect(page.getByTestId('progress')).not.toHaveAttribute('aria-valuenow', '0');
  await page.getByTestId('field-optimizer.lr').fill('0.1');
  await expect(page.getByTestId('notice')).toContainText('Applied without restarting');
  await page.getByTestId('speed').fill('6'); // max
  await expect(page.getByTestId('progress')).toHaveAttribute('data-status', 'done', { timeout: RUN_TIMEOUT });
  const link = await copyLink(page, true);
  expect(link).toMatch(/changes\.0\.at=\d+&changes\.0\.path=optimizer\.lr&changes\.0\.value=0\.1/);
  expect(link).not.toContain('optimizer.lr=0.1'); // the link starts from the original lr
  const before = await finalJ(page);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await expect(status(other)).toContainText('reproduced ✓', { timeout: RUN_TIMEOUT });
  expect(await finalJ(other)).toEqual(before);
  await fresh.close();
  expect(cliHash(link).digest).toBe(/hash=([0-9a-f]{12})/.exec(link)![1]);
});

test('the address follows the experiment: one entry per committed change, Back and Forward restore it', async ({ page }) => {
  await page.goto('/#v=1');
  const length = () => page.evaluate(() => history.length);
  const start = await length();
  const iterations = page.getByTestId('field-iterations');
  await iterations.fill('50');
  await iterations.press('Enter');
  await expect(page).toHaveURL(/#v=1&iterations=50$/);
  const seeds = page.getByTestId('field-seeds');
  await seeds.click();
  await seeds.pressSequentially('0'); // 16 → 160, typed: one entry for the whole edit
  await seeds.press('Backspace');
  await seeds.press('Backspace');
  await seeds.pressSequentially('8'); // 18
  await seeds.blur();
  await expect(page).toHaveURL(/#v=1&iterations=50&seeds=18$/);
  expect(await length()).toBe(start + 2);
  await page.goBack();
  await expect(seeds).toHaveValue('16');
  await expect(iterations).toHaveValue('50');
  await page.goBack();
  await expect(iterations).toHaveValue('200');
  await page.goForward();
  await expect(iterations).toHaveValue('50');

  // a slider dragged across many values adds one entry: one Back returns to the value before the drag
  const slider = page.getByTestId('slider-optimizer.lr');
  await slider.scrollIntoViewIfNeeded();
  const box = (await slider.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 3; i <= 8; i++) await page.mouse.move(box.x + (box.width * i) / 10, box.y + box.height / 2);
  await page.mouse.up();
  await expect(page).toHaveURL(/#v=1&iterations=50&optimizer\.kind=sgd&optimizer\.lr=[0-9.]+$/);
  expect(await page.getByTestId('field-optimizer.lr').inputValue()).not.toBe('0.3');
  await page.goBack();
  await expect(page.getByTestId('field-optimizer.lr')).toHaveValue('0.3');
  await expect(page).toHaveURL(/#v=1&iterations=50$/);
});

test('embed=1 shows the charts and a minimal transport, with a link to the full explorer', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1&iterations=20&seeds=2&embed=1');
  await expect(page.getByTestId('embed')).toBeVisible();
  await expect(page.locator('.sidebar')).toHaveCount(0);
  await expect(page.getByTestId('step')).toHaveCount(0);
  const full = page.getByTestId('open-full');
  await expect(full).toHaveAttribute('href', /#v=1&iterations=20&seeds=2$/);
  await runToEnd(page, 20);
  await expect(page.getByTestId('chart-return')).toHaveAttribute('data-lines', '9');
  await page.screenshot({ path: 'test-results/permalink-embed.png', fullPage: true });
  expect(problems).toEqual([]);
});

test('importing a config or environment file: valid files load, bad ones are refused by field', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  const file = (name: string, value: unknown) => ({ name, mimeType: 'application/json', buffer: Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)) });
  await page.getByTestId('import-config').setInputFiles(file('c.json', { version: 1, env: { preset: 'lock' }, iterations: 30, algorithms: [{ id: 'seeupo' }, { id: 'grpo', clip: 0.25 }] }));
  await expect(page.getByTestId('field-iterations')).toHaveValue('30');
  await expect(page.getByTestId('notice')).toContainText('c.json');

  await page.getByTestId('import-config').setInputFiles(file('bad.json', { version: 1, env: { preset: 'lock' }, algorithms: [{ id: 'grpo', clip: 99 }] }));
  await expect(page.getByTestId('error-banner')).toContainText('algorithms[0].clip');
  await expect(page.getByTestId('field-iterations')).toHaveValue('30'); // nothing applied
  await page.getByTestId('import-config').setInputFiles(file('broken.json', '{"version": 1,'));
  await expect(page.getByTestId('error-banner')).toContainText('not valid JSON');

  const env = { turns: 2, vocab: 2, tokensPerTurn: 1, rewards: [[0, 0.2, 0.5, 1]] };
  await page.getByTestId('import-env').setInputFiles(file('env.json', env));
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await expect(page.getByTestId('notice')).toContainText('env.json');
  await page.getByTestId('import-env').setInputFiles(file('env-bad.json', { ...env, rewards: [[0, 'x', 0.5, 1]] }));
  await expect(page.getByTestId('error-banner')).toContainText('env.rewards[0][1]');
  await page.getByTestId('dismiss-error').click();
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await runToEnd(page, 30);
  expect(problems).toEqual([]);
});
