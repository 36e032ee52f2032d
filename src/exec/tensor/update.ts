import * as tf from '@tensorflow/tfjs-core';
import type { Rows, TensorPolicy } from './policy';

// The device half of one iteration for R runs at once (docs/math.md "One iteration", "Update rules"). Every surrogate's
// gradient is c·∇log π(token) summed over the batch's tokens, with a per-token coefficient c
// computed from the current ratios (the CPU executor's clippedStep, as tensors):
//   token terms:   c = w·Â·M·ρ_tok           where ρ_tok·Â·M ≤ clip(ρ_tok)·Â·M, else 0
//   grouped terms: c = w·Â·M·ρ_group on every token of the group (the n of a geometric mean
//                  cancels its 1/n), where the unclipped branch is the minimum, else 0.
// The host folds everything that does not depend on the current parameters into each step's
// packed arrays (step-arrays.ts), so that a step on the device is a short fixed chain of ops:
//   lr    = diff                      (token terms)
//         = diff · G                  (G [P, P] per run: identity for token terms, geo·pos in
//                                      every column for grouped terms: the group's log-ratio)
//   t     = ρ · AW,  AW = Â·w·pos (·the run's lr for SGD), with ρ = exp(lr)
//   keep  = t ≤ BAW, BAW = AW·(1 + ε) where Â > 0, AW·(1 − ε) where Â < 0 (M > 0 keeps Â's sign,
//           so this is ρÂM ≤ clip(ρ)ÂM)
//   c     = keep ? t·M : 0
// and the clip statistics weigh [|ρ − 1| > ε] by OW (w·pos for token terms, w on one token of
// each group for grouped terms, 0 where the rule does not count them).

/** The batch of one iteration on the device. */
export interface DeviceBatch {
  rows: Rows;
  /** (r, row, token) of every (run, rollout, position) [R, S, P, 3] (gatherND / scatterND). */
  index: tf.Tensor4D;
  /** ((r·Q + row)·V + token) [R, S, P] for a flat gather (faster than gatherND except on wasm); null on wasm. */
  flatIndex: tf.Tensor3D | null;
  R: number;
  S: number;
  P: number;
  Q: number;
  V: number;
}

/** Per-run bounds [lo, hi]: shard-wide scalars where every run has the same, else [R, S, P] tiles. */
export type Bounds = { lo: number; hi: number } | { lo: tf.Tensor; hi: tf.Tensor };

/** Constants of a shard on the device. */
export interface Consts {
  /** Clip bounds 1 ∓ ε (built at the first iteration, when S is known, and after a change of ε). */
  eps: Bounds | null;
  /** M's clip bounds (0 and 3.4e38 without mClip). */
  mClip: Bounds | null;
  /** Broadcast over the vocabulary by matMul with ones (the cpu backend broadcasts slowly). */
  onesRow: tf.Tensor2D | null; // [1, V]
  onesVV: tf.Tensor2D | null; // [V, V]
  adamEps: tf.Scalar | null;
  /** Rows of ones [1, n] by n, for spreading per-run coefficients by matMul (with onesRow: the cpu backend). */
  ones: Map<number, tf.Tensor2D>;
  /** Rows of the identity [K, K] per K, to take step s out of the packed steps by matMul (wasm). */
  eye: Map<number, tf.Tensor2D[]>;
  T: number;
}

/** x clipped to the bounds. */
export function clipTo(x: tf.Tensor, b: Bounds): tf.Tensor {
  return typeof b.lo === 'number' ? tf.clipByValue(x, b.lo, b.hi as number) : tf.minimum(tf.maximum(x, b.lo), b.hi);
}

/** x < lo or x > hi, as 0/1 (|ρ − 1| > ε for ρ and 1 ∓ ε). */
export function outside(x: tf.Tensor, b: Bounds): tf.Tensor {
  const mask = typeof b.lo === 'number' ? tf.notEqual(tf.clipByValue(x, b.lo, b.hi as number), x) : tf.logicalOr(tf.less(x, b.lo), tf.greater(x, b.hi));
  return tf.cast(mask, 'float32');
}

export interface OptState {
  kind: 'sgd' | 'adam';
  /** Each run's learning rate (its algorithm's own, else optimizer.lr), re-read after a change. */
  lr: number[];
  m: tf.Tensor[];
  v: tf.Tensor[];
}

