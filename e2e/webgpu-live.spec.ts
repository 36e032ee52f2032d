import { expect, test } from '@playwright/test';
import { resolveConfig } from '../src/core/config/resolve';
import { inThisThread, runOnCpu } from '../src/exec/cpu/run-experiment';
import { exportedResult, openSettings, settledProgress, watchProblems } from './helpers';

// The WebGPU executor paused part-way and its learning rate changed live: the change lands at the
// iteration the pause shows, as on the CPU executor, although the executor keeps its next
// dispatch in flight while it reads one back (src/exec/webgpu/shard.ts): it settles that dispatch
// before the pause is reported. Checked against the CPU executor run on the exported config, which
// holds the change at that iteration.

interface Exported {
  config: { changes?: { at: number; path: string; value: number }[] } & Record<string, unknown>;
  algorithms: { id: string; runs: { J: (number | null)[] }[] }[];
}

test('WebGPU executor: paused part-way, a live learning-rate change lands at the paused iteration, as on the CPU executor', async ({ page }) => {
  test.setTimeout(300_000);
  const problems = watchProblems(page);
  // 1,024 exact-mode runs (tens of ms an iteration on SwiftShader, so Pause lands part-way), a slow lr
  const iterations = 200;
  await page.goto(`/#v=1&env.preset=lock&mode=exact&iterations=${iterations}&seeds=512&policy.kind=tabular&policy.initScale=0.5&optimizer.kind=sgd&optimizer.lr=0.3&algorithms=[grpo,seeupo]&executor=webgpu`);
  await expect(page.getByTestId('backend-badge')).toHaveAttribute('data-executor', 'webgpu');
  await openSettings(page);
  await expect(page.getByTestId('run')).toBeEnabled();
  const progress = page.getByTestId('progress');
  await page.getByTestId('run').click();
  await expect.poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 120_000 }).toBeGreaterThan(10);
  await page.getByTestId('pause').click();
  await expect(progress).toHaveAttribute('data-status', 'paused');
  const at = await settledProgress(page);
  expect(at).toBeLessThan(iterations);
  await page.getByTestId('field-optimizer.lr').fill('3');
  await expect(page.getByTestId('notice')).toContainText('Applied without restarting');
  await page.getByTestId('run').click();
  await expect(progress).toHaveAttribute('data-status', /^(done|error)$/, { timeout: 240_000 });
  await expect(progress).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('backend-badge')).toHaveAttribute('data-backend', 'webgpu');
  const got = await exportedResult<Exported>(page);
  expect(got.config.changes).toContainEqual({ at, path: 'optimizer.lr', value: 3 });
  const cfg = { ...got.config, executor: 'cpu' };
  const want = await runOnCpu(resolveConfig(cfg), cfg, { threads: 1, launch: inThisThread });
  const gap = (ref: typeof want) => {
    let worst = 0;
    got.algorithms.forEach((a, i) => a.runs.forEach((run, r) => run.J.forEach((v, k) => (worst = Math.max(worst, Math.abs(v! - ref.algorithms[i]!.runs[r]!.J[k]!))))));
    return worst;
  };
  const worst = gap(want);
  // the same change an iteration later: how far a change landing late would be
  const late = { ...cfg, changes: [{ at: at + 1, path: 'optimizer.lr', value: 3 }] };
  const lateGap = gap(await runOnCpu(resolveConfig(late), late, { threads: 1, launch: inThisThread }));
  console.log(`paused at ${at}, lr 0.3 → 3 there: max |ΔJ| against the CPU executor ${worst.toExponential(2)}; against it with the change an iteration late ${lateGap.toExponential(2)}`);
  // float32 against float64 over 200 iterations at lr 3 drifts further than the short cases of
  // webgpu.spec.ts (5e-4 to 1.3e-3 seen); a change landing an iteration late is off by about 0.7
  expect(worst).toBeLessThan(5e-3);
  expect(lateGap).toBeGreaterThan(0.05);
  expect(problems).toEqual([]);
});
