import * as tf from '@tensorflow/tfjs-core';
import type { HostBatch } from './host';
import type { Rows, TensorPolicy } from './policy';
import { stepArrays } from './step-arrays';
import { gradient, logProbs, normPerRun, step, type Consts, type DeviceBatch, type OptState, type StepState } from './update';

/** What a shard keeps on the device between iterations. */
export interface DeviceRuns {
  policy: TensorPolicy;
  params: tf.Tensor[];
  opt: OptState;
  consts: Consts;
  adamCounts: Int32Array[] | null;
  perTurnAdam: boolean;
}

/** The host batch as tensors; `index` may be a cached constant (exact mode). */
export function uploadBatch(hb: HostBatch, V: number, sharedRows: Rows, index: tf.Tensor2D | null): DeviceBatch {
  const { R, S, P, Q } = hb;
  return {
    rows: hb.X ? { kind: 'perRun', X: tf.tensor3d(hb.X, [R, S * P, hb.encoder!.width]) } : sharedRows,
    index: index ?? tf.tensor2d(hb.index, [R * S * P, 1], 'int32'),
    advTok: tf.tensor3d(hb.advTok, [R, S, P]),
    weight: tf.tensor2d(hb.weight, [R, S]),
    R,
    S,
    P,
    Q,
    V,
  };
}

/**
 * The device half of an iteration: the policy gradient at θ_old (its norm), then every run's
 * planned optimizer steps. Replaces d.params and d.opt; returns per-run [gradNorm, clipNum,
 * clipDen] and, with `kl`, KL(π_old ‖ π_new) averaged over the batch's token visits.
 */
export function updateRuns(d: DeviceRuns, hb: HostBatch, b: DeviceBatch, kl: boolean): tf.Tensor1D[] {
  const R = hb.R;
  const { logpOld, logSmOld, gradNorm } = tf.tidy(() => {
    const { logp, logSm, acts } = logProbs(d.policy, d.params, b);
    const c = tf.mul(tf.expandDims(b.weight, 2), b.advTok) as tf.Tensor3D;
    return { logpOld: logp, logSmOld: kl ? logSm : tf.zeros([1]), gradNorm: normPerRun(gradient(d.policy, d.params, b, logSm, acts, c)) };
  });
  let st: StepState = { params: d.params, opt: d.opt, M: tf.ones([R, hb.S]), clipNum: tf.zeros([R]), clipDen: tf.zeros([R]) };
  const K = Math.max(0, ...hb.plans.map((p) => p.length));
  for (let s = 0; s < K; s++) {
    const next = step(d.policy, b, logpOld, d.consts, st, stepArrays(hb, s, d.adamCounts, d.perTurnAdam, d.consts.T));
    disposeReplaced(st, next);
    st = next;
  }
  d.params = st.params;
  d.opt = st.opt;
  const out = [gradNorm, st.clipNum, st.clipDen];
  if (kl)
    out.push(
      tf.tidy(() => {
        // rows of per-run batches are (rollout, position): KL per row, weighted by w / P
        const logSm = tf.logSoftmax(d.policy.forward(d.params, b.rows).logits);
        const rowKl = tf.sum(tf.mul(tf.exp(logSmOld), tf.sub(logSmOld, logSm)), 2);
        return tf.sum(tf.mul(tf.reshape(rowKl, [R, hb.S, hb.P]), tf.expandDims(tf.div(b.weight, hb.P), 2)), [1, 2]) as tf.Tensor1D;
      }),
    );
  tf.dispose([logpOld, logSmOld, st.M]);
  return out;
}

export function disposeBatch(b: DeviceBatch, keepIndex: tf.Tensor | null): void {
  tf.dispose([b.advTok, b.weight]);
  if (b.index !== keepIndex) b.index.dispose();
  if (b.rows.kind === 'perRun') b.rows.X.dispose();
}

/** Dispose the tensors of `old` that `next` no longer holds. */
function disposeReplaced(old: StepState, next: StepState): void {
  const kept = new Set<tf.Tensor>([...next.params, ...next.opt.m, ...next.opt.v, next.M, next.clipNum, next.clipDen]);
  tf.dispose([...old.params, ...old.opt.m, ...old.opt.v, old.M, old.clipNum, old.clipDen].filter((t) => !kept.has(t)));
}