/** One optimizer step's arrays on the device (views of the iteration's packed step data). */
export interface StepTensors {
  aw: tf.Tensor3D; // [R, S, P]
  baw: tf.Tensor3D | null; // [R, S, P] (absent at step 0: ρ = 1 keeps every term)
  ow: tf.Tensor3D | null; // [R, S, P]
  G: tf.Tensor3D | null; // [R, P, P]
  mMat: tf.Tensor3D | null; // [R, P, P]: M's log-factor Σ_j diff·mPos_j in every column
  adam: { s1: tf.Tensor; s2: tf.Tensor; lc1: tf.Tensor; ic2: tf.Tensor } | null;
}

/** tf.tidy for results that hold tensors in nested objects, arrays and nulls (tidy keeps every tensor it finds there). */
export function tidy<T>(f: () => T): T {
  return tf.tidy(f as unknown as () => tf.TensorContainer) as unknown as T;
}

/** log-softmax (and softmax) of logits [R, Q, V] over the vocabulary. */
export function logSoftmax(logits: tf.Tensor3D, k: Pick<Consts, 'onesRow'>, withP = true): { logSm: tf.Tensor3D; p: tf.Tensor3D | null } {
  const spread = (col: tf.Tensor3D) => (k.onesRow ? tf.matMul(col, k.onesRow) : col);
  const shifted = tf.sub(logits, spread(tf.max(logits, 2, true)));
  const e = tf.exp(shifted);
  const z = spread(tf.sum(e, 2, true));
  return { logSm: tf.sub(shifted, tf.log(z)) as tf.Tensor3D, p: withP ? (tf.div(e, z) as tf.Tensor3D) : null };
}

/** log π(token) of every (run, rollout, position) [R, S, P] from a log-softmax [R, Q, V]. */
export function tokenLogProbs(logSm: tf.Tensor3D, b: DeviceBatch): tf.Tensor3D {
  return (b.flatIndex ? tf.gather(tf.reshape(logSm, [-1]) as tf.Tensor1D, b.flatIndex) : tf.gatherND(logSm, b.index)) as tf.Tensor3D;
}

export interface Forward {
  logSm: tf.Tensor3D;
  p: tf.Tensor3D;
  acts: tf.Tensor3D[];
}

export function forward(policy: TensorPolicy, params: tf.Tensor[], rows: Rows, k: Consts): Forward {
  const { logits, acts } = policy.forward(params, rows);
  const { logSm, p } = logSoftmax(logits, k);
  return { logSm, p: p!, acts };
}

/** Gradient of Σ c·log π(token) with respect to the parameters (c [R, S, P]). */
export function gradient(policy: TensorPolicy, params: tf.Tensor[], b: DeviceBatch, f: Forward, c: tf.Tensor, k: Consts): tf.Tensor[] {
  const onTokens = tf.scatterND(b.index, c, [b.R, b.Q, b.V]) as tf.Tensor3D;
  const total = k.onesVV ? tf.matMul(onTokens, k.onesVV) : tf.sum(onTokens, 2, true);
  return policy.backward(params, b.rows, f.acts, tf.sub(onTokens, tf.mul(f.p, total)) as tf.Tensor3D);
}

/** Per-run L2 norm of a gradient [R]. */
export function normPerRun(grads: tf.Tensor[]): tf.Tensor1D {
  const sq = grads.map((g) => tf.sum(tf.square(g), [1, 2]));
  return tf.sqrt(sq.length === 1 ? sq[0] : tf.addN(sq)) as tf.Tensor1D;
}

/** What the steps of one iteration carry from one to the next. */
export interface StepState {
  params: tf.Tensor[];
  opt: OptState;
  /** M per (run, rollout), spread over positions [R, S, P]; null while every M is 1. */
  M: tf.Tensor3D | null;
  /** Σ over steps of OW·[|ρ − 1| > ε] [R, S, P]; null while nothing was counted. */
  out: tf.Tensor3D | null;
}

export interface StepContext {
  policy: TensorPolicy;
  b: DeviceBatch;
  k: Consts;
  /** log π_old(token) [R, S, P]. */
  logpOld: tf.Tensor3D;
  /** Token terms only: the log-ratio is the token's own (no G). */
  tokenOnly: boolean;
  /** SGD with the learning rate folded into AW and BAW: the coefficients are the step. */
  lrFolded: boolean;
}

/**
 * One optimizer step (k ≥ 1) for every run; returns the new state (the caller disposes what
 * the old one holds and the new one does not). `updatesM`: some run multiplies M by the ratio
 * of the turn it just finished; `counts`: some run counts clip statistics at this step.
 */
