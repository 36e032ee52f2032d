import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { parseSweep } from '../src/core/sweep/cells';
import { shardCells } from '../src/core/sweep/document';
import { SWEEP_PRESETS } from '../src/core/sweep/presets';
import { DEFAULT_SWEEP_VIEW, encodeSweepLink } from '../src/core/sweep/link';
import { runSweepCellsInNode } from '../src/cli/sweep-run';
import { finalJ, runToEnd, watchProblems } from './helpers';
import { describeTasks, overCpu, watchMainThread } from './main-thread';

// The Sweep view: a preset phase diagram runs in Web Workers and equals what
// the command line's sweep runner gives for the same document; its link replays it; a cell opens
// in the explorer as an experiment of its own; cancel stops the workers; a sweep past the work
// limit is refused up front naming its axes and size; exports save what the maps show.

/** The sweep document the command line would print for a preset (one thread, in this process). */
async function cliOutput(doc: unknown) {
  const sweep = parseSweep(doc);
  const { cells } = await runSweepCellsInNode(sweep, shardCells(sweep.cells, null), { threads: 1, workers: null, shard: null });
  return { version: 1, axes: sweep.axes, cells };
}

/** Every non-integer number rounded to 12 significant digits. */
function roundNumbers(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? v : Number(v.toPrecision(12));
  if (Array.isArray(v)) return v.map(roundNumbers);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, roundNumbers(x)]));
  return v;
}

async function openSweep(page: Page) {
  await page.goto('/#v=1');
  await page.getByTestId('tab-sweep').click();
  await expect(page.getByTestId('sweep-view')).toBeVisible();
  await expect(page.getByTestId('sweep-empty')).toBeVisible();
}

async function runSweepToEnd(page: Page, timeout = 90_000) {
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-status', /^(done|error)$/, { timeout });
  await expect(page.getByTestId('sweep-error')).toHaveCount(0);
  await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-status', 'done');
}

async function downloadText(page: Page, testId: string): Promise<{ name: string; text: string }> {
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return { name: d.suggestedFilename(), text: readFileSync((await d.path())!, 'utf8') };
}

// (one run of the preset serves both: the cell opened at the end is one of the cells checked above)
test('the phase-diagram preset runs in the page and equals the command line’s sweep, number for number; a cell opens in the explorer as the experiment it ran and runs there to the same bits', async ({ page }) => {
  const problems = watchProblems(page);
  await openSweep(page);
  const preset = SWEEP_PRESETS.find((p) => p.id === 'phase-lr-normalization')!;
  await page.getByTestId(`sweep-preset-${preset.id}`).click();
  await expect(page.getByTestId('sweep-size')).toContainText('8 × 3 = 24 cells × 2 algorithms × 1 seed = 48 runs of 500 iterations');
  await runSweepToEnd(page);
  await expect(page.getByTestId('sweep-map-grpo').getByTestId('sweep-cell')).toHaveCount(24);
  await expect(page.getByTestId('sweep-map-seeupo').getByTestId('sweep-cell')).toHaveCount(24);
  const json = await downloadText(page, 'sweep-export-json');
  expect(json.name).toMatch(/^seeupo-sweep-\d{8}-\d{4}\.json$/);
  const want = await cliOutput(preset.doc);
  // Chromium's V8 and Node's may round Math.exp/log differently in the last bit: equal to 1e-12,
  // verdicts, counts and t95 exactly (the same engine gives the same bits: see the cell opened below)
  expect(roundNumbers(JSON.parse(json.text))).toEqual(roundNumbers(want));
  // the preset opens on the share of seeds at J* (the phase boundary); then the mean final J
  await expect(page.getByTestId('sweep-outcome')).toHaveValue('atOptimum');
  await page.getByTestId('sweep-outcome').selectOption('finalJ');
  // a cell's colour value is its number: SeeUPO at lr 100, group normalization (cell 7·3 + 1)
  const cell = page.locator('[data-testid="sweep-map-seeupo"] [data-testid="sweep-cell"][data-cell="22"]');
  expect(Number(await cell.getAttribute('data-value'))).toBeCloseTo(want.cells[22]!.algorithms.find((a) => a.id === 'seeupo')!.finalJ.mean!, 12);
  const csv = await downloadText(page, 'sweep-export-csv');
  const lines = csv.text.trim().split('\n');
  expect(lines[0]).toBe('optimizer.lr,algorithms.*.normalization,cell,algorithm,Jstar,finalJ,finalJ_lo,finalJ_hi,atOptimum,violations,medianItersTo95,claim1,claim2,claim3,claim4,claim5');
  expect(lines).toHaveLength(1 + 24 * 2);
  // the claim-verdict map colours each cell by the verdict the cell's own claims engine gave
  await page.getByTestId('sweep-outcome').selectOption('verdict');
  await page.getByTestId('sweep-claim').selectOption('2');
  const v = await page.locator('[data-testid="sweep-map-grpo"] [data-testid="sweep-cell"][data-cell="0"]').getAttribute('data-value');
  expect(v).toBe(want.cells[0]!.algorithms[0]!.claims.find((c) => c.claim === 2)?.verdict ?? 'n/a');
  for (const ext of ['svg', 'png']) {
    const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`export-${ext}-sweep`).click()]);
    expect(d.suggestedFilename()).toMatch(new RegExp(`sweep.*\\.${ext}$`));
  }

  // a cell opens in the explorer as the experiment it ran: cell 16 = lr index 5 (10), normalization index 1 (group)
  await page.getByTestId('sweep-outcome').selectOption('finalJ');
  const value = async (algo: string) => Number(await page.locator(`[data-testid="sweep-map-${algo}"] [data-testid="sweep-cell"][data-cell="16"]`).getAttribute('data-value'));
  const inSweep = { grpo: await value('grpo'), seeupo: await value('seeupo') };
  await page.locator('[data-testid="sweep-map-grpo"] [data-testid="sweep-cell"][data-cell="16"]').click();
  await expect(page.getByTestId('sweep-view')).toHaveCount(0);
  const hash = await page.evaluate(() => decodeURIComponent(location.hash));
  expect(hash).toContain('optimizer.lr=10');
  expect(hash).toMatch(/normalization=group/);
  expect(hash).toContain('env.preset=two-prompts');
  await runToEnd(page, 500);
  expect(await finalJ(page)).toEqual(inSweep);
  expect(problems).toEqual([]);
});

