import { expect, test, type Locator, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { openSettings, runToEnd, watchProblems } from './helpers';
import { DEFAULT_SWEEP_VIEW, encodeSweepLink } from '../src/core/sweep/link';

// The page a teacher uses in front of a class. The first screen at three sizes, the
// opening story, the quick switches, algorithm identity, round trips and errors, keyboard, honest
// counts. Screenshots after Run go to test-results/ (the copies in docs/screenshots/ are what the README shows; retake them when the first screen changes).

/** The element lies inside the viewport (no scrolling needed to see it). */
async function onScreen(page: Page, locator: Locator, screens = 1): Promise<void> {
  const box = await locator.boundingBox();
  const vp = page.viewportSize()!;
  expect(box, 'element has a box').not.toBeNull();
  expect(box!.y, 'top inside the screen').toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `bottom within ${screens} screen height(s)`).toBeLessThanOrEqual(vp.height * screens + 1);
  expect(box!.x + box!.width).toBeLessThanOrEqual(vp.width + 1);
}

/** The opening page, run to the end (its lesson: 40 iterations, one seed). */
async function openAndRun(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('lesson-banner')).toHaveAttribute('data-lesson', 'reverse-escapes-the-exit');
  await runToEnd(page, 40);
}

for (const [w, h] of [[1366, 768], [1920, 1080]] as const) {
  // (at 1366×768 the same run also checks the opening story's verdicts against the CLI's)
  test(`first screen at ${w}×${h} after Run: transport, switches, return chart and all five verdicts without scrolling${w === 1366 ? '; they equal the CLI’s for the same link' : ''}`, async ({ page }) => {
    const problems = watchProblems(page);
    await page.setViewportSize({ width: w, height: h });
    await openAndRun(page);
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(0);
    for (const id of ['run', 'progress', 'quick-normalization', 'quick-order', 'quick-lr', 'chart-return'])
      await onScreen(page, page.getByTestId(id));
    // the opening lesson's own claim (3) first, the other claims folded under "other claims on this run"
    await onScreen(page, page.getByTestId('verdict-claim-3'));
    await onScreen(page, page.getByTestId('other-claims'));
    for (let n = 1; n <= 5; n++) await expect(page.getByTestId(`verdict-claim-${n}`)).toHaveAttribute('data-verdict', /^(observed|not-observed|undecided|not-testable)$/);
    if (w >= 1920) for (const id of ['chart-gap', 'chart-metric']) await onScreen(page, page.getByTestId(id).locator('svg').first());
    await page.screenshot({ path: `test-results/teacher-${w}x${h}.png` }); // copies in docs/screenshots/
    if (w === 1366) await verdictsEqualTheCli(page);
    expect(problems).toEqual([]);
  });
}

/** The opening story, run on the page: its verdicts equal the CLI's for the same link. */
async function verdictsEqualTheCli(page: Page): Promise<void> {
  const url = page.url();
  expect(url).toContain('lesson=reverse-escapes-the-exit');
  const cli = JSON.parse(execFileSync('node', ['bin/seeupo-explorer.js', 'claims', '--link', url], { encoding: 'utf8' })) as { claims: { claim: number; verdict: string }[] };
  for (const c of cli.claims) await expect(page.getByTestId(`verdict-claim-${c.claim}`)).toHaveAttribute('data-verdict', c.verdict.replace(/ /g, '-'));
  expect(cli.claims.find((c) => c.claim === 3)!.verdict).toBe('observed');
  expect(cli.claims.find((c) => c.claim === 4)!.verdict).toBe('observed');
}

test('on a phone (390×844): Run and the return chart within two screen heights; the settings drawer starts closed; the summary says it scrolls', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openAndRun(page);
  await expect(page.getByTestId('settings-toggle')).toHaveAttribute('aria-expanded', 'false');
  await onScreen(page, page.getByTestId('run'), 2);
  await onScreen(page, page.getByTestId('chart-return'), 2);
  await page.screenshot({ path: 'test-results/teacher-390x844.png' });
  await page.goto('/#v=1&iterations=5&seeds=2');
  await runToEnd(page, 5);
  await expect(page.getByTestId('summary-scroll')).toHaveAttribute('data-overflow', 'true');
  await expect(page.getByTestId('summary-scroll-hint')).toContainText('scroll it sideways');
});

