import * as tf from '@tensorflow/tfjs-core';
import type { AlgorithmRecord } from '../../core/algo/records';
import { makeBounds } from './bounds';
import type { HostBatch } from './host';
import type { Rows, TensorPolicy } from './policy';
import { iterationArrays, stepLayout, type StepLayout, type StepScratch } from './step-arrays';
import { applyStep, forward, gradient, logSoftmax, normPerRun, step, tidy, tokenLogProbs, type Consts, type Forward, type DeviceBatch, type OptState, type StepState, type StepTensors } from './update';

/** What a shard keeps on the device between iterations (and the host state that goes with it). */
export interface DeviceRuns {
  policy: TensorPolicy;
  params: tf.Tensor[];
  opt: OptState;
  consts: Consts;
  adamCounts: Int32Array[] | null;
  perTurnAdam: boolean;
  V: number;
  /** Each run's ε (REINFORCE: never clipped), mClip and algorithm. */
  eps: number[];
  mClip: (number | null)[];
  algos: AlgorithmRecord[];
  /** The packed steps' fields (built at the first iteration, when S is known). */
  layout: StepLayout | null;
  scratch: StepScratch;
  /** Tables: the turn of every node [nodes], to spread per-turn Adam coefficients. */
  turnOfNode: tf.Tensor1D | null;
  /** The forward at the current parameters over `rows`, computed for the host's table read and kept for the next iteration's θ_old. */
  atParams: { params: tf.Tensor[]; rows: Rows; f: Forward } | null;
  /** Exact mode: the batch's token index never changes, so it is uploaded once. */
  cachedIndex: { index: tf.Tensor4D; flatIndex: tf.Tensor3D | null } | null;
}

/** Whether gathers of single values go through gatherND (much faster on wasm) or a flat gather. */
const useGatherND = () => tf.getBackend() === 'wasm';

/** The host batch as tensors; `constant`: the index is the same every iteration (exact mode) and is cached. */
export function uploadBatch(d: DeviceRuns, hb: HostBatch, sharedRows: Rows, constant: boolean): DeviceBatch {
  const { R, S, P, Q } = hb;
  const V = d.V;
  let idx = constant ? d.cachedIndex : null;
  if (!idx) {
    const nd = new Int32Array(R * S * P * 3);
    for (let j = 0; j < R * S * P; j++) {
      const row = Math.floor(hb.index[j] / V);
      const r = Math.floor(row / Q);
      nd[3 * j] = r;
      nd[3 * j + 1] = row - r * Q;
      nd[3 * j + 2] = hb.index[j] - row * V;
    }
    idx = {
      index: tf.tensor4d(nd, [R, S, P, 3], 'int32'),
      flatIndex: useGatherND() ? null : tf.tensor3d(Int32Array.from(hb.index), [R, S, P], 'int32'),
    };
    if (constant) d.cachedIndex = idx;
  }
  return {
    rows: hb.X ? { kind: 'perRun', X: tf.tensor3d(hb.X, [R, S * P, hb.encoder!.width]) } : sharedRows,
    index: idx.index,
    flatIndex: idx.flatIndex,
    R,
    S,
    P,
    Q,
    V,
  };
}

export function disposeBatch(d: DeviceRuns, b: DeviceBatch): void {
  if (d.cachedIndex?.index !== b.index) tf.dispose([b.index, ...(b.flatIndex ? [b.flatIndex] : [])]);
  if (b.rows.kind === 'perRun') b.rows.X.dispose();
}

/**
 * The device half of an iteration: the policy gradient at θ_old (its norm), then every run's
 * planned optimizer steps. Replaces d.params and d.opt; returns per-run [gradNorm, clipNum,
 * clipDen, health] and, with `kl`, KL(π_old ‖ π_new) averaged over the batch's token visits.
 * `health` (finitenessProbe) is finite iff every parameter, Adam moment and M of the run is.
 * Uploads: the packed steps, the gradient coefficients and the clip weights (a fixed number,
 * whatever the number of steps); no reads.
 */
