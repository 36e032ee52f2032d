import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { allRuns } from '../src/core/run/partition';
import { Rng } from '../src/core/rng';
import { buildProblem } from '../src/exec/host/problem';
import { makeScratch } from '../src/exec/host/scratch';
import { makeRun } from '../src/exec/host/state';
import { fixedShapeCopy } from '../src/exec/cpu/algo-copy';
import { attachExactKernel, kernelOf } from '../src/exec/cpu/exact-kernel';
import { exactKernelBytes } from '../src/exec/cpu/exact-kernel-wasm';
import { iterate, type StepMetrics } from '../src/exec/cpu/iterate';

// Exact mode's PPU step runs in the shard's kernel (src/exec/cpu/exact-kernel.ts): WebAssembly
// where it compiles, its JavaScript twins elsewhere. Both must give, bit for bit, what the step
// of rules.ts (clippedStep, the path without a kernel) gives, and the kernel's exp and log must be
// Math.exp's and Math.log's.

/** Every metric of every iteration of every run, then every run's final θ; `kernel`: none, or the kernel's kind. */
function trajectory(config: unknown, kernel: 'none' | 'js' | 'wasm'): number[] {
  const exp = resolveConfig(config as never);
  const pb = buildProblem(exp);
  const sc = makeScratch(pb);
  const specs = allRuns(exp);
  const P = pb.params;
  const theta = kernel === 'none' ? new Float64Array(P * specs.length) : attachExactKernel(pb, sc, specs.length, kernel === 'wasm')!;
  expect(theta).not.toBeNull();
  const runs = specs.map((s, r) => makeRun(pb, fixedShapeCopy(exp.algorithms[s.algoIndex]), s.algoIndex, s.seedIndex, theta.subarray(r * P, (r + 1) * P)));
  const m: StepMetrics = { kl: 0, clipFraction: 0, zeroVarianceGroups: 0, gradNorm: 0, finite: true };
  const out: number[] = [];
  for (let k = 0; k < exp.iterations; k++)
    for (const run of runs) {
      iterate(pb, run, sc, m);
      out.push(m.kl, m.clipFraction, m.gradNorm, m.zeroVarianceGroups, m.finite ? 1 : 0, sc.probe);
    }
  // the kernel stepped (its tables were built), and it is the kind asked for
  if (kernel !== 'none') expect([kernelOf(sc)?.kind, kernelOf(sc)!.builtAt > 0]).toEqual([kernel, true]);
  return [...out, ...theta];
}

const lock = (lr: number, initScale: number) => ({
  version: 1,
  env: { preset: 'lock' },
  mode: 'exact',
  policy: { kind: 'tabular', initScale },
  optimizer: { kind: 'sgd', lr },
  seeds: 2,
  iterations: 12,
  algorithms: [{ id: 'ppo-grae', epochs: 6 }, { id: 'ppo-gae', normalization: 'none', epochs: 5 }, { id: 'grpo', clip: 0.05 }],
});
const configs: Record<string, unknown> = {
  'lock, lr 1': lock(1, 1),
  // probabilities driven to 0: rollouts of weight 0, ratios far outside the clip range
  'lock, lr 100, initScale 2': lock(100, 2),
  'two-prompts, shared table': { version: 1, env: { preset: 'two-prompts' }, mode: 'exact', policy: { kind: 'tabular', shareContexts: true, initScale: 0.5 }, seeds: 1, iterations: 10, algorithms: [{ id: 'ppo-grae', epochs: 4 }, { id: 'grpo' }] },
};

describe('exact-mode PPU kernel', () => {
  for (const [name, config] of Object.entries(configs))
    it(`${name}: WebAssembly and JavaScript kernels step as clippedStep does, bit for bit`, () => {
      const reference = trajectory(config, 'none');
      expect(trajectory(config, 'wasm')).toEqual(reference);
      expect(trajectory(config, 'js')).toEqual(reference);
    });

  it("the kernel's exp and log are Math.exp's and Math.log's", () => {
    const mem = new WebAssembly.Memory({ initial: 1 });
    const k = new WebAssembly.Instance(new WebAssembly.Module(exactKernelBytes()), { m: { mem, exp: Math.exp, log: Math.log } }).exports as { exp: (x: number) => number; log: (x: number) => number };
    const rng = new Rng(7);
    const bits = new Float64Array(1);
    const words = new Uint32Array(bits.buffer);
    const xs = [0, -0, 1, -1, 2, 0.5, NaN, Infinity, -Infinity, 708, -708, 709.7, -745, 5e-324, 1e-310, 1e308, Math.SQRT2, Math.SQRT1_2, 1 + 2 ** -21, 1 - 2 ** -21];
    for (let i = 0; i < 100000; i++) {
      xs.push((rng.uniform() - 0.5) * 1500, (rng.uniform() - 0.5) * 2, 1 + rng.uniform() * 1e-5, rng.uniform() * 3);
      words[0] = rng.int(2 ** 30) * 4 + rng.int(4);
      words[1] = rng.int(2 ** 30) * 4 + rng.int(4);
      xs.push(bits[0]);
    }
    const mismatches = xs.filter((x) => !Object.is(k.exp(x), Math.exp(x)) || !Object.is(k.log(x), Math.log(x)));
    expect(mismatches).toEqual([]);
  });
});
