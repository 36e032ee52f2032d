import { expect, test } from '@playwright/test';
import { configure, exportedResult, finalJ, frames, maxSeriesDiff, runToEnd, settledProgress, watchProblems, RUN_TIMEOUT, type SeriesResult } from './helpers';

// Runs in Chromium with --enable-unsafe-webgpu: WebGPU is SwiftShader's software adapter here.
// Ten iterations: on the default lock at lr 0.3 every algorithm's J is still climbing then (by 0.02
// to 0.7 from its start), so a wrong update shows in every curve; by iteration 30 most sit near J*,
// where curves that went different ways meet again. Each costs ~0.5 s on SwiftShader's tfjs kernels.
const ITERATIONS = 10;
const ALGORITHMS = 9;
/** float32 (tfjs) against float64 (the CPU executor), every J of every run and iteration (measured ≤ 3e-7). */
const TOLERANCE = 1e-4;

test('exact tabular runs on the tensor executor (webgpu, then webgl) match the CPU executor at every iteration', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await configure(page, { mode: 'exact', seeds: 2, iterations: ITERATIONS });
  const badge = page.getByTestId('backend-badge');
  await expect(badge).toHaveAttribute('data-executor', 'cpu');

  const cpuSeconds = await runToEnd(page, ITERATIONS);
  const cpu = await exportedResult<SeriesResult & { executor: string }>(page);
  expect(cpu.algorithms).toHaveLength(ALGORITHMS);
  const cpuTable = await finalJ(page);
  for (const v of Object.values(cpuTable)) expect(v).toBeGreaterThanOrEqual(0);
  console.log(`cpu executor: ${cpuSeconds.toFixed(2)} s`);

  for (const backend of ['webgpu', 'webgl'] as const) {
    await configure(page, { backend });
    await expect(badge).toHaveAttribute('data-executor', 'tensor');
    await expect(badge).toHaveAttribute('data-backend', 'pending');
    await expect(badge).toContainText(`because backend ${backend} was asked for`);
    const seconds = await runToEnd(page, ITERATIONS);
    console.log(`tensor executor on ${backend}: ${seconds.toFixed(2)} s`);
    await expect(badge).toHaveAttribute('data-backend', backend);
    await expect(page.getByTestId('backend-label')).toContainText(`Tensor executor · tfjs ${backend}`);
    await expect(page.getByTestId('backend-why')).toContainText(`asked for ${backend}`);
    await expect(page.getByTestId('backend-why')).toContainText(`using ${backend}`);
    if (backend === 'webgpu') await expect(page.getByTestId('backend-label')).toContainText('swiftshader (software fallback)');
    await expect(page.getByTestId('chart-return').locator('.plot-line path.plot-line-curve')).toHaveCount(ALGORITHMS);
    await expect(page.getByTestId('summary-note')).toContainText(`on the tensor executor (tfjs ${backend})`);
    const tensor = await exportedResult<SeriesResult & { executor: string }>(page);
    expect(tensor.executor).toBe('tensor');
    const worst = maxSeriesDiff(tensor, cpu, 'J');
    console.log(`tensor executor on ${backend}: max |ΔJ| to the CPU executor over every run and iteration ${worst.toExponential(2)}`);
    expect(worst, `tensor executor on ${backend}`).toBeLessThanOrEqual(TOLERANCE);
    // and the summary table's final J, as before
    const table = await finalJ(page);
    for (const [id, j] of Object.entries(cpuTable)) expect(Math.abs(table[id]! - j), `${id} on ${backend}: tensor ${table[id]} vs cpu ${j}`).toBeLessThanOrEqual(TOLERANCE);
  }
  expect(problems).toEqual([]);
});

test('an MLP policy on auto prefers wasm over the software WebGPU adapter and says why', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await configure(page, { policy: 'mlp', mode: 'exact', seeds: 2, iterations: 20 });
  const badge = page.getByTestId('backend-badge');
  await expect(badge).toHaveAttribute('data-executor', 'tensor');
  await expect(badge).toContainText('MLP policy');
  await runToEnd(page, 20);
  await expect(badge).toHaveAttribute('data-backend', 'wasm');
  await expect(page.getByTestId('backend-why')).toContainText(
    'WebGPU adapter is a software fallback (google swiftshader); wasm is faster here',
  );
  for (const j of Object.values(await finalJ(page))) {
    expect(j).toBeGreaterThanOrEqual(0);
    expect(j).toBeLessThanOrEqual(1);
  }
  expect(problems).toEqual([]);
});

test('a bad value is refused beside its control and never starts a run', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  const run = page.getByTestId('run');
  await page.getByTestId('field-iterations').fill('0');
  await expect(page.getByTestId('error-iterations')).toHaveText('iterations: must be an integer from 1 to 100000, got 0');
  await expect(page.getByTestId('field-iterations')).toHaveAttribute('aria-invalid', 'true');
  await expect(run).toBeDisabled();
  await run.click({ force: true });
  await expect(page.getByTestId('progress')).toHaveAttribute('data-status', 'idle');

  await page.getByTestId('field-iterations').fill('10');
  await page.getByTestId('field-seeds').fill('2.5');
  await expect(page.getByTestId('error-iterations')).toHaveCount(0);
  await expect(page.getByTestId('error-seeds')).toContainText('seeds: must be an integer');
  await expect(run).toBeDisabled();
  await page.getByTestId('field-seeds').fill('2');
  await expect(page.locator('.field-error')).toHaveCount(0);
  await expect(run).toBeEnabled();

  // A combination resolveConfig refuses: the CPU executor runs tabular policies only.
  await configure(page, { policy: 'mlp' });
  await page.locator('.force-menu summary').click();
  await page.getByTestId('field-executor').selectOption('cpu');
  await expect(page.getByTestId('error-executor')).toContainText(/^executor: /);
  await expect(run).toBeDisabled();
  await page.getByTestId('field-executor').selectOption('auto');
  await expect(page.locator('.field-error')).toHaveCount(0);
  await expect(run).toBeEnabled();
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('Pause stops a running tensor-executor run at once; Reset ends its worker', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  await configure(page, { mode: 'exact', seeds: 2, iterations: 500, backend: 'webgl' });
  await page.getByTestId('run').click();
  const progress = page.getByTestId('progress');
  await expect(progress).not.toHaveAttribute('aria-valuenow', '0', { timeout: RUN_TIMEOUT });
  await page.getByTestId('pause').click();
  await expect(progress).toHaveAttribute('data-status', 'paused');
  await expect(page.getByTestId('run')).toBeEnabled();
  const at = await settledProgress(page); // the step in flight lands
  await frames(page, 90);
  await expect(progress).toHaveAttribute('aria-valuenow', String(at));
  const tensorWorkers = () => page.workers().filter((w) => w.url().includes('tensor-session-worker')).length;
  expect(tensorWorkers()).toBe(1); // the paused run's worker is still there
  await page.getByTestId('reset').click();
  await expect(progress).toHaveAttribute('aria-valuenow', '0');
  // the tensor executor's worker ends (the page keeps warm CPU workers in its pool by design)
  await expect.poll(tensorWorkers).toBe(0);
  expect(problems).toEqual([]);
});
