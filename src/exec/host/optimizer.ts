import type { Problem } from './problem';

// SGD and Adam on the tabular logits, as gradient ascent on the surrogate (docs/math.md "Update rules").
// Adam keeps one state per run across iterations and turns. A sequential update steps only
// the parameters of the turn being updated (each turn is its own agent, so momentum never
// moves a turn that is not being updated); bias correction counts each turn's own steps.

export const ADAM = { beta1: 0.9, beta2: 0.999, eps: 1e-8 } as const;

export interface OptimizerState {
  m: Float64Array;
  v: Float64Array;
  steps: Int32Array; // per turn
}

export function makeOptimizerState(pb: Problem, adam: boolean): OptimizerState {
  const size = adam ? pb.params : 0;
  return { m: new Float64Array(size), v: new Float64Array(size), steps: new Int32Array(pb.tree.T) };
}

/**
 * θ ← θ + lr·g. `turn` = −1 steps every turn, else only that turn's parameters. SGD touches
 * only the listed nodes (the gradient is zero elsewhere); Adam touches every parameter in scope.
 * Returns the finiteness probe Σ x·0 (scratch.ts) over every value it wrote: the new θ and, for
 * Adam, the new m and v. NaN iff one of them is not finite.
 */
export function optimizerStep(
  pb: Problem,
  kind: 'sgd' | 'adam',
  lr: number,
  theta: Float64Array,
  grad: Float64Array,
  st: OptimizerState,
  turn: number,
  list: Int32Array,
  from: number,
  to: number,
): number {
  const V = pb.tree.V;
  let probe = 0;
  if (kind === 'sgd') {
    for (let j = from; j < to; j++) {
      const o = list[j] * V;
      for (let a = 0; a < V; a++) probe += (theta[o + a] += lr * grad[o + a]) * 0;
    }
    return probe;
  }
  const { tree } = pb;
  for (let t = 0; t < tree.T; t++) if (turn < 0 || t === turn) st.steps[t]++;
  for (let x = 0; x < pb.nodes / tree.nodesPerContext; x++) {
    const base = x * tree.nodesPerContext; // parameter nodes: one context's worth when the table is shared
    for (let t = 0; t < tree.T; t++) {
      if (turn >= 0 && t !== turn) continue;
      const k = st.steps[t];
      const c1 = 1 - Math.pow(ADAM.beta1, k);
      const c2 = 1 - Math.pow(ADAM.beta2, k);
      const lo = (base + tree.offset[t * tree.L]) * V;
      const hi = (base + tree.offset[(t + 1) * tree.L]) * V;
      for (let i = lo; i < hi; i++) {
        const g = grad[i];
        const m = (st.m[i] = ADAM.beta1 * st.m[i] + (1 - ADAM.beta1) * g);
        const v = (st.v[i] = ADAM.beta2 * st.v[i] + (1 - ADAM.beta2) * g * g);
        probe += (theta[i] += (lr * (m / c1)) / (Math.sqrt(v / c2) + ADAM.eps)) * 0 + m * 0 + v * 0;
      }
    }
  }
  return probe;
}

/**
 * finishGradient, the SGD step and clearGradient at once, node by node (one pass instead of
 * three; each node's numbers are the same, and the nodes of `list` are distinct). π(·|n) is
 * probsOld where θ is still θ_old there, else exp(θ − logZ). Returns the probe as optimizerStep does.
 * A node with a nonzero gradient entry is marked moved (`marks`: its logZ and ratios stale); one without keeps its θ
 * exactly (θ + lr·0 = θ; no logit is ever −0, so not even its sign changes).
 */
export function finishAndStepSgd(
  V: number,
  lr: number,
  theta: Float64Array,
  grad: Float64Array,
  gsum: Float64Array,
  probsOld: Float64Array | null,
  logZ: Float64Array,
  list: Int32Array,
  from: number,
  to: number,
  marks: { logZAt: Int32Array; ratiosAt: Int32Array; movedAt: Int32Array; iterationStamp: number },
): number {
  let probe = 0;
  for (let j = from; j < to; j++) {
    const n = list[j];
    const o = n * V;
    const s = gsum[n];
    if (s !== 0) {
      if (probsOld) for (let a = 0; a < V; a++) grad[o + a] -= s * probsOld[o + a];
      else {
        const lz = logZ[n];
        for (let a = 0; a < V; a++) grad[o + a] -= s * Math.exp(theta[o + a] - lz);
      }
      gsum[n] = 0;
    }
    let moved = false;
    for (let a = 0; a < V; a++) {
      const g = grad[o + a];
      if (g !== 0) moved = true; // NaN too
      probe += (theta[o + a] += lr * g) * 0;
      grad[o + a] = 0;
    }
    if (moved) {
      marks.logZAt[n] = -1;
      marks.ratiosAt[n] = -1;
      marks.movedAt[n] = marks.iterationStamp;
    }
  }
  return probe;
}