test('the settings live in a drawer: the toggle closes and opens it', async ({ page }) => {
  await page.goto('/#v=1');
  const toggle = page.getByTestId('settings-toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('field-seeds')).toBeVisible();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('field-seeds')).toHaveCount(0);
  await toggle.click();
  await expect(page.getByTestId('field-seeds')).toBeVisible();
});

test('a link or a sweep link opens with the settings drawer closed; a plain visit keeps its layout', async ({ page }) => {
  const problems = watchProblems(page);
  const toggle = page.getByTestId('settings-toggle');
  const fresh = async (address: string) => {
    await page.goto('about:blank'); // a new document: changing only the fragment would not reopen the page
    await page.goto(address);
  };
  // a plain visit with the version alone, on a wide window: the drawer open
  await fresh('/#v=1');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('field-seeds')).toBeVisible();
  // a new fragment in the same document (as Back/Forward) keeps the reader's layout
  await page.goto('/#v=1&iterations=7');
  await expect(page.getByTestId('field-iterations')).toHaveValue('7');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  // no address at all: the opening lesson, on its charts and story, as before
  await fresh('/');
  await expect(page.getByTestId('lesson-banner')).toHaveAttribute('data-lesson', 'reverse-escapes-the-exit');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  // a link with experiment fields: the charts first, the toggle opens the settings it carries
  await fresh('/#v=1&mode=exact&seeds=2&iterations=5');
  await expect(page.getByTestId('chart-return')).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('#settings-drawer')).toHaveCount(0);
  await openSettings(page);
  await expect(page.getByTestId('field-seeds')).toHaveValue('2');
  await expect(page.getByTestId('field-iterations')).toHaveValue('5');
  // a sweep link: the explorer behind the Sweep view has its drawer closed too
  const sweep = encodeSweepLink({ version: 1, base: { version: 1, env: { preset: 'lock' }, mode: 'exact', iterations: 5, seeds: 1, algorithms: [{ id: 'grpo' }] }, axes: [{ path: 'optimizer.lr', values: [0.1, 1] }] } as never, DEFAULT_SWEEP_VIEW);
  expect(sweep.ok).toBe(true);
  await fresh(`/#${sweep.ok ? sweep.fragment : ''}`);
  await expect(page.getByTestId('sweep-view')).toBeVisible();
  await page.getByTestId('tab-explorer').click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('#settings-drawer')).toHaveCount(0);
  // and a plain visit afterwards is as it was
  await fresh('/#v=1');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  expect(problems).toEqual([]);
});

