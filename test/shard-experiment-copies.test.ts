import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { betaQuantile, clopperPearson } from '../src/core/claims/stats';
import { inThisThread, runOnCpu, runShardsOnCpu, type ShardLauncher } from '../src/exec/cpu/run-experiment';
import { allRuns, partitionRuns } from '../src/core/run/partition';

// Shards get the experiment already resolved (run-experiment.ts), one copy each: a shard writes
// the scheduled changes (learning rate, clips) into its experiment, so shards sharing one
// experiment, or the runner's own, would start later shards from changed values.

const config = {
  version: 1,
  env: { preset: 'two-prompts' },
  mode: 'sampled',
  iterations: 12,
  seeds: 3,
  algorithms: [{ id: 'seeupo' }, { id: 'grpo' }, { id: 'reinforce' }],
  changes: [
    { at: 4, path: 'optimizer.lr', value: 0.05 },
    { at: 7, path: 'algorithms[1].clip', value: 0.05 },
    { at: 7, path: 'optimizer.lr', value: 2 },
  ],
};

describe('each shard runs its own copy of the resolved experiment', () => {
  it('three shards on this thread give the curves of one shard; the runner\'s experiment keeps its starting values', async () => {
    const exp = resolveConfig(config);
    const before = JSON.stringify(exp);
    const one = await runOnCpu(exp, config, { threads: 1, launch: inThisThread });
    const three = await runOnCpu(exp, config, { threads: 3, launch: inThisThread });
    expect(JSON.stringify(exp)).toBe(before); // no shard wrote into it
    const curves = (r: typeof one) => r.algorithms.map((a) => a.runs.map((run) => run.J));
    expect(curves(three)).toEqual(curves(one));
    // and the changes did apply: the same runs without them differ
    const plain = { ...config, changes: [] };
    const without = await runOnCpu(resolveConfig(plain), plain, { threads: 1, launch: inThisThread });
    expect(curves(without)).not.toEqual(curves(one));
  });

  it('the requests carry the experiment (a copy per shard) beside the raw config', async () => {
    const exp = resolveConfig(config);
    const seen: { config: unknown; exp: unknown; text: string }[] = [];
    const spy: ShardLauncher = (req, onMessage) => {
      seen.push({ config: req.config, exp: req.exp, text: JSON.stringify(req.exp) }); // as launched: the shard then writes its changes into it
      return inThisThread(req, onMessage);
    };
    await runShardsOnCpu(exp, { config }, partitionRuns(allRuns(exp), 2), { threads: 2, launch: spy });
    expect(seen).toHaveLength(2);
    expect(seen[0]!.config).toBe(config);
    expect(seen[0]!.exp).not.toBe(exp);
    expect(seen[0]!.exp).not.toBe(seen[1]!.exp);
    for (const s of seen) expect(s.text).toBe(JSON.stringify(exp));
  });
});

describe('Clopper–Pearson intervals kept by count', () => {
  it('are the bisection\'s values, every time, and a caller changing one changes no later answer', () => {
    for (const [k, n] of [[0, 1], [1, 1], [3, 16], [16, 16], [7, 64], [0, 300]] as const) {
      const expected = { lo: k <= 0 ? 0 : betaQuantile(0.025, k, n - k + 1), hi: k >= n ? 1 : betaQuantile(0.975, k + 1, n - k) };
      const first = clopperPearson(k, n);
      expect(first).toEqual(expected);
      first.lo = -1;
      expect(clopperPearson(k, n)).toEqual(expected);
    }
  });
});