export function updateRuns(d: DeviceRuns, hb: HostBatch, b: DeviceBatch, kl: boolean): tf.Tensor1D[] {
  const { R, S, P } = hb;
  const k = d.consts;
  const L = (d.layout ??= stepLayout(d.algos, S, P, d.adamCounts ? (d.perTurnAdam ? k.T : 1) : 0));
  k.eps ??= makeBounds(d.eps.map((e) => 1 - e), d.eps.map((e) => 1 + e), S, P);
  k.mClip ??= makeBounds(d.mClip.map((c) => (c === null ? 0 : 1 - c)), d.mClip.map((c) => (c === null ? 3.4e38 : 1 + c)), S, P);
  const sgd = d.opt.kind === 'sgd';
  const it = iterationArrays(hb, L, d.eps, d.opt.lr, sgd, d.adamCounts, d.scratch);
  const { K } = it;
  const cached = d.atParams && d.atParams.params === d.params && d.atParams.rows === b.rows ? d.atParams.f : null;
  if (!cached) dropForward(d);
  d.atParams = null; // f0 is this iteration's, disposed below
  const f0 = cached ?? tidy(() => forward(d.policy, d.params, b.rows, k));
  const { gradNorm, gradG, logpOld } = tidy(() => {
    const grads = gradient(d.policy, d.params, b, f0, tf.tensor3d(it.cg, [R, S, P]), k);
    return { gradNorm: normPerRun(grads), gradG: it.shareStep0 ? grads : null, logpOld: K > 1 ? tokenLogProbs(f0.logSm, b) : null };
  });
  const steps = K > 0 ? tf.tensor2d(it.data, [K, L.F]) : null;
  const rowOf = K > 0 ? stepRows(k, steps!, K) : null;
  const fields = (s: number): StepTensors => stepTensors(d, rowOf!(s), s > 0);
  let st: StepState = { params: d.params, opt: d.opt, M: null, out: null };
  if (K > 0) {
    // step 0 is at θ_old: every ratio is 1, every term kept, nothing counted
    const next = tidy(() => {
      const a = fields(0);
      // the same arithmetic whether or not the gradient is shared, so a run's numbers never depend on its shard-mates
      const grads = gradG ?? gradient(d.policy, d.params, b, f0, a.aw, k);
      const r = applyStep(d.params, grads, d.opt, a, false, k);
      return { params: r.params, m: r.m, v: r.v };
    });
    st = { params: next.params, opt: { ...d.opt, m: next.m, v: next.v }, M: null, out: null };
    replaced(d.params, d.opt, st);
  }
  if (gradG) tf.dispose(gradG);
  const ctx = { policy: d.policy, b, k, logpOld: logpOld!, tokenOnly: L.tokenOnly, lrFolded: sgd };
  for (let s = 1; s < K; s++) {
    const next = step(ctx, st, () => fields(s), it.updatesM[s], it.counts[s]);
    replaced(st.params, st.opt, next);
    if (st.M && st.M !== next.M) st.M.dispose();
    if (st.out && st.out !== next.out) st.out.dispose();
    st = next;
  }
  d.params = st.params;
  d.opt = st.opt;
  const clipNum = st.out ? (tidy(() => tf.sum(st.out!, [1, 2])) as tf.Tensor1D) : (tf.zerosLike(gradNorm) as tf.Tensor1D);
  const out = [gradNorm, clipNum, tf.tensor1d(it.den), finitenessProbe(d, st.M)];
  if (kl)
    out.push(
      tidy(() => {
        // rows of per-run batches are (rollout, position): KL per row, weighted by w / P
        const { logSm } = logSoftmax(d.policy.forward(d.params, b.rows).logits, k, false);
        const rowKl = tf.sum(tf.mul(f0.p, tf.sub(f0.logSm, logSm)), 2);
        const w = new Float32Array(R * S * P);
        for (let j = 0; j < R * S; j++) w.fill(hb.weight[j] / P, j * P, (j + 1) * P);
        return tf.sum(tf.mul(tf.reshape(rowKl, [R, S, P]), tf.tensor3d(w, [R, S, P])), [1, 2]) as tf.Tensor1D;
      }),
    );
  tf.dispose([f0.logSm, f0.p, ...f0.acts, ...(logpOld ? [logpOld] : []), ...(steps ? [steps] : []), ...(st.M ? [st.M] : []), ...(st.out ? [st.out] : [])]);
  return out;
}