export function step(ctx: StepContext, st: StepState, fields: () => StepTensors, updatesM: boolean, counts: boolean): StepState {
  return tidy(() => {
    const { policy, b, k } = ctx;
    const a = fields();
    const f = forward(policy, st.params, b.rows, k);
    const diff = tf.sub(tokenLogProbs(f.logSm, b), ctx.logpOld) as tf.Tensor3D;
    let M = st.M;
    if (updatesM) {
      // M ← M · (π_θ/π_old)(turn just finished), at the parameters just reached, clipped by mClip
      // (runs that finish no turn here have mPos = 0: a factor of 1, and M is already within its clip)
      const factor = tf.exp(tf.matMul(diff, a.mMat!));
      M = clipTo(M ? tf.mul(M, factor) : factor, k.mClip!) as tf.Tensor3D;
    }
    const rho = tf.exp(ctx.tokenOnly ? diff : tf.matMul(diff, a.G!));
    const t = tf.mul(rho, a.aw);
    let c: tf.Tensor = tf.mul(t, tf.cast(tf.lessEqual(t, a.baw!), 'float32'));
    if (M) c = tf.mul(c, M);
    let out = st.out;
    if (counts) {
      const w = tf.mul(outside(rho, k.eps!), a.ow!) as tf.Tensor3D;
      out = out ? (tf.add(out, w) as tf.Tensor3D) : w;
    }
    const grads = gradient(policy, st.params, b, f, c, k);
    const next = applyStep(st.params, grads, st.opt, a, ctx.lrFolded, k);
    return { params: next.params, opt: { ...st.opt, m: next.m, v: next.v }, M, out };
  });
}

/**
 * Gradient ascent: SGD (θ + g where the learning rate is already in the coefficients, else
 * θ + lr·g with each run's lr), or Adam with the step's scope and bias corrections
 * (host/optimizer.ts), folded by the host into s1 = scope·(1 − β1), s2 = scope·(1 − β2),
 * lc1 = scope·lr / c1 (the run's lr), ic2 = 1 / c2:
 *   m ← m + s1·(g − m),  v ← v + s2·(g² − v),  θ ← θ + lc1·m / (√(v·ic2) + ε)
 * (out of scope s1 = s2 = lc1 = 0: nothing moves; in scope m and v are Adam's new moments).
 */
export function applyStep(params: tf.Tensor[], grads: tf.Tensor[], opt: OptState, a: StepTensors, lrFolded: boolean, k: Consts): { params: tf.Tensor[]; m: tf.Tensor[]; v: tf.Tensor[] } {
  if (opt.kind === 'sgd') {
    const lr = lrFolded ? null : perRun(opt.lr);
    return { params: params.map((p, i) => tf.add(p, lr ? tf.mul(grads[i], lr) : grads[i])), m: [], v: [] };
  }
  const m: tf.Tensor[] = [];
  const v: tf.Tensor[] = [];
  const next = params.map((p, i) => {
    const g = grads[i];
    const { s1, s2, lc1, ic2 } = k.onesRow ? spreadAll(a.adam!, p.shape as [number, number, number], k) : a.adam!;
    const mi = tf.add(opt.m[i], tf.mul(s1, tf.sub(g, opt.m[i])));
    const vi = tf.add(opt.v[i], tf.mul(s2, tf.sub(tf.square(g), opt.v[i])));
    m.push(mi);
    v.push(vi);
    return tf.add(p, tf.div(tf.mul(lc1, mi), tf.add(tf.sqrt(tf.mul(vi, ic2)), k.adamEps!)));
  });
  return { params: next, m, v };
}

/** Per-run values as a scalar where every run has the same (in float32), else [R, 1, 1] (broadcast over a parameter [R, a, b]). */
function perRun(x: number[]): tf.Tensor {
  const f = Math.fround;
  return x.every((v) => f(v) === f(x[0])) ? tf.scalar(x[0]) : tf.tensor3d(Float32Array.from(x), [x.length, 1, 1]);
}

/** Adam's coefficients [R, rows, 1] spread to a parameter's shape [R, rows, n] (or [R, 1, 1] to [R, a, b]) by matMul with ones. */
function spreadAll(c: NonNullable<StepTensors['adam']>, [R, a, b]: [number, number, number], k: Consts): NonNullable<StepTensors['adam']> {
  const rows = c.s1.shape[1]!;
  const n = rows === a ? b : a * b;
  let ones = k.ones.get(n);
  if (!ones) k.ones.set(n, (ones = tf.keep(tf.ones([1, n]))));
  const spread = (x: tf.Tensor) => (rows === a ? tf.matMul(x as tf.Tensor3D, ones!) : tf.reshape(tf.matMul(x as tf.Tensor3D, ones!), [R, a, b]));
  return { s1: spread(c.s1), s2: spread(c.s2), lc1: spread(c.lc1), ic2: spread(c.ic2) };
}
