import { expect, test, type Page } from '@playwright/test';
import { resolveConfig } from '../src/core/config/resolve';
import { inThisThread, runOnCpu } from '../src/exec/cpu/run-experiment';
import { finalStats, maxSeriesDiff, watchProblems, webgpuPageResult } from './helpers';

// A table shared across prompts (policy.shareContexts, docs/math.md "Policies") and J_γ (docs/math.md,
// "What is measured") on the WebGPU executor, on SwiftShader, against the CPU executor's float64
// numbers for the same config run here in Node: exact mode within 1e-4 on every J (per context too)
// and J_γ where it is recorded; sampled mode (each executor its own random streams) within 4
// standard errors on the mean final J.

interface PageRun {
  J: (number | null)[];
  Jgamma?: (number | null)[];
  Jcontext?: (number | null)[][];
}
type Result = { executor: string; config: Record<string, unknown>; algorithms: { id: string; runs: PageRun[] }[] };

async function cpuResult(config: Record<string, unknown>): Promise<Result> {
  const cfg = { ...config, executor: 'cpu' };
  return (await runOnCpu(resolveConfig(cfg), cfg, { threads: 1, launch: inThisThread })) as unknown as Result;
}

/** The page's run on the WebGPU executor and the CPU executor's for the same config (computed while the page runs). */
const pageResult = (page: Page, link: string, iterations: number) => webgpuPageResult<Result, Result>(page, link, iterations, 120_000, cpuResult);

/** J per context as one series per (algorithm, run, context), so maxSeriesDiff can walk it. */
const perContext = (r: Result) => ({
  algorithms: r.algorithms.map((a) => ({ id: a.id, runs: a.runs.flatMap((run) => (run.Jcontext ?? []).map((J) => ({ J }))) })),
});

const TURN_REWARDS = 'env.turnRewards.0=[[0.1,0,0.05],[0.02,0,0,0.2,0,0,0,0,0.05]]&env.turnRewards.1=[[0,0.3,0],[0,0,0,0,0,0,0,0,0.1]]';
const EXACT: [string, string, number][] = [
  [
    'the hand-worked case (one turn, A pays [1, 0], B pays [0, 0.5]): GRPO, PPO+GRAE with no and with batch normalization (SeeUPO)',
    'env.turns=1&env.vocab=2&env.tokensPerTurn=1&env.contexts=2&env.rewards=[[1,0],[0,0.5]]&policy.kind=tabular&policy.shareContexts=true&mode=exact&iterations=30&seeds=1&optimizer.kind=sgd&optimizer.lr=1&algorithms=[grpo,ppo-grae,seeupo]',
    30,
  ],
  [
    'two-prompts: every rule, group and batch normalization, the exact GAE advantage',
    'env.preset=two-prompts&policy.kind=tabular&policy.shareContexts=true&policy.initScale=0.5&mode=exact&iterations=25&seeds=2&algorithms=[reinforce,grpo,gspo,seeupo,seeupo-forward,ppo-gae]&algorithms.0.normalization=batch',
    25,
  ],
  [
    'two-prompts with Adam, epochs and mClip',
    'env.preset=two-prompts&policy.kind=tabular&policy.shareContexts=true&policy.initScale=0.5&mode=exact&iterations=20&seeds=2&optimizer.kind=adam&optimizer.lr=0.05&algorithms=[grpo,seeupo]&algorithms.1.epochs=2&algorithms.1.mClip=0.2',
    20,
  ],
  [
    'per-turn rewards at γ = 0.8 (J_γ recorded): GRPO, SeeUPO, PPO with GAE',
    `env.preset=two-prompts&env.gamma=0.8&${TURN_REWARDS}&policy.kind=tabular&policy.shareContexts=true&policy.initScale=0.3&mode=exact&iterations=20&seeds=2&algorithms=[grpo,seeupo,ppo-gae]`,
    20,
  ],
];