test('the address replays the sweep: a new page opens its axes and base, and runs to the same numbers', async ({ page, context }) => {
  await openSweep(page);
  await page.getByTestId('sweep-axis-0-values').fill('0.3, 3');
  await page.getByTestId('sweep-axis-0-values').press('Enter');
  await page.getByTestId('sweep-remove-axis').click();
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#v=1&sweep=/);
  const hash = await page.evaluate(() => location.hash);
  const other = await context.newPage();
  await other.goto(`/${hash}`);
  await expect(other.getByTestId('sweep-view')).toBeVisible();
  await expect(other.getByTestId('sweep-axis-0-values')).toHaveValue('0.3, 3');
  await expect(other.getByTestId('sweep-axis-1')).toHaveCount(0);
  await runSweepToEnd(other);
  await expect(other.getByTestId('sweep-lines')).toBeVisible();
  await expect(other.getByTestId('sweep-cell')).toHaveCount(2 * 9);
  await expect(other.getByTestId('sweep-stale')).toHaveCount(0);
  await other.getByTestId('sweep-axis-0-values').fill('0.3, 3, 30');
  await other.getByTestId('sweep-axis-0-values').press('Enter');
  await expect(other.getByTestId('sweep-stale')).toBeVisible();
});

test('cancel stops the workers and keeps the cells already done, exportable and marked partial', async ({ page }) => {
  await openSweep(page);
  // iterations: a field each cell runs on its own (one batch per cell), so cells finish one by one
  await page.getByTestId('sweep-axis-0-pick').selectOption('iterations');
  await page.getByTestId('sweep-axis-0-values').fill('20, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000');
  await page.getByTestId('sweep-axis-0-values').press('Enter');
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-status', 'running');
  await expect(page.getByTestId('sweep-maps')).not.toHaveAttribute('data-cells', '0', { timeout: 60_000 });
  await page.getByTestId('sweep-cancel').click();
  await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-status', 'cancelled');
  await expect(page.getByTestId('sweep-progress')).toContainText('cancelled');
  await expect(page.getByTestId('sweep-run')).toBeEnabled();
  const done = Number(await page.getByTestId('sweep-maps').getAttribute('data-cells'));
  const total = 9 * 3;
  expect(done).toBeGreaterThan(0);
  expect(done).toBeLessThan(total);
  await expect(page.getByTestId('sweep-partial')).toContainText(`partial: ${done} of ${total} cells`);
  await expect(page.getByTestId('sweep-export-json')).toBeEnabled();
  await expect(page.getByTestId('sweep-export-json')).toHaveAttribute('data-partial', 'true');
  const json = await downloadText(page, 'sweep-export-json');
  expect(json.name).toMatch(new RegExp(`^seeupo-sweep-partial-${done}-of-${total}-\\d{8}-\\d{4}\\.json$`));
  const doc = JSON.parse(json.text) as { partial: { cells: number; of: number }; cells: { index: number }[] };
  expect(doc.partial).toEqual({ cells: done, of: total });
  expect(doc.cells).toHaveLength(done);
  const csv = await downloadText(page, 'sweep-export-csv');
  expect(csv.name).toMatch(/^seeupo-sweep-partial-/);
  expect(csv.text.trim().split('\n').length - 1).toBe(done * 9);
});

