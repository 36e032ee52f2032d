import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/core/config/resolve';
import { computeOptimum, evaluatePolicy, makeEvalScratch, makePolicyValue, softmaxTable } from '../src/core/env/exact';
import { buildTree, decodeSequence } from '../src/core/env/tree';
import { ENV_PRESET_NAMES } from '../src/core/env/presets';
import { buildProblem } from '../src/exec/host/problem';
import { makeScratch } from '../src/exec/host/scratch';
import { makeRun } from '../src/exec/host/state';
import { sampleRollouts } from '../src/exec/host/rollouts';
import { customConfig, shardFor } from './support/engine';

const presetExp = (preset: string, extra: Record<string, unknown> = {}) => resolveConfig({ version: 1, env: { preset }, ...extra });

describe('J* and the optimal tokens equal brute force', () => {
  for (const name of [...ENV_PRESET_NAMES, 'random-table']) {
    it(name, () => {
      const exp =
        name === 'random-table'
          ? resolveConfig(customConfig({ T: 3, V: 3, L: 1, rewards: Array.from({ length: 27 }, (_, s) => ((s * 13) % 7) / 7), algorithms: [{ id: 'grpo' }] }))
          : presetExp(name);
      const tree = buildTree(exp.env);
      const opt = computeOptimum(exp.env, tree);
      let Jstar = 0;
      for (let x = 0; x < exp.env.contexts; x++) {
        const R = Array.from(exp.env.rewards[x]);
        const best = Math.max(...R);
        Jstar += best / exp.env.contexts;
        // token a at node (p, prefix) is optimal iff some sequence through it reaches `best`
        for (let p = 0; p < tree.N; p++) {
          const width = tree.offset[p + 1] - tree.offset[p];
          for (let q = 0; q < width; q++) {
            const node = x * tree.nodesPerContext + tree.offset[p] + q;
            const span = Math.pow(tree.V, tree.N - p - 1);
            for (let a = 0; a < tree.V; a++) {
              const lo = (q * tree.V + a) * span;
              const bestThrough = Math.max(...R.slice(lo, lo + span));
              const nodeBest = Math.max(...R.slice(q * tree.V * span, (q + 1) * tree.V * span));
              expect(opt.optimal[node * tree.V + a] === 1, `x${x} p${p} q${q} a${a}`).toBe(bestThrough >= nodeBest - 1e-12);
            }
          }
        }
      }
      expect(opt.Jstar).toBeCloseTo(Jstar, 14);
    });
  }
  it('lock: J* = 1 along 0-1-0; two-prompts: J* = (1 + 0.25)/2', () => {
    const lock = presetExp('lock');
    const opt = computeOptimum(lock.env, buildTree(lock.env));
    expect(opt.Jstar).toBe(1);
    expect(Array.from(opt.path[0])).toEqual([0, 1, 5]); // root, node "0" (1 + 0), node "01" (offset 4 + prefix 1)
    expect(computeOptimum(presetExp('two-prompts').env, buildTree(presetExp('two-prompts').env)).Jstar).toBe(0.625);
  });
});

