import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { resolveConfig } from '../src/core/config/resolve';
import { inThisThread, runOnCpu } from '../src/exec/cpu/run-experiment';
import { finalStats, maxSeriesDiff, watchProblems, webgpuPageResult } from './helpers';

// The WebGPU executor on SwiftShader: exact mode, every rule and option it runs, against
// the CPU executor's float64 numbers for the same config (run here in Node: the CPU executor gives
// the same numbers in every engine). Every J of every run and iteration within 1e-4.

interface PageRun {
  seed: number;
  J: (number | null)[];
  [metric: string]: unknown;
}

const METRICS = ['entropy', 'kl', 'clipFraction', 'zeroVarianceGroups', 'gradNorm'] as const;

/** Largest |webgpu − cpu| / max(1, |cpu|) of every other metric (optimalTokenProb per turn too), over every run and iteration. */
function metricDiffs(a: { algorithms: { runs: PageRun[] }[] }, b: { algorithms: { runs: unknown[] }[] }): Record<string, number> {
  const out: Record<string, number> = {};
  const worst = (name: string, x: unknown, y: unknown) => {
    const xs = x as (number | null)[], ys = y as (number | null)[];
    expect(xs, name).toHaveLength(ys.length);
    xs.forEach((v, k) => (out[name] = Math.max(out[name] ?? 0, Math.abs(v! - ys[k]!) / Math.max(1, Math.abs(ys[k]!)))));
  };
  a.algorithms.forEach((alg, i) =>
    alg.runs.forEach((run, r) => {
      const want = b.algorithms[i]!.runs[r] as Record<string, unknown>;
      for (const m of METRICS) worst(m, run[m], want[m]);
      (run.optimalTokenProb as unknown[]).forEach((t, j) => worst('optimalTokenProb', t, (want.optimalTokenProb as unknown[])[j]));
    }),
  );
  return out;
}

async function cpuResult(config: Record<string, unknown>) {
  const cfg = { ...config, executor: 'cpu' };
  return runOnCpu(resolveConfig(cfg), cfg, { threads: 1, launch: inThisThread });
}

/** The page's run on the WebGPU executor and the CPU executor's for the same config (computed while the page runs). */
const pageResult = (page: Page, link: string, iterations: number) =>
  webgpuPageResult<{ executor: string; config: Record<string, unknown>; algorithms: { id: string; runs: PageRun[] }[] }, Awaited<ReturnType<typeof cpuResult>>>(page, link, iterations, 120_000, cpuResult);

const CASES: [string, string, number][] = [
  ['every rule the kernel runs, SGD, batch normalization; HAML (no M), an algorithm’s own lr, a scheduled lr change', 'env.preset=lock&mode=exact&iterations=30&seeds=2&policy.kind=tabular&policy.initScale=0.5&algorithms=[reinforce,grpo,gspo,seeupo,seeupo-forward]&algorithms.4.mCorrection=false&algorithms.1.lr=0.5&changes.0.at=12&changes.0.path=optimizer.lr&changes.0.value=2', 30],
  ['Adam, group and no normalization, epochs, mClip, geomean turn ratio, two contexts with noise', 'env.preset=two-prompts&mode=exact&iterations=25&seeds=2&optimizer.kind=adam&optimizer.lr=0.05&algorithms=[grpo,seeupo,ppo-grae]&algorithms.0.normalization=group&algorithms.1.epochs=3&algorithms.1.mClip=0.2&algorithms.1.turnRatio=geomean&algorithms.2.normalization=none&algorithms.2.clip=0.1', 25],
  ['PPO with the exact GAE advantage (Q − V) under every normalization, γ = 0.9', 'env.preset=lock&env.gamma=0.9&mode=exact&iterations=25&seeds=2&policy.kind=tabular&policy.initScale=0.3&algorithms=[ppo-gae,grpo,reinforce]&algorithms.0.normalization=batch&algorithms.1.advantage=gae&algorithms.1.normalization=group&algorithms.2.advantage=gae', 25],
  ['per-turn rewards (rewards-to-go baselines; GAE with turn rewards), γ = 0.8, group and batch normalization', 'env.preset=lock&env.gamma=0.8&env.turnRewards.0=[[0.1,0,0.05],[0.02,0,0,0.2,0,0,0,0,0.05]]&mode=exact&iterations=25&seeds=2&policy.kind=tabular&policy.initScale=0.3&algorithms=[grpo,seeupo,ppo-gae,reinforce,gspo]&algorithms.0.normalization=group&algorithms.3.normalization=batch', 25],
  ['the 5-turn lock at lr 300 (the opening lesson): reverse escapes the exit, forward does not', 'env.preset=lock&env.turns=5&mode=exact&iterations=10&seeds=1&optimizer.kind=sgd&optimizer.lr=300&algorithms=[seeupo,seeupo-forward,grpo]', 10],
];

for (const [name, link, iterations] of CASES) {
  test(`WebGPU executor = CPU executor within 1e-4 on every J and every metric: ${name}`, async ({ page }) => {
    const problems = watchProblems(page);
    const { got, want } = await pageResult(page, link, iterations);
    expect(got.executor).toBe('webgpu');
    const worst = maxSeriesDiff(got, want, 'J');
    console.log(`${name}: max |ΔJ| = ${worst.toExponential(2)}`);
    const others = metricDiffs(got, want as unknown as { algorithms: { runs: unknown[] }[] });
    console.log(`${name}: other metrics, max |Δ|/max(1, |x|): ${Object.entries(others).map(([k, v]) => `${k} ${v.toExponential(2)}`).join(', ')}`);
    for (const [metric, d] of Object.entries(others)) expect(d, metric).toBeLessThan(1e-4);
    expect(worst).toBeLessThan(1e-4);
    expect(problems).toEqual([]);
  });
}