/** Open `fragment` in the running page, as the back button would. */
async function openInPage(page: Page, fragment: string): Promise<void> {
  await page.evaluate((f) => {
    history.pushState(null, '', `#${f}`);
    dispatchEvent(new PopStateEvent('popstate'));
  }, fragment);
}

// "No task over 50 ms" counts the page's own work: each main-thread task's CPU time, which a loaded
// machine does not stretch (a task's wall time grows with every other process that takes the core);
// e2e/main-thread.ts says how it is measured and why.
test('the page never blocks opening a 4,096-cell sweep link: no main-thread task over 50 ms of CPU from the moment it is opened', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await expect(page.getByTestId('tab-sweep')).toBeVisible();
  // 64 × 64 cells over a 65,536-sequence environment (16 tokens × 4 turns): a 476-character link
  // once froze the page for minutes resolving every cell; it is refused at once for its checking cost
  const grid = (path: string, from: number, to: number) => ({ path, grid: { from, to, count: 64 } });
  const heavy = encodeSweepLink({ version: 1, base: { version: 1, env: { preset: 'needle', turns: 4, vocab: 16 }, mode: 'exact', iterations: 2, seeds: 1, algorithms: [{ id: 'grpo' }] }, axes: [grid('optimizer.lr', 0.1, 10), grid('algorithms.*.clip', 0.1, 0.5)] } as never, DEFAULT_SWEEP_VIEW);
  expect(heavy.ok).toBe(true);
  const refusing = await watchMainThread(page);
  await openInPage(page, heavy.ok ? heavy.fragment : '');
  await expect(page.getByTestId('link-error')).toContainText('4,096 cells of this base cost');
  const refusedTasks = await refusing.stop();
  console.log(`refusing the 476-character link: ${describeTasks(refusedTasks)}`);
  expect(overCpu(refusedTasks)).toEqual([]);
  // 4,096 cells of a small base, from the explorer: the switch to the Sweep view and the check of its
  // cells (a slice at a time in a worker, Run on once they all are) without a task over 50 ms
  const light = encodeSweepLink({ version: 1, base: { version: 1, env: { preset: 'lock' }, mode: 'exact', iterations: 20, seeds: 1, algorithms: [{ id: 'grpo' }] }, axes: [grid('optimizer.lr', 0.1, 10), grid('algorithms.*.clip', 0.1, 0.5)] } as never, DEFAULT_SWEEP_VIEW);
  const accepting = await watchMainThread(page);
  await openInPage(page, light.ok ? light.fragment : '');
  await expect(page.getByTestId('sweep-view')).toBeVisible();
  await expect(page.getByTestId('sweep-size')).toContainText('64 × 64 = 4,096 cells');
  await expect(page.getByTestId('sweep-run')).toBeDisabled();
  await expect(page.getByTestId('sweep-run')).toBeEnabled({ timeout: 120_000 });
  const tasks = await accepting.stop();
  console.log(`opening the 4,096-cell link from the explorer: ${describeTasks(tasks)}`);
  expect(overCpu(tasks)).toEqual([]);
  expect(problems).toEqual([]);
});