describe('exact evaluation of a policy', () => {
  it('uniform policy: J = mean reward, entropy = log V, optimal-turn probability = V^-L', () => {
    const exp = presetExp('tokens');
    const tree = buildTree(exp.env);
    const opt = computeOptimum(exp.env, tree);
    const probs = new Float64Array(tree.nodesPerContext * tree.V);
    softmaxTable(new Float64Array(probs.length), tree.V, probs, new Float64Array(tree.nodesPerContext));
    const v = evaluatePolicy(exp.env, tree, opt, probs, makeEvalScratch(tree), makePolicyValue(tree.T));
    expect(v.J).toBeCloseTo((1 + 4 * 0.4) / 16, 15);
    expect(v.entropy).toBeCloseTo(Math.log(2), 15);
    expect(Array.from(v.optimalProb)).toEqual([0.25, 0.25]);
  });

  it('exact J equals the mean return of sampled rollouts within 4 standard errors (noise included)', () => {
    const cfg = { version: 1, env: { preset: 'two-prompts', noise: [{ kind: 'gaussian', sigma: 0.5 }, { kind: 'bernoulli' }] }, mode: 'sampled', groupSize: 4096, policy: { kind: 'tabular', initScale: 1 }, algorithms: [{ id: 'grpo' }] };
    const exp = resolveConfig(cfg);
    const pb = buildProblem(exp);
    const sc = makeScratch(pb);
    const run = makeRun(pb, exp.algorithms[0], 0, 0, new Float64Array(pb.params));
    softmaxTable(run.theta, pb.tree.V, sc.probs, sc.evalLogZ);
    const J = evaluatePolicy(pb.env, pb.tree, pb.opt, sc.probs, sc.evalScratch, sc.value).J;
    let s = 0, ss = 0, n = 0;
    for (let rep = 0; rep < 10; rep++) {
      sampleRollouts(pb, run, sc);
      for (let i = 0; i < sc.batch.n; i++) { s += sc.batch.reward[i]; ss += sc.batch.reward[i] ** 2; n++; }
    }
    const mean = s / n;
    const se = Math.sqrt((ss / n - mean * mean) / n);
    expect(Math.abs(mean - J)).toBeLessThan(4 * se);
    expect(se).toBeLessThan(0.01);
  });

  it('sampled rollouts visit each sequence with its exact probability (chi-square style bound)', () => {
    const exp = resolveConfig(customConfig({ T: 2, V: 3, L: 1, rewards: Array.from({ length: 9 }, (_, s) => s), mode: 'sampled', groupSize: 4096, initScale: 1, algorithms: [{ id: 'grpo' }] }));
    const pb = buildProblem(exp);
    const sc = makeScratch(pb);
    const run = makeRun(pb, exp.algorithms[0], 0, 3, new Float64Array(pb.params));
    softmaxTable(run.theta, pb.tree.V, sc.probs, sc.evalLogZ);
    const leafProb = new Float64Array(9); // the sequences' probabilities (sampled mode's scratch keeps none)
    evaluatePolicy(pb.env, pb.tree, pb.opt, sc.probs, { ...sc.evalScratch, leafProb }, sc.value);
    const P = leafProb;
    const counts = new Array(9).fill(0);
    sampleRollouts(pb, run, sc);
    for (let i = 0; i < sc.batch.n; i++) counts[sc.batch.reward[i]]++; // reward = sequence index
    for (let s = 0; s < 9; s++) {
      const sd = Math.sqrt(4096 * P[s] * (1 - P[s]));
      expect(Math.abs(counts[s] - 4096 * P[s])).toBeLessThan(4.5 * sd + 1);
    }
    const seq = decodeSequence(pb.tree, 7);
    expect(Array.from(seq)).toEqual([2, 1]);
  });
});

describe('sampled mode approaches exact mode', () => {
  it('with G = 4096 the first step is close to the exact first step (REINFORCE and SeeUPO)', () => {
    for (const algo of [{ id: 'reinforce' }, { id: 'seeupo', normalization: 'none' }]) {
      const env = { T: 2, V: 3, L: 1, rewards: [1, 0, 0, 0, 0.5, 0, 0.2, 0.2, 0.2], initScale: 0, lr: 1, algorithms: [algo] };
      const exact = shardFor(customConfig({ ...env, mode: 'exact' }));
      const steps: number[] = [];
      exact.step();
      const exactTheta = Array.from(exact.runs[0].theta);
      const sampled = shardFor(customConfig({ ...env, mode: 'sampled', groupSize: 4096, seeds: 4 }));
      const init = Array.from(sampled.runs[0].theta);
      sampled.step();
      // average the 4 seeds' steps: the sampling error shrinks as 1/√(4·4096)
      for (let i = 0; i < init.length; i++) {
        let m = 0;
        for (let r = 0; r < 4; r++) m += sampled.runs[r].theta[i] / 4;
        steps.push(m);
      }
      const exactStep = exactTheta.map((v, i) => v - init[i]);
      const sampledStep = steps.map((v, i) => v - init[i]);
      const scale = Math.max(...exactStep.map(Math.abs));
      expect(scale).toBeGreaterThan(0.01);
      for (let i = 0; i < init.length; i++) expect(Math.abs(sampledStep[i] - exactStep[i])).toBeLessThan(0.1 * scale);
    }
  });
});
