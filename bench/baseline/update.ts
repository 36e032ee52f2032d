// Optimizers and update rules (docs/math.md "Update rules"), written plainly: a fresh gradient
// table per step, ratios recomputed from the logits for every term.

import type { AlgorithmRecord } from '../../src/core/algo/records';
import type { Tree } from '../../src/core/env/tree';
import { addGradLogProb, logProb, range, turnOfNode, zerosLike, type TabularPolicy } from './policy';
import { shuffled, type Prng } from './prng';
import type { Rollout } from './rollout';

/** θ ← θ + lr·g (gradient ascent). `turn` = −1 steps every parameter, else only that turn's. */
export type Optimizer = (policy: TabularPolicy, grad: number[][], lr: number, turn: number) => void;

export function makeOptimizer(kind: 'sgd' | 'adam', tree: Tree): Optimizer {
  if (kind === 'sgd')
    return (policy, grad, lr) => policy.logits.forEach((row, n) => row.forEach((_, a) => (row[a] += lr * grad[n][a])));
  // Adam, β = (0.9, 0.999), ε = 1e-8: one state per run; a turn's bias correction counts its own steps.
  let m: number[][] | null = null;
  let v: number[][] | null = null;
  const steps = new Array<number>(tree.T).fill(0);
  return (policy, grad, lr, turn) => {
    m ??= zerosLike(policy);
    v ??= zerosLike(policy);
    for (let t = 0; t < tree.T; t++) if (turn < 0 || t === turn) steps[t]++;
    policy.logits.forEach((row, n) => {
      const t = turnOfNode(tree, n);
      if (turn >= 0 && t !== turn) return;
      const c1 = 1 - Math.pow(0.9, steps[t]);
      const c2 = 1 - Math.pow(0.999, steps[t]);
      for (let a = 0; a < row.length; a++) {
        const g = grad[n][a];
        m![n][a] = 0.9 * m![n][a] + 0.1 * g;
        v![n][a] = 0.999 * v![n][a] + 0.001 * g * g;
        row[a] += (lr * (m![n][a] / c1)) / (Math.sqrt(v![n][a] / c2) + 1e-8);
      }
    });
  };
}

/** (1/n) Σ_i Σ_k Â_i,k ∇log π(a_k | node_k) at the current logits. */
export function policyGradient(policy: TabularPolicy, batch: Rollout[], advTok: number[][]): number[][] {
  const grad = zerosLike(policy);
  batch.forEach((r, i) => r.tokens.forEach((a, k) => addGradLogProb(policy, grad, r.nodes[k], a, advTok[i][k] / batch.length)));
  return grad;
}

/** Tokens ks of a rollout sharing one ratio ('token': a single token) and their advantage. */
interface Term {
  ks: number[];
  A: number;
  kind: 'token' | 'product' | 'geomean';
}

export interface ClipCount {
  clipped: number;
  total: number;
}

export interface UpdateInput {
  policy: TabularPolicy;
  optimizer: Optimizer;
  algo: AlgorithmRecord;
  lr: number;
  clip: number;
  batch: Rollout[];
  adv: number[]; // per rollout (sequence ratio)
  advTok: number[][]; // per token (after the turn discount or GAE)
  rng: Prng;
  count: ClipCount;
  /** Called after each epoch (GAE's critic step). */
  afterEpoch?: () => void;
}

/** Gradient of the mean over `chunk` of Σ_terms min(ρA, clip(ρ)A) (geomean terms times their size). */
function clippedGradient(u: UpdateInput, chunk: number[], termsOf: (i: number) => Term[]): number[][] {
  const { policy, batch, clip, count } = u;
  const grad = zerosLike(policy);
  for (const i of chunk) {
    const r = batch[i];
    for (const term of termsOf(i)) {
      let logRatio = 0;
      for (const k of term.ks) logRatio += logProb(policy.logits[r.nodes[k]], r.tokens[k]) - r.logpOld[k];
      const ratio = Math.exp(term.kind === 'geomean' ? logRatio / term.ks.length : logRatio);
      const clipped = Math.min(Math.max(ratio, 1 - clip), 1 + clip);
      count.total++;
      if (Math.abs(ratio - 1) > clip) count.clipped++;
      if (ratio * term.A <= clipped * term.A)
        for (const k of term.ks) addGradLogProb(policy, grad, r.nodes[k], r.tokens[k], (term.A * ratio) / chunk.length);
    }
  }
  return grad;
}

/** `epochs` passes, each over `minibatches` shuffled chunks, one optimizer step per chunk. */
function runEpochs(u: UpdateInput, turn: number, termsOf: (i: number) => Term[]): void {
  const all = u.batch.map((_, i) => i);
  const size = u.batch.length / u.algo.minibatches;
  for (let e = 0; e < u.algo.epochs; e++) {
    const order = u.algo.minibatches > 1 ? shuffled(all, u.rng) : all;
    for (let c = 0; c < u.algo.minibatches; c++) {
      const grad = clippedGradient(u, order.slice(c * size, (c + 1) * size), termsOf);
      u.optimizer(u.policy, grad, u.lr, turn);
    }
    u.afterEpoch?.();
  }
}

export function reinforceUpdate(u: UpdateInput, pg: number[][]): void {
  u.optimizer(u.policy, pg, u.lr, -1);
  u.afterEpoch?.();
}

/** PPO/GRPO (token ratios) or GSPO (one geometric-mean ratio per rollout), all turns at once. */
export function ppuUpdate(u: UpdateInput): void {
  const all = range(u.policy.tree.N);
  runEpochs(u, -1, (i) =>
    u.algo.ratio === 'token'
      ? u.advTok[i].map((A, k) => ({ ks: [k], A, kind: 'token' as const }))
      : [{ ks: all, A: u.adv[i], kind: 'geomean' as const }],
  );
}

/** HAML / SeeUPO: one turn at a time in `order`, each turn's objective weighted by M. */
export function sequentialUpdate(u: UpdateInput): void {
  const { T, L } = u.policy.tree;
  const { order, turnRatio, mCorrection, mClip } = u.algo;
  const turns = range(T).map((t) => (order === 'reverse' ? T - 1 - t : t));
  const M = new Array<number>(u.batch.length).fill(1);
  for (const t of order === 'random' ? shuffled(turns, u.rng) : turns) {
    const ks = range(L).map((j) => t * L + j);
    runEpochs(u, t, (i) => [{ ks, A: u.advTok[i][t * L] * M[i], kind: turnRatio }]);
    if (!mCorrection) continue;
    u.batch.forEach((r, i) => {
      const logRatio = ks.reduce((s, k) => s + logProb(u.policy.logits[r.nodes[k]], r.tokens[k]) - r.logpOld[k], 0);
      M[i] *= Math.exp(logRatio);
      if (mClip !== null) M[i] = Math.min(Math.max(M[i], 1 - mClip), 1 + mClip);
    });
  }
}
