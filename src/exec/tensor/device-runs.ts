import * as tf from '@tensorflow/tfjs-core';
import type { Experiment } from '../../core/config/resolve';
import { algorithmLr } from '../../core/algo/records';
import type { RunSpec } from '../../core/run/partition';
import { ADAM } from '../host/optimizer';
import { dropForward, type DeviceRuns } from './device-iteration';
import { makeStepScratch } from './step-arrays';
import { disposeBounds } from './bounds';
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
      perSeed.forEach((w, r) => {
        if (i > 0) flat.set(w[i], r * a * b);
        else for (let o = 0; o < a; o++) for (let j = 0; j < b; j++) flat[r * a * b + o * b + j] = w[0][j * a + o]; // W1 [in, out] → W1ᵀ
      });
      return tf.tensor3d(flat, [R, a, b]);
    });
  }
  const tabular = 'table' in init;
  const adam = exp.optimizer.kind === 'adam';
  const vocabOnes = tf.getBackend() === 'cpu'; // the cpu backend broadcasts slowly: spread over the vocabulary by matMul
  return {
    policy: tabular ? tabularPolicy : mlpPolicy(init.shape),
    params,
    opt: { kind: exp.optimizer.kind, lr: lrsOf(exp, specs), m: adam ? params.map((p) => tf.zerosLike(p)) : [], v: adam ? params.map((p) => tf.zerosLike(p)) : [] },
    consts: {
      eps: null,
      mClip: null,
      onesRow: vocabOnes ? tf.ones([1, V]) : null,
      onesVV: vocabOnes ? tf.ones([V, V]) : null,
      adamEps: adam ? tf.scalar(ADAM.eps) : null,
      ones: new Map(),
      eye: new Map(),
      T: exp.env.turns,
    },
    V,
    adamCounts: adam ? specs.map(() => new Int32Array(tabular ? exp.env.turns : 1)) : null,
    perTurnAdam: tabular,
    eps: clipsOf(exp, specs),
    mClip: specs.map((s) => exp.algorithms[s.algoIndex].mClip),
    algos: specs.map((s) => exp.algorithms[s.algoIndex]),
    layout: null,
    scratch: makeStepScratch(),
    turnOfNode: tabular && adam ? tf.tensor1d(init.turnOfNode, 'int32') : null,
    atParams: null,
    cachedIndex: null,
  };
}

/** Each run's ε (REINFORCE: never clipped). */
function clipsOf(exp: Experiment, specs: RunSpec[]): number[] {
  return specs.map((s) => (exp.algorithms[s.algoIndex].rule === 'reinforce' ? 1e30 : exp.algorithms[s.algoIndex].clip));
}

/**
 * Each run's learning rate: its algorithm's own `lr`, else optimizer.lr. One shard holds runs
 * of different learning rates: SGD folds each run's into its rows of the packed steps (and
 * multiplies step 0 by a per-run [R, 1, 1] factor), Adam into each run's lc1.
 */
function lrsOf(exp: Experiment, specs: RunSpec[]): number[] {
  return specs.map((s) => algorithmLr(exp.algorithms[s.algoIndex], exp.optimizer.lr));
}

/** Re-read the learning rates and clips from `exp` (changed while the experiment runs). */
export function refreshHyper(d: DeviceRuns, exp: Experiment, specs: RunSpec[]): void {
  d.eps = clipsOf(exp, specs);
  disposeBounds(d.consts.eps);
  d.consts.eps = null; // rebuilt at the next iteration
  d.opt.lr = lrsOf(exp, specs);
}

export function disposeDeviceRuns(d: DeviceRuns): void {
  const k = d.consts;
  dropForward(d);
  disposeBounds(k.eps);
  disposeBounds(k.mClip);
  const own: (tf.Tensor | null | undefined)[] = [k.onesRow, k.onesVV, k.adamEps, d.turnOfNode, d.cachedIndex?.index, d.cachedIndex?.flatIndex, ...[...k.eye.values()].flat(), ...k.ones.values()];
  tf.dispose([...d.params, ...d.opt.m, ...d.opt.v, ...own.filter((t): t is tf.Tensor => t != null)]);
  d.policy.dispose();
  k.eye.clear();
  k.ones.clear();
  d.cachedIndex = null;
}
