// Tabular softmax policy over Float64Array logits: one vector of V logits per decision node.
// Gradients are accumulated per token as coefficients c on ∇log π(a|n) = e_a − π(·|n):
// g[n,a] += c and gsum[n] += c, then finishGradient subtracts gsum[n]·π(·|n) once per node.

/** log Σ_a exp(θ[n,a]) for node n. */
export function logNormalizer(theta: Float64Array, V: number, n: number): number {
  const o = n * V;
  let m = -Infinity;
  for (let a = 0; a < V; a++) if (theta[o + a] > m) m = theta[o + a];
  let s = 0;
  for (let a = 0; a < V; a++) {
    const d = theta[o + a] - m;
    s += d === 0 ? 1 : Math.exp(d); // the largest logit's term is exp(0) = 1 exactly: one exp fewer per node
  }
  return m + Math.log(s);
}

/** Refresh logZ at the nodes list[from..to). */
export function refreshLogZ(theta: Float64Array, V: number, list: Int32Array, from: number, to: number, logZ: Float64Array): void {
  for (let j = from; j < to; j++) logZ[list[j]] = logNormalizer(theta, V, list[j]);
}

/**
 * logZ at the nodes list[from..to) that are not current (Scratch.logZAt), marking them current.
 * A node whose θ no step has moved since its logZ was computed keeps it: the same number.
 */
export function refreshStaleLogZ(theta: Float64Array, V: number, list: Int32Array, from: number, to: number, sc: { logZ: Float64Array; logZAt: Int32Array; iterationStamp: number }): void {
  const { logZ, logZAt, iterationStamp: now } = sc;
  for (let j = from; j < to; j++) {
    const n = list[j];
    if (logZAt[n] === now) continue;
    logZ[n] = logNormalizer(theta, V, n);
    logZAt[n] = now;
  }
}

/** Marks θ moved at the nodes list[from..to) (their logZ and ratios stale, their evaluation to redo). */
export function markMoved(list: Int32Array, from: number, to: number, sc: { logZAt: Int32Array; ratiosAt: Int32Array; movedAt: Int32Array; iterationStamp: number }): void {
  for (let j = from; j < to; j++) {
    sc.logZAt[list[j]] = -1;
    sc.ratiosAt[list[j]] = -1;
    sc.movedAt[list[j]] = sc.iterationStamp;
  }
}

/** g[n,·] −= gsum[n]·π(·|n) at nodes list[from..to), then clears gsum there. */
export function finishGradient(
  theta: Float64Array,
  V: number,
  logZ: Float64Array,
  grad: Float64Array,
  gsum: Float64Array,
  list: Int32Array,
  from: number,
  to: number,
): void {
  for (let j = from; j < to; j++) {
    const n = list[j];
    const s = gsum[n];
    if (s === 0) continue;
    const o = n * V;
    const lz = logZ[n];
    for (let a = 0; a < V; a++) grad[o + a] -= s * Math.exp(theta[o + a] - lz);
    gsum[n] = 0;
  }
}

/**
 * finishGradient where θ is still θ_old: π(·|n) read from probsOld (the same numbers
 * exp(θ − logZ) that finishGradient would compute).
 */
export function finishGradientOld(probsOld: Float64Array, V: number, grad: Float64Array, gsum: Float64Array, list: Int32Array, from: number, to: number): void {
  for (let j = from; j < to; j++) {
    const n = list[j];
    const s = gsum[n];
    if (s === 0) continue;
    const o = n * V;
    for (let a = 0; a < V; a++) grad[o + a] -= s * probsOld[o + a];
    gsum[n] = 0;
  }
}

/** Squared L2 norm of the gradient at nodes list[from..to). */
export function gradNormSq(grad: Float64Array, V: number, list: Int32Array, from: number, to: number): number {
  let s = 0;
  for (let j = from; j < to; j++) {
    const o = list[j] * V;
    for (let a = 0; a < V; a++) s += grad[o + a] * grad[o + a];
  }
  return s;
}

export function clearGradient(grad: Float64Array, V: number, list: Int32Array, from: number, to: number): void {
  for (let j = from; j < to; j++) {
    const o = list[j] * V;
    for (let a = 0; a < V; a++) grad[o + a] = 0; // a loop: fill() costs a builtin call per node for a few entries
  }
}

/** nodeKl with π_old(·|n) read from probsOld (exp(old − lzOld), the numbers nodeKl computes). */
export function nodeKlOld(probsOld: Float64Array, old: Float64Array, lzOld: number, cur: Float64Array, lzCur: number, o: number, V: number): number {
  let kl = 0;
  for (let a = 0; a < V; a++) {
    const p = probsOld[o + a];
    if (p > 0) kl += p * (old[o + a] - lzOld - (cur[o + a] - lzCur));
  }
  return kl;
}

/** KL(π_old(·|n) ‖ π_new(·|n)) from both logit vectors and normalizers. */
export function nodeKl(old: Float64Array, lzOld: number, cur: Float64Array, lzCur: number, o: number, V: number): number {
  let kl = 0;
  for (let a = 0; a < V; a++) {
    const lp = old[o + a] - lzOld;
    const p = Math.exp(lp);
    if (p > 0) kl += p * (lp - (cur[o + a] - lzCur));
  }
  return kl;
}