/**
 * Per run, the sum of every parameter, of Adam's m and v and of M [R]: one sum per tensor, no
 * pass of its own on the host. A sum is NaN or ±∞ when one of its terms is (NaN and ∞ survive
 * addition; +∞ and −∞ together give NaN), so a finite health means every one of them is finite;
 * a non-finite one means one is not, or their sum passed float32's 3.4e38, a blow-up too.
 * Every parameter and moment is written by every step (SGD adds a gradient to all of them, Adam
 * scales its update by the scope), so non-finite gradient entries end up here as well.
 */
export function finitenessProbe(d: DeviceRuns, M: tf.Tensor3D | null): tf.Tensor1D {
  return tidy(() => {
    const sums = [...d.params, ...d.opt.m, ...d.opt.v, ...(M ? [M] : [])].map((t) => tf.sum(t, t.shape.slice(1).map((_, i) => i + 1)));
    return (sums.length === 1 ? sums[0] : tf.addN(sums)) as tf.Tensor1D;
  });
}

/**
 * The log-softmax of every node [R, nodes, V] at the current parameters, for the host's read of
 * the tables; the forward stays cached as the next iteration's θ_old (do not dispose the result).
 */
export function nodeLogProbs(d: DeviceRuns, rows: Rows): tf.Tensor3D {
  dropForward(d);
  const f = tidy(() => forward(d.policy, d.params, rows, d.consts));
  d.atParams = { params: d.params, rows, f };
  return f.logSm;
}

export function dropForward(d: DeviceRuns): void {
  if (d.atParams) tf.dispose([d.atParams.f.logSm, d.atParams.f.p, ...d.atParams.f.acts]);
  d.atParams = null;
}

/** Step s's row of the packed steps [1, F]: a slice, or on wasm (where a slice copies its whole input) a matMul with row s of the identity. */
function stepRows(k: Consts, steps: tf.Tensor2D, K: number): (s: number) => tf.Tensor2D {
  if (tf.getBackend() !== 'wasm') return (s) => tf.slice(steps, [s, 0], [1, -1]);
  let eye = k.eye.get(K);
  if (!eye) {
    eye = Array.from({ length: K }, (_, s) => {
      const row = new Float32Array(K);
      row[s] = 1;
      return tf.tensor2d(row, [1, K]);
    });
    k.eye.set(K, eye);
  }
  return (s) => tf.matMul(eye![s], steps);
}

/** The fields of one step row (call inside a tidy). Step 0 needs only its coefficients and Adam's. */
function stepTensors(d: DeviceRuns, row: tf.Tensor2D, ratios: boolean): StepTensors {
  const L = d.layout!;
  const { R, S, P } = L;
  const parts = tf.split(row, L.sizes, 1);
  let i = 0;
  const rsp = () => tf.reshape(parts[i++], [R, S, P]) as tf.Tensor3D;
  const rpp = () => tf.reshape(parts[i++], [R, P, P]) as tf.Tensor3D;
  const aw = rsp();
  const baw = ratios ? rsp() : (i++, null);
  const ow = L.stats ? (ratios ? rsp() : (i++, null)) : null;
  const G = L.tokenOnly ? null : ratios ? rpp() : (i++, null);
  const mMat = L.mCorrection ? (ratios ? rpp() : (i++, null)) : null;
  let adam: StepTensors['adam'] = null;
  if (L.adamWidth > 0) {
    // [R, width, 4] → per node (tables: gather by turn) or per run, as [R, rows, 1] each
    const c = tf.reshape(parts[i++], [R, L.adamWidth, 4]);
    const spread = d.turnOfNode ? tf.gather(c, d.turnOfNode, 1) : c;
    const [s1, s2, lc1, ic2] = tf.split(spread, 4, 2);
    adam = { s1, s2, lc1, ic2 };
  }
  return { aw, baw, ow, G, mMat, adam };
}

/** Dispose the parameters and optimizer state of the old step that the new one no longer holds. */
function replaced(params: tf.Tensor[], opt: OptState, next: StepState): void {
  const kept = new Set<tf.Tensor>([...next.params, ...next.opt.m, ...next.opt.v]);
  tf.dispose([...params, ...opt.m, ...opt.v].filter((t) => !kept.has(t)));
}