// (the default nine hold GRPO, SeeUPO in reverse and random order and REINFORCE with SGD under no,
// group and batch normalization: a case of those four alone on the same lock ran the same check again)
const SAMPLED: [string, string, number][] = [
  ['sampled lock, the default nine algorithms (SGD; no, group and batch normalization; PPO with its GAE critic, SeeUPO in reverse, forward and random order)', 'env.preset=lock&mode=sampled&iterations=40&seeds=256', 40],
  ['sampled lock, GAE with its critic: PPO, REINFORCE and GRPO with GAE, group and batch normalization, own critic lr', 'env.preset=lock&mode=sampled&iterations=60&seeds=1024&algorithms=[ppo-gae,reinforce,grpo]&algorithms.1.advantage=gae&algorithms.2.advantage=gae&algorithms.2.normalization=group&algorithms.0.normalization=batch&algorithms.1.criticLr=0.5', 60],
  ['sampled lock with per-turn rewards (γ = 0.8): GRPO (group), SeeUPO, RLOO (batch), PPO with its critic', 'env.preset=lock&env.gamma=0.8&env.turnRewards.0=[[0.1,0,0.05],[0.02,0,0,0.2,0,0,0,0,0.05]]&mode=sampled&iterations=40&seeds=256&algorithms=[grpo,seeupo,rloo,ppo-gae]&algorithms.0.normalization=group&algorithms.2.normalization=batch', 40],
  ['sampled two-prompts (noise, B = 1 of 2 contexts), RLOO, PPO with minibatches and epochs, GSPO, Adam', 'env.preset=two-prompts&env.contextsPerBatch=1&mode=sampled&iterations=40&seeds=256&optimizer.kind=adam&optimizer.lr=0.05&algorithms=[rloo,ppo-grae,gspo]&algorithms.1.minibatches=4&algorithms.1.epochs=2', 40],
];

for (const [name, link, iterations] of SAMPLED) {
  test(`WebGPU executor, sampled: mean final J within 4 standard errors of the CPU executor's over 256 seeds or more: ${name}`, async ({ page }) => {
    test.setTimeout(300_000);
    const problems = watchProblems(page);
    const { got, want } = await pageResult(page, link, iterations);
    got.algorithms.forEach((a, i) => {
      expect(a.runs.length).toBeGreaterThanOrEqual(256);
      const g = finalStats(a.runs);
      const c = finalStats(want.algorithms[i]!.runs);
      const z = Math.abs(g.mean - c.mean) / Math.sqrt(g.se ** 2 + c.se ** 2 || 1e-30);
      console.log(`${a.id}: WebGPU ${g.mean.toFixed(4)} ± ${g.se.toFixed(4)}, CPU ${c.mean.toFixed(4)} ± ${c.se.toFixed(4)}, z = ${z.toFixed(2)}`);
      expect(Math.abs(g.mean - c.mean)).toBeLessThanOrEqual(4 * Math.sqrt(g.se ** 2 + c.se ** 2) + 1e-6);
    });
    expect(problems).toEqual([]);
  });
}

test('a lost device mid-run: the CPU executor continues from the last completed iteration, and the badge says why', async ({ page }) => {
  test.setTimeout(300_000);
  const problems = watchProblems(page);
  const link = 'env.preset=lock&mode=exact&iterations=40&seeds=2&policy.kind=tabular&policy.initScale=0.5&optimizer.kind=adam&optimizer.lr=0.05&algorithms=[grpo,seeupo]';
  await page.goto(`/#v=1&${link}&executor=webgpu`);
  for (let i = 1; i <= 3; i++) {
    await page.getByTestId('step').click();
    // wait on the page's state: the first Step compiles the kernel, seconds on SwiftShader on a busy machine
    await expect(page.getByTestId('progress')).toHaveAttribute('aria-valuenow', String(i), { timeout: 120_000 });
  }
  const worker = page.workers().find((w) => w.url().includes('webgpu-session-worker'));
  expect(worker, 'the WebGPU session worker').toBeDefined();
  await worker!.evaluate(() => (globalThis as unknown as { __seeupoWebGpuDevice: GPUDevice }).__seeupoWebGpuDevice.destroy());
  await page.getByTestId('run').click();
  await expect(page.getByTestId('progress')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  const badge = page.getByTestId('backend-badge');
  await expect(badge).toHaveAttribute('data-backend', 'cpu-fallback');
  await expect(page.getByTestId('backend-why')).toContainText('the WebGPU device was lost (destroyed');
  await expect(page.getByTestId('backend-why')).toContainText('at iteration 3; the CPU executor (float64) continued from there');
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  const got = JSON.parse(readFileSync((await d.path())!, 'utf8')) as { config: Record<string, unknown>; algorithms: { id: string; runs: PageRun[] }[] };
  const want = await cpuResult(got.config);
  got.algorithms.forEach((a, i) =>
    a.runs.forEach((run, r) => {
      const cpuJ = want.algorithms[i]!.runs[r]!.J;
      // the GPU's iterations 1–3, then the CPU executor's from the GPU's float32 logits: one curve, within float32 rounding of a CPU-only run
      for (let k = 0; k <= 40; k++) expect(Math.abs(run.J[k]! - cpuJ[k]!), `${a.id} seed ${r} iteration ${k}`).toBeLessThan(1e-4);
    }),
  );
  expect(problems).toEqual([]);
});