test('a link with rewards of ±1e308 renders (the ticks of a range past float64 were an endless list)', async ({ page }) => {
  const problems = watchProblems(page);
  const base = { version: 1, env: { turns: 2, vocab: 2, tokensPerTurn: 1, rewards: [[1e308, -1e308, 1e308, 0]] }, mode: 'exact', iterations: 5, seeds: 1, algorithms: [{ id: 'grpo' }] };
  const link = encodeSweepLink({ version: 1, base, axes: [{ path: 'optimizer.lr', values: [0.1, 1] }] } as never, DEFAULT_SWEEP_VIEW);
  expect(link.ok).toBe(true);
  await page.goto(`/#${link.ok ? link.fragment : ''}`);
  await expect(page.getByTestId('sweep-view')).toBeVisible();
  await page.getByTestId('tab-explorer').click();
  await expect(page.locator('svg').first()).toBeVisible();
  // the address now holds the explorer's experiment with those rewards: a reload renders it again
  await page.reload();
  await expect(page.getByTestId('tab-sweep')).toBeVisible();
  await expect(page.locator('svg').first()).toBeVisible();
  expect(problems.filter((p) => /RangeError|Invalid array length/.test(p))).toEqual([]);
  expect(problems).toEqual([]);
});

test('a sweep past the work limit is refused before anything runs, naming its axes and size', async ({ page }) => {
  await openSweep(page);
  await page.getByTestId('tab-explorer').click();
  await page.getByTestId('field-seeds').fill('1024');
  await page.getByTestId('field-seeds').press('Enter');
  await page.getByTestId('tab-sweep').click();
  await page.getByTestId('sweep-axis-0-values').fill('0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5, 1, 2, 3, 5, 10, 20, 30, 50');
  await page.getByTestId('sweep-axis-0-values').press('Enter');
  await page.getByTestId('sweep-run').click();
  const error = page.getByTestId('sweep-error');
  await expect(error).toContainText('optimizer.lr (16 values) × algorithms.*.normalization (3 values) = 48 cells');
  await expect(error).toContainText('the limit is');
  await expect(page.getByTestId('sweep-progress')).toHaveCount(0);
});

test('a bad value names the axis and the value; a refused sweep link leaves the page as it was', async ({ page }) => {
  await openSweep(page);
  await page.getByTestId('sweep-axis-0-values').fill('0.1, -3');
  await page.getByTestId('sweep-axis-0-values').press('Enter');
  await expect(page.getByTestId('sweep-error')).toContainText('axes[0].values[1]: optimizer.lr');
  await expect(page.getByTestId('sweep-run')).toBeDisabled();
  await page.goto('/#v=1&sweep=AAAA');
  await expect(page.getByTestId('link-error')).toContainText('This sweep link cannot be opened: sweep:');
});

test('the explorer’s keys do nothing on the Sweep view; Enter on a cell opens it', async ({ page }) => {
  await openSweep(page);
  await page.locator('body').press(' ');
  await page.locator('body').press('ArrowRight');
  await page.getByTestId('sweep-axis-0-values').fill('0.3, 3');
  await page.getByTestId('sweep-axis-0-values').press('Enter');
  await page.getByTestId('sweep-remove-axis').click();
  await runSweepToEnd(page);
  await page.getByTestId('tab-explorer').click();
  await expect(page.getByTestId('progress')).toHaveAttribute('data-status', 'idle');
  await expect(page.getByTestId('progress')).toHaveAttribute('aria-valuenow', '0');
  await page.getByTestId('tab-sweep').click();
  await page.locator('[data-testid="sweep-cell"][data-cell="1"]').first().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('sweep-view')).toHaveCount(0);
  expect(await page.evaluate(() => decodeURIComponent(location.hash))).toContain('optimizer.lr=3');
});

test('an MLP experiment sweeps on the tensor executor, one cell at a time in the worker, and says so', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1&policy.kind=mlp&iterations=5&seeds=2&algorithms=[grpo,seeupo]');
  await page.getByTestId('tab-sweep').click();
  await expect(page.getByTestId('sweep-executor')).toContainText('tensor executor, one cell at a time');
  await page.getByTestId('sweep-axis-0-values').fill('0.3, 3');
  await page.getByTestId('sweep-axis-0-values').press('Enter');
  await page.getByTestId('sweep-remove-axis').click();
  await runSweepToEnd(page);
  await expect(page.getByTestId('sweep-cell')).toHaveCount(4);
  expect(problems).toEqual([]);
});