test('quick switches set every algorithm they concern and rerun at once; the lr slider applies live', async ({ page }) => {
  await page.goto('/#v=1&mode=exact&seeds=1&iterations=10&algorithms=[grpo,seeupo,seeupo-forward,reinforce]');
  const norm = page.getByTestId('quick-normalization');
  const order = page.getByTestId('quick-order');
  await expect(norm).toHaveAttribute('data-value', 'mixed'); // grpo group, seeupo batch, reinforce none
  await norm.getByRole('radio', { name: 'batch' }).click();
  await expect(page.getByTestId('progress')).toHaveAttribute('data-status', 'done'); // it ran
  await expect(norm).toHaveAttribute('data-value', 'batch');
  await expect(norm.getByRole('radio', { name: 'batch' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('legend-grpo').first()).toContainText('GRPO · batch norm');
  await expect(order).toHaveAttribute('data-value', 'mixed'); // reverse and forward
  await order.getByRole('radio', { name: 'forward' }).click();
  await expect(order).toHaveAttribute('data-value', 'forward');
  await expect(page.getByTestId('legend-seeupo').first()).toContainText('SeeUPO · forward');
  expect(page.url()).toContain('order'); // the link carries it
  // the learning rate: a log slider; 10^0.5 ≈ 3.2
  await page.getByTestId('quick-lr').fill('0.5');
  await expect(page.getByTestId('quick-lr-value')).toHaveText('3.2');
  await openSettings(page);
  await expect(page.getByTestId('field-optimizer.lr')).toHaveValue('3.2');
});

test('algorithm identity: colours stay when an algorithm is removed, a copy is "GRPO #2", lines can be renamed, the legend hides and highlights', async ({ page }) => {
  await page.goto('/#v=1&mode=exact&seeds=1&iterations=5&algorithms=[reinforce,grpo,seeupo]');
  await runToEnd(page, 5);
  const colorOf = (id: string) => page.getByTestId('chart-return').locator(`.plot-line[data-algorithm="${id}"] path`).getAttribute('stroke');
  const grpo = await colorOf('grpo');
  const seeupo = await colorOf('seeupo');
  await openSettings(page);
  await page.getByTestId('remove-reinforce').click();
  await runToEnd(page, 5);
  expect(await colorOf('grpo')).toBe(grpo);
  expect(await colorOf('seeupo')).toBe(seeupo);
  // a copy
  await page.getByTestId('add-algorithm-preset').selectOption('grpo');
  await page.getByRole('button', { name: /^Add/ }).click();
  await runToEnd(page, 5);
  await expect(page.getByTestId('legend-grpo-2').first()).toContainText('GRPO #2');
  expect(await colorOf('grpo-2')).not.toBe(grpo);
  // rename: the legend follows, and the run is not restarted
  await page.getByTestId('label-seeupo').fill('Reverse order (ours)');
  await expect(page.getByTestId('legend-seeupo').first()).toContainText('Reverse order (ours)');
  await expect(page.getByTestId('progress')).toHaveAttribute('data-status', 'done');
  // legend: click hides the line everywhere, again shows it; hover highlights
  const line = page.getByTestId('chart-return').locator('.plot-line[data-algorithm="grpo"]');
  await page.getByTestId('legend-grpo').first().click();
  await expect(line).toHaveCount(0);
  await expect(page.getByTestId('legend-grpo').first()).toHaveAttribute('aria-pressed', 'false');
  await page.getByTestId('legend-grpo').first().click();
  await expect(line).toHaveCount(1);
  await page.getByTestId('legend-seeupo').first().hover();
  await expect(page.getByTestId('chart-return').locator('.plot-line[data-algorithm="seeupo"]')).toHaveClass(/\bhot\b/);
  await expect(line).toHaveClass(/\bdim\b/);
});

test('Import reads the page’s own exported JSON (round trip)', async ({ page }) => {
  await page.goto('/#v=1&mode=exact&seeds=2&iterations=7&algorithms=[grpo,seeupo]&algorithms.0.clip=0.3');
  await runToEnd(page, 7);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  const path = (await download.path())!;
  await page.goto('/#v=1'); // the fragment changes in the same document: the drawer stays as the link left it
  await openSettings(page);
  await expect(page.getByTestId('field-iterations')).toHaveValue('200');
  await page.getByTestId('import-config').setInputFiles(path);
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await expect(page.getByTestId('field-iterations')).toHaveValue('7');
  await expect(page.getByTestId('field-seeds')).toHaveValue('2');
  expect(page.url()).toContain('algorithms.0.clip=0.3');
  // Export config gives the config itself, which imports too
  const [cfg] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-config').click()]);
  await page.goto('/#v=1');
  await page.getByTestId('import-config').setInputFiles((await cfg.path())!);
  await expect(page.getByTestId('field-iterations')).toHaveValue('7');
});

test('an invalid value: Run says why in words and by path, and takes the user to the field', async ({ page }) => {
  await page.goto('/#v=1');
  await page.getByTestId('field-seeds').fill('5000');
  await page.getByTestId('field-seeds').press('Tab');
  await expect(page.getByTestId('run')).toBeDisabled();
  const why = page.getByTestId('run-why');
  await expect(why).toContainText('Seeds (seeds)');
  await expect(why).toContainText('1024');
  await page.getByTestId('settings-toggle').click(); // close the drawer: going to the field opens it again
  await expect(page.getByTestId('field-seeds')).toHaveCount(0);
  await page.getByTestId('go-to-field').click();
  await expect(page.getByTestId('field-seeds')).toBeFocused();
  await page.getByTestId('field-seeds').fill('4');
  await page.getByTestId('field-seeds').press('Tab');
  await expect(why).toHaveCount(0);
  await expect(page.getByTestId('run')).toBeEnabled();
});

test('keyboard shortcuts never act while a form control has focus (a focused select and →)', async ({ page }) => {
  await page.goto('/#v=1&iterations=20&seeds=2');
  await openSettings(page);
  const mode = page.getByTestId('field-mode');
  await mode.selectOption('exact');
  await mode.focus();
  await page.keyboard.press('ArrowRight'); // the select's own key; the step shortcut must not fire
  await page.keyboard.press('r');
  await expect(page.getByTestId('progress')).toHaveAttribute('aria-valuenow', '0');
  await expect(page.getByTestId('progress')).toHaveAttribute('data-status', 'idle');
  // on a segmented control the arrow keys are its own too
  await page.getByTestId('quick-order').getByRole('radio').first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('progress')).toHaveAttribute('aria-valuenow', '0');
  // with focus on the page, → steps
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('progress')).toHaveAttribute('aria-valuenow', '1');
});

test('honest counts: identical seeds (exact mode, uniform start) are one curve, not "over 16 seeds"', async ({ page }) => {
  await page.goto('/#v=1&mode=exact&seeds=16&iterations=10&algorithms=[grpo,seeupo]');
  await runToEnd(page, 10);
  const title = page.getByTestId('return-title');
  await expect(title).toHaveAttribute('data-identical', 'true');
  await expect(title).toContainText('one curve per algorithm (its 16 seeds are identical)');
  await expect(title).not.toContainText('over 16 seeds');
  await expect(page.getByTestId('caption')).toContainText('its 16 seeds are identical: one curve');
  // a random start: the seeds differ, and the title says "over 16 seeds"
  await page.goto('/#v=1&mode=exact&seeds=16&iterations=10&algorithms=[grpo,seeupo]&policy.kind=tabular&policy.initScale=0.5');
  await runToEnd(page, 10);
  await expect(title).toHaveAttribute('data-identical', 'false');
  await expect(title).toContainText('over 16 seeds');
});