for (const [name, link, iterations] of EXACT) {
  test(`WebGPU executor, one table for every context, exact: J, J per context and J_γ within 1e-4 of the CPU executor's: ${name}`, async ({ page }) => {
    test.setTimeout(300_000);
    const problems = watchProblems(page);
    const { got, want } = await pageResult(page, link, iterations);
    expect(got.executor).toBe('webgpu');
    const dJ = maxSeriesDiff(got, want, 'J');
    const dCtx = maxSeriesDiff(perContext(got), perContext(want), 'J');
    const discounted = link.includes('env.gamma=0.8'); // γ < 1 with per-turn rewards: both executors record J_γ
    expect(want.algorithms[0]!.runs[0]!.Jgamma !== undefined).toBe(discounted);
    const dJg = discounted ? maxSeriesDiff(got, want, 'Jgamma') : NaN;
    console.log(`${name}: max |ΔJ| ${dJ.toExponential(2)}, per context ${dCtx.toExponential(2)}, J_γ ${discounted ? dJg.toExponential(2) : 'not recorded'}`);
    expect(dJ).toBeLessThanOrEqual(1e-4);
    expect(dCtx).toBeLessThanOrEqual(1e-4);
    if (discounted) expect(dJg).toBeLessThanOrEqual(1e-4);
    if (name.startsWith('the hand-worked')) {
      // group normalization: every context pulls the shared logits with the same strength, so GRPO never moves
      const grpo = got.algorithms[0]!.runs[0]!.J;
      expect(Math.abs(grpo[iterations]! - grpo[0]!)).toBeLessThan(1e-5);
      for (const a of got.algorithms.slice(1)) expect(a.runs[0]!.J[iterations]!).toBeGreaterThan(a.runs[0]!.J[0]! + 0.1); // PPO+GRAE goes to token 0 (J* = 0.5)
    }
    expect(problems).toEqual([]);
  });
}

test('WebGPU executor, one table for every context, sampled: mean final J within 4 standard errors of the CPU executor’s over 256 seeds (GRPO, SeeUPO, PPO with its critic; per-turn rewards)', async ({ page }) => {
  test.setTimeout(400_000);
  const problems = watchProblems(page);
  const link = `env.preset=two-prompts&env.gamma=0.8&${TURN_REWARDS}&policy.kind=tabular&policy.shareContexts=true&mode=sampled&iterations=30&seeds=256&algorithms=[grpo,seeupo,ppo-gae]`;
  const { got, want } = await pageResult(page, link, 30);
  got.algorithms.forEach((a, i) => {
    expect(a.runs.length).toBe(256);
    const g = finalStats(a.runs);
    const c = finalStats(want.algorithms[i]!.runs);
    const z = Math.abs(g.mean - c.mean) / Math.sqrt(g.se ** 2 + c.se ** 2 || 1e-30);
    console.log(`shared ${a.id}: WebGPU ${g.mean.toFixed(4)} ± ${g.se.toFixed(4)}, CPU ${c.mean.toFixed(4)} ± ${c.se.toFixed(4)}, z = ${z.toFixed(2)}`);
    expect(Math.abs(g.mean - c.mean)).toBeLessThanOrEqual(4 * Math.sqrt(g.se ** 2 + c.se ** 2) + 1e-6);
    // J_γ, the objective here (γ = 0.8 with per-turn rewards), in distribution too
    const gg = finalStats(a.runs.map((r) => ({ J: r.Jgamma! })));
    const cg = finalStats(want.algorithms[i]!.runs.map((r) => ({ J: r.Jgamma! })));
    console.log(`shared ${a.id} J_γ: WebGPU ${gg.mean.toFixed(4)} ± ${gg.se.toFixed(4)}, CPU ${cg.mean.toFixed(4)} ± ${cg.se.toFixed(4)}`);
    expect(Math.abs(gg.mean - cg.mean)).toBeLessThanOrEqual(4 * Math.sqrt(gg.se ** 2 + cg.se ** 2) + 1e-6);
  });
  expect(problems).toEqual([]);
});
