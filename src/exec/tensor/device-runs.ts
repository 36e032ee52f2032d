import * as tf from '@tensorflow/tfjs-core';
import type { Experiment } from '../../core/config/resolve';
import type { RunSpec } from '../../core/run/partition';
import type { DeviceRuns } from './device-iteration';
import { initialMlp, mlpParamShapes, mlpPolicy, tabularPolicy, type MlpShape } from './policy';

/** The shared MLP of the experiment's policy over `width` inputs. */
export function mlpShape(exp: Experiment, width: number, bias = true): MlpShape {
  if (exp.policy.kind !== 'mlp') throw new Error('not an MLP policy');
  return { layers: [width, ...exp.policy.hidden, exp.env.vocab], activation: exp.policy.activation, bias };
}

/**
 * Parameters, optimizer state and per-run constants of the runs `specs` on the device.
 * `table`: initial tabular logits per run (then `turnOfNode` gives Adam its per-turn scopes);
 * otherwise an MLP of `shape`, seeded per seed index.
 */
export function makeDeviceRuns(exp: Experiment, specs: RunSpec[], init: { table: Float64Array[]; nodes: number; turnOfNode: Int32Array } | { shape: MlpShape }): DeviceRuns {
  const R = specs.length;
  const V = exp.env.vocab;
  let params: tf.Tensor[];
  if ('table' in init) {
    const size = init.nodes * V;
    const flat = new Float32Array(R * size);
    init.table.forEach((t, r) => flat.set(t, r * size));
    params = [tf.tensor3d(flat, [R, init.nodes, V])];
  } else {
    const perSeed = specs.map((s) => initialMlp(init.shape, exp.seed, s.seedIndex, exp.policy.initScale));
    params = mlpParamShapes(init.shape).map(([a, b], i) => {
      const flat = new Float32Array(R * a * b);
      perSeed.forEach((w, r) => flat.set(w[i], r * a * b));
      return tf.tensor3d(flat, [R, a, b]);
    });
  }
  const tabular = 'table' in init;
  const adam = exp.optimizer.kind === 'adam';
  const algo = (s: RunSpec) => exp.algorithms[s.algoIndex];
  const eps = clipsOf(exp, specs);
  const mClip = specs.map((s) => algo(s).mClip);
  return {
    policy: tabular ? tabularPolicy : mlpPolicy(init.shape),
    params,
    opt: { kind: exp.optimizer.kind, lr: exp.optimizer.lr, m: adam ? params.map((p) => tf.zerosLike(p)) : [], v: adam ? params.map((p) => tf.zerosLike(p)) : [] },
    consts: {
      lo: tf.tensor3d(eps.map((e) => 1 - e), [R, 1, 1]),
      hi: tf.tensor3d(eps.map((e) => 1 + e), [R, 1, 1]),
      eps: tf.tensor3d(eps, [R, 1, 1]),
      mLo: tf.tensor2d(mClip.map((c) => (c === null ? 0 : 1 - c)), [R, 1]),
      mHi: tf.tensor2d(mClip.map((c) => (c === null ? 3.4e38 : 1 + c)), [R, 1]),
      turnOfNode: tabular ? tf.tensor1d(init.turnOfNode, 'int32') : null,
      T: exp.env.turns,
    },
    adamCounts: adam ? specs.map(() => new Int32Array(tabular ? exp.env.turns : 1)) : null,
    perTurnAdam: tabular,
  };
}

/** Each run's ε (REINFORCE: never clipped). */
function clipsOf(exp: Experiment, specs: RunSpec[]): number[] {
  return specs.map((s) => (exp.algorithms[s.algoIndex].rule === 'reinforce' ? 1e30 : exp.algorithms[s.algoIndex].clip));
}

/** Re-read the learning rate and clips from `exp` (changed while the experiment runs). */
export function refreshHyper(d: DeviceRuns, exp: Experiment, specs: RunSpec[]): void {
  const eps = clipsOf(exp, specs);
  const R = specs.length;
  tf.dispose([d.consts.lo, d.consts.hi, d.consts.eps]);
  d.consts.lo = tf.tensor3d(eps.map((e) => 1 - e), [R, 1, 1]);
  d.consts.hi = tf.tensor3d(eps.map((e) => 1 + e), [R, 1, 1]);
  d.consts.eps = tf.tensor3d(eps, [R, 1, 1]);
  d.opt.lr = exp.optimizer.lr;
}

export function disposeDeviceRuns(d: DeviceRuns): void {
  const k = d.consts;
  tf.dispose([...d.params, ...d.opt.m, ...d.opt.v, k.lo, k.hi, k.eps, k.mLo, k.mHi]);
  k.turnOfNode?.dispose();
}
