import * as tf from '@tensorflow/tfjs-core';
import { ADAM } from '../cpu/optimizer';
import type { Rows, TensorPolicy } from './policy';

// The device half of one iteration for R runs at once (algorithms.md §3–§4). Every surrogate's
// gradient is c·∇log π(token) summed over the batch's tokens, with a per-token coefficient c
// computed from the current ratios (the CPU executor's clippedStep, as tensors):
//   token terms:   c = w·Â·M·ρ_tok           where ρ_tok·Â·M ≤ clip(ρ_tok)·Â·M, else 0
//   grouped terms: c = w·Â·M·ρ_group on every token of the group (the n of a geometric mean
//                  cancels its 1/n), where the unclipped branch is the minimum, else 0.

/** The batch of one iteration on the device. */
export interface DeviceBatch {
  rows: Rows;
  /** ((r·Q + row)·V + token) for every (run, rollout, position): [R·S·P] as [R·S·P, 1]. */
  index: tf.Tensor2D;
  /** Per-token advantage fed to each token [R, S, P]. */
  advTok: tf.Tensor3D;
  /** Rollout weights of the full batch [R, S]. */
  weight: tf.Tensor2D;
  R: number;
  S: number;
  P: number;
  Q: number;
  V: number;
}

/** One optimizer step's inputs, one entry per run (inactive runs have zero weights). */
export interface StepArrays {
  w: Float32Array; // [R·S] weight · chunk scale, 0 outside the chunk
  advG: Float32Array; // [R·S] grouped terms' advantage
  pos: Float32Array; // [R·P] tokens in the term
  grouped: Float32Array; // [R]
  geo: Float32Array; // [R]
  counted: Float32Array; // [R]
  mUpd: Float32Array; // [R] M takes the ratio of the turn at mPos before this step
  mPos: Float32Array; // [R·P]
  anyMUpd: boolean;
  /** Adam: the step's scope and bias corrections, per (run, turn) [R·T] for tables or per run [R]. */
  scope: Float32Array;
  c1: Float32Array;
  c2: Float32Array;
}

export interface Consts {
  lo: tf.Tensor; // [R, 1, 1] 1 − ε
  hi: tf.Tensor; // 1 + ε
  eps: tf.Tensor; // ε
  mLo: tf.Tensor; // [R, 1] M clip bounds (0, ∞ without mClip)
  mHi: tf.Tensor;
  /** Tables: the turn of every node, to spread per-turn Adam scopes over nodes. */
  turnOfNode: tf.Tensor1D | null;
  T: number;
}

export interface OptState {
  kind: 'sgd' | 'adam';
  lr: number;
  m: tf.Tensor[];
  v: tf.Tensor[];
}

/** log π(token) at every (run, rollout, position) [R, S, P], and the log-softmax it came from. */
export function logProbs(policy: TensorPolicy, params: tf.Tensor[], b: DeviceBatch) {
  const { logits, acts } = policy.forward(params, b.rows);
  const logSm = tf.logSoftmax(logits) as tf.Tensor3D;
  const logp = tf.reshape(tf.gather(tf.reshape(logSm, [-1]), tf.reshape(b.index, [-1])), [b.R, b.S, b.P]) as tf.Tensor3D;
  return { logp, logSm, acts };
}

/** Gradient of Σ c·log π(token) with respect to the parameters. */
export function gradient(policy: TensorPolicy, params: tf.Tensor[], b: DeviceBatch, logSm: tf.Tensor3D, acts: tf.Tensor3D[], c: tf.Tensor3D): tf.Tensor[] {
  const onTokens = tf.reshape(tf.scatterND(b.index, tf.reshape(c, [-1]), [b.R * b.Q * b.V]), [b.R, b.Q, b.V]) as tf.Tensor3D;
  const dLogits = tf.sub(onTokens, tf.mul(tf.exp(logSm), tf.sum(onTokens, 2, true))) as tf.Tensor3D;
  return policy.backward(params, b.rows, acts, dLogits);
}

/** Per-run L2 norm of a gradient [R]. */
export function normPerRun(grads: tf.Tensor[]): tf.Tensor1D {
  const sq = grads.map((g) => tf.sum(tf.reshape(tf.square(g), [g.shape[0], -1]), 1));
  return tf.sqrt(tf.addN(sq)) as tf.Tensor1D;
}

export interface StepState {
  params: tf.Tensor[];
  opt: OptState;
  M: tf.Tensor2D; // [R, S]
  clipNum: tf.Tensor1D; // [R]
  clipDen: tf.Tensor1D;
}

