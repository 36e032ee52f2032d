// The straightforward implementation of sampled mode: one (algorithm, seed) run at a time, one
// iteration after another, plain arrays allocated as needed. Exact J (and entropy, optimal-token
// probability per turn) comes from the engine's evaluator, as the executor computes it every iteration.

import type { Experiment } from '../../src/core/config/resolve';
import { computeOptimum, evaluatePolicy, makeEvalScratch, makePolicyValue, type Optimum, type PolicyValue } from '../../src/core/env/exact';
import { buildTree, type Tree } from '../../src/core/env/tree';
import { CHANGE_PATH } from '../../src/core/run/changes';
import { criticStep, gaeAdvantages, outcomeAdvantages, tokenAdvantages, zeroVarianceGroups } from './advantage';
import { clonePolicy, gradNorm, makePolicy, nodeKl, softmax, type TabularPolicy } from './policy';
import { makePrng } from './prng';
import { sampleBatch } from './rollout';
import { makeOptimizer, policyGradient, ppuUpdate, reinforceUpdate, sequentialUpdate, type UpdateInput } from './update';

/** Per-iteration metrics of one run (docs/math.md "What is measured"), as the CPU executor records them. */
export interface BaselineSeries {
  algoIndex: number;
  seedIndex: number;
  J: number[]; // iterations + 1
  entropy: number[];
  optimalTokenProb: number[][]; // per iteration, per turn
  kl: number[]; // iterations
  clipFraction: number[];
  zeroVarianceGroups: number[];
  gradNorm: number[];
  wallMs: number[];
  diverged: number | null;
}

export function evaluate(exp: Experiment, tree: Tree, opt: Optimum, policy: TabularPolicy): PolicyValue {
  const probs = new Float64Array(policy.logits.length * tree.V);
  policy.logits.forEach((row, n) => probs.set(softmax(row), n * tree.V));
  return evaluatePolicy(exp.env, tree, opt, probs, makeEvalScratch(tree), makePolicyValue(tree.T));
}

/** What an evaluation records (the engine's PolicyValue, or bench/scalar's plain-array one). */
export type Evaluator = (exp: Experiment, tree: Tree, opt: Optimum, policy: TabularPolicy) => { J: number; entropy: number; optimalProb: ArrayLike<number> };

export function runBaselineRun(exp: Experiment, algoIndex: number, seedIndex: number, opt?: Optimum, evaluateWith: Evaluator = evaluate): BaselineSeries {
  if (exp.mode !== 'sampled' || exp.policy.kind !== 'tabular') throw new Error('the baseline runs tabular policies in sampled mode only');
  const env = exp.env;
  const tree = buildTree(env);
  const optimum = opt ?? computeOptimum(env, tree);
  const algo = exp.algorithms[algoIndex];
  const policy = makePolicy(tree, env.contexts, exp.policy.initScale, makePrng(exp.seed, seedIndex, -1));
  const rng = makePrng(exp.seed, seedIndex, algoIndex);
  const optimizer = makeOptimizer(exp.optimizer.kind, tree);
  const critic = algo.advantage === 'gae' ? new Array<number>(policy.logits.length).fill(0) : null;
  let lr = exp.optimizer.lr;
  let clip = algo.clip;
  const s: BaselineSeries = {
    algoIndex,
    seedIndex,
    J: [],
    entropy: [],
    optimalTokenProb: [],
    kl: [],
    clipFraction: [],
    zeroVarianceGroups: [],
    gradNorm: [],
    wallMs: [],
    diverged: null,
  };
  const record = (v: ReturnType<Evaluator>) => {
    s.J.push(v.J);
    s.entropy.push(v.entropy);
    s.optimalTokenProb.push(Array.from(v.optimalProb));
  };
  record(evaluateWith(exp, tree, optimum, policy));
  for (let k = 0; k < exp.iterations; k++) {
    for (const c of exp.changes) {
      if (c.at !== k) continue;
      const m = CHANGE_PATH.exec(c.path)!;
      if (m[2] === undefined) lr = c.value;
      else if (Number(m[2]) === algoIndex) clip = c.value;
    }
    const t0 = performance.now();
    const old = clonePolicy(policy);
    const batch = sampleBatch(env, tree, policy, exp.groupSize, rng);
    let adv: number[] = [];
    let advTok: number[][];
    let targets: number[][] = [];
    if (algo.advantage === 'gae') ({ advTok, targets } = gaeAdvantages(batch, critic!, tree, env.gamma, algo.gaeLambda, algo.normalization));
    else {
      adv = outcomeAdvantages(batch, algo.advantage, algo.normalization);
      advTok = tokenAdvantages(adv, tree, env.gamma);
    }
    const pg = policyGradient(policy, batch, advTok);
    const u: UpdateInput = {
      policy,
      optimizer,
      algo,
      lr,
      clip,
      batch,
      adv,
      advTok,
      rng,
      count: { clipped: 0, total: 0 },
      afterEpoch: critic ? () => criticStep(critic, batch, targets, algo.criticLr ?? lr) : undefined,
    };
    if (algo.rule === 'reinforce') reinforceUpdate(u, pg);
    else if (algo.rule === 'ppu') ppuUpdate(u);
    else sequentialUpdate(u);
    let kl = 0;
    for (const r of batch) for (const n of r.nodes) kl += nodeKl(old.logits[n], policy.logits[n]) / (batch.length * tree.N);
    s.kl.push(kl);
    s.clipFraction.push(u.count.total > 0 ? u.count.clipped / u.count.total : 0);
    s.zeroVarianceGroups.push(zeroVarianceGroups(batch));
    s.gradNorm.push(gradNorm(pg));
    const v = evaluateWith(exp, tree, optimum, policy);
    s.wallMs.push(performance.now() - t0);
    if (!Number.isFinite(v.J)) {
      s.diverged = k + 1;
      break;
    }
    record(v);
  }
  return s;
}

/** Every (algorithm, seed) run of the experiment, one after the other (seeds: which seed indices). */
export function runBaseline(exp: Experiment, seeds: number[] = Array.from({ length: exp.seeds }, (_, i) => i)): BaselineSeries[] {
  const opt = computeOptimum(exp.env, buildTree(exp.env));
  const out: BaselineSeries[] = [];
  exp.algorithms.forEach((_, a) => seeds.forEach((seed) => out.push(runBaselineRun(exp, a, seed, opt))));
  return out;
}
