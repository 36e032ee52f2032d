import { expect, test } from '@playwright/test';
import { configure, runToEnd, watchProblems } from './helpers';

// Runs in the `no-webgpu` project: Chromium without --enable-unsafe-webgpu, so
// navigator.gpu exists but has no adapter.
const NO_ADAPTER = 'WebGPU unavailable: no adapter (start Chromium with --enable-unsafe-webgpu)';

test('without a WebGPU adapter the tensor executor falls back and the badge says why', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1');
  const badge = page.getByTestId('backend-badge');
  const why = page.getByTestId('backend-why');

  // Asked for webgpu: the attempt fails and the run falls back to webgl.
  await configure(page, { mode: 'exact', seeds: 2, iterations: 2, backend: 'webgpu' });
  await runToEnd(page, 2);
  await expect(badge).toHaveAttribute('data-executor', 'tensor');
  await expect(badge).toHaveAttribute('data-backend', 'webgl');
  await expect(why).toContainText(`webgpu failed: ${NO_ADAPTER}`);
  await expect(why).toContainText('fell back to webgl');

  // Auto (an MLP policy): no adapter, and software WebGL, so wasm.
  await configure(page, { policy: 'mlp', backend: 'auto', iterations: 3 });
  await runToEnd(page, 3);
  await expect(badge).toHaveAttribute('data-backend', 'wasm');
  await expect(why).toContainText(NO_ADAPTER);
  await expect(page.getByTestId('backend-label')).toHaveText('Tensor executor · tfjs wasm · float32');
  expect(problems).toEqual([]);
});

test('the WebGPU executor without an adapter: the CPU executor runs the experiment and the badge says why', async ({ page }) => {
  const problems = watchProblems(page);
  await page.goto('/#v=1&env.preset=lock&mode=exact&iterations=10&seeds=2&algorithms=[grpo,seeupo]&executor=webgpu');
  await runToEnd(page, 10);
  const badge = page.getByTestId('backend-badge');
  await expect(badge).toHaveAttribute('data-executor', 'webgpu');
  await expect(badge).toHaveAttribute('data-backend', 'cpu-fallback');
  await expect(page.getByTestId('backend-label')).toHaveText('WebGPU executor → CPU executor · float64');
  await expect(page.getByTestId('backend-why')).toContainText('WebGPU unavailable: no adapter');
  await expect(page.getByTestId('backend-why')).toContainText('the CPU executor (float64) ran it instead');
  expect(problems).toEqual([]);
});