/** One optimizer step for every run; returns the new state (the caller disposes the old). */
export function step(policy: TensorPolicy, b: DeviceBatch, logpOld: tf.Tensor3D, k: Consts, st: StepState, a: StepArrays): StepState {
  const out = tf.tidy(() => {
    const { R, S, P } = b;
    const w = tf.tensor2d(a.w, [R, S]);
    const pos = tf.tensor3d(a.pos, [R, 1, P]);
    const { logp, logSm, acts } = logProbs(policy, st.params, b);
    const diff = tf.sub(logp, logpOld);
    let M = st.M;
    if (a.anyMUpd) {
      // M ← M · (π_θ/π_old)(turn just updated), at the parameters just reached, clipped by mClip.
      const turnRatio = tf.exp(tf.sum(tf.mul(diff, tf.tensor3d(a.mPos, [R, 1, P])), 2));
      const next = tf.minimum(tf.maximum(tf.mul(M, turnRatio), k.mLo), k.mHi);
      M = tf.where(tf.greater(tf.tensor2d(a.mUpd, [R, 1]), 0), next, M) as tf.Tensor2D;
    }
    // token terms
    const rho = tf.exp(diff);
    const A = tf.mul(b.advTok, tf.expandDims(M, 2));
    const keepT = tf.lessEqual(tf.mul(rho, A), tf.mul(tf.minimum(tf.maximum(rho, k.lo), k.hi), A));
    const wPos = tf.mul(tf.expandDims(w, 2), pos);
    const cT = tf.mul(tf.mul(tf.mul(rho, A), tf.cast(keepT, 'float32')), wPos);
    const outT = tf.cast(tf.greater(tf.abs(tf.sub(rho, 1)), k.eps), 'float32');
    // grouped terms (k.lo etc. are [R,1,1]; squeeze to [R,1] for [R,S] tensors)
    const lo2 = tf.reshape(k.lo, [R, 1]), hi2 = tf.reshape(k.hi, [R, 1]), eps2 = tf.reshape(k.eps, [R, 1]);
    const rhoG = tf.exp(tf.mul(tf.sum(tf.mul(diff, pos), 2), tf.tensor2d(a.geo, [R, 1])));
    const AG = tf.mul(tf.tensor2d(a.advG, [R, S]), M);
    const keepG = tf.lessEqual(tf.mul(rhoG, AG), tf.mul(tf.minimum(tf.maximum(rhoG, lo2), hi2), AG));
    const cG = tf.mul(tf.mul(tf.mul(rhoG, AG), tf.cast(keepG, 'float32')), w);
    const outG = tf.cast(tf.greater(tf.abs(tf.sub(rhoG, 1)), eps2), 'float32');
    const grouped = tf.tensor1d(a.grouped);
    const g3 = tf.reshape(grouped, [R, 1, 1]);
    const c = tf.add(cT, tf.mul(g3, tf.sub(tf.mul(tf.expandDims(cG, 2), pos), cT))) as tf.Tensor3D;
    // clip statistics, weighted like the CPU executor's
    const numT = tf.sum(tf.mul(outT, wPos), [1, 2]);
    const denT = tf.sum(wPos, [1, 2]);
    const numG = tf.sum(tf.mul(outG, w), 1);
    const denG = tf.sum(w, 1);
    const counted = tf.tensor1d(a.counted);
    const mix = (t: tf.Tensor, g: tf.Tensor) => tf.mul(counted, tf.add(t, tf.mul(grouped, tf.sub(g, t))));
    const clipNum = tf.add(st.clipNum, mix(numT, numG)) as tf.Tensor1D;
    const clipDen = tf.add(st.clipDen, mix(denT, denG)) as tf.Tensor1D;
    const grads = gradient(policy, st.params, b, logSm, acts, c);
    const { params, m, v } = optimizerStep(st.params, grads, st.opt, k, a, R);
    return { params, m, v, M, clipNum, clipDen };
  });
  return { params: out.params, opt: { ...st.opt, m: out.m, v: out.v }, M: out.M, clipNum: out.clipNum, clipDen: out.clipDen };
}

/** Gradient ascent: SGD, or Adam with the step's scope and bias corrections (cpu/optimizer.ts). */
function optimizerStep(params: tf.Tensor[], grads: tf.Tensor[], opt: OptState, k: Consts, a: StepArrays, R: number) {
  if (opt.kind === 'sgd') return { params: params.map((p, i) => tf.add(p, tf.mul(opt.lr, grads[i]))), m: [], v: [] };
  const spread = (x: Float32Array): tf.Tensor =>
    k.turnOfNode ? tf.expandDims(tf.gather(tf.tensor2d(x, [R, k.T]), k.turnOfNode, 1), 2) : tf.tensor3d(x, [R, 1, 1]);
  const scope = spread(a.scope);
  const c1 = spread(a.c1);
  const c2 = spread(a.c2);
  const m: tf.Tensor[] = [];
  const v: tf.Tensor[] = [];
  const next = params.map((p, i) => {
    const g = grads[i];
    const mi = tf.add(tf.mul(ADAM.beta1, opt.m[i]), tf.mul(1 - ADAM.beta1, g));
    const vi = tf.add(tf.mul(ADAM.beta2, opt.v[i]), tf.mul(1 - ADAM.beta2, tf.square(g)));
    m.push(tf.add(opt.m[i], tf.mul(scope, tf.sub(mi, opt.m[i]))));
    v.push(tf.add(opt.v[i], tf.mul(scope, tf.sub(vi, opt.v[i]))));
    const delta = tf.div(tf.div(mi, c1), tf.add(tf.sqrt(tf.div(vi, c2)), ADAM.eps));
    return tf.add(p, tf.mul(tf.mul(scope, opt.lr), delta));
  });
  return { params: next, m, v };
}
