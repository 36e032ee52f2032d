import * as tf from '@tensorflow/tfjs-core';
import { Purpose, Rng, streamKey } from '../../core/rng';

// Policies of algorithms.md §2 for R runs at once. Every parameter tensor has the runs on
// axis 0, so one op serves every run, and nothing ever sums across runs.

/** Where the logits are evaluated: every node (rows shared by all runs) or per-run rows. */
export type Rows =
  | { kind: 'shared'; X: tf.Tensor2D | null }
  | { kind: 'perRun'; X: tf.Tensor3D }
  /** One-hot rows given by their active inputs [R, rows, k] (indices into the run's W1 rows, offset by r·in); forward only. */
  | { kind: 'active'; idx: tf.Tensor3D };

export interface MlpShape {
  layers: number[]; // [input, ...hidden, V]
  activation: 'tanh' | 'relu';
  bias: boolean;
}

export interface TensorPolicy {
  readonly kind: 'tabular' | 'mlp';
  /** Logits [R, Q, V] at the rows, and what backward() needs. */
  forward(params: tf.Tensor[], rows: Rows): { logits: tf.Tensor3D; acts: tf.Tensor3D[] };
  /** Gradients (same shapes as params) of Σ dLogits·logits. */
  backward(params: tf.Tensor[], rows: Rows, acts: tf.Tensor3D[], dLogits: tf.Tensor3D): tf.Tensor[];
}

/** Tabular: one [R, nodes, V] logits table; its rows are the nodes themselves. */
export const tabularPolicy: TensorPolicy = {
  kind: 'tabular',
  forward: (params) => ({ logits: params[0] as tf.Tensor3D, acts: [] }),
  backward: (_params, _rows, _acts, dLogits) => [dLogits],
};

/** Shared MLP: params [W1, b1, W2, b2, …], W [R, in, out], b [R, 1, out] (absent without bias). */
export function mlpPolicy(shape: MlpShape): TensorPolicy {
  const nLayers = shape.layers.length - 1;
  const W = (p: tf.Tensor[], l: number) => p[shape.bias ? 2 * l : l] as tf.Tensor3D;
  const B = (p: tf.Tensor[], l: number) => p[2 * l + 1] as tf.Tensor3D;
  const act = (z: tf.Tensor3D) => (shape.activation === 'tanh' ? tf.tanh(z) : tf.relu(z));
  return {
    kind: 'mlp',
    forward(params, rows) {
      const acts: tf.Tensor3D[] = [];
      let h: tf.Tensor3D = firstLayer(rows, W(params, 0));
      for (let l = 0; l < nLayers; l++) {
        if (l > 0) h = tf.matMul(h, W(params, l));
        if (shape.bias) h = tf.add(h, B(params, l));
        if (l < nLayers - 1) {
          h = act(h);
          acts.push(h);
        }
      }
      return { logits: h, acts };
    },
    backward(params, rows, acts, dLogits) {
      const grads: tf.Tensor[] = new Array(params.length);
      let d = dLogits;
      for (let l = nLayers - 1; l >= 0; l--) {
        if (shape.bias) grads[2 * l + 1] = tf.sum(d, 1, true);
        if (l === 0) {
          grads[0] = firstLayerGrad(rows, d);
          break;
        }
        const hPrev = acts[l - 1];
        grads[shape.bias ? 2 * l : l] = tf.matMul(hPrev, d, true, false);
        const dh = tf.matMul(d, W(params, l), false, true);
        d = shape.activation === 'tanh' ? tf.mul(dh, tf.sub(1, tf.square(hPrev))) : tf.mul(dh, tf.cast(tf.greater(hPrev, 0), 'float32'));
      }
      return grads;
    },
  };
}

/** X·W1 for shared rows [Q, in] (one matmul for all runs: [Q, in]·[in, R·H]) or per-run rows. */
function firstLayer(rows: Rows, W1: tf.Tensor3D): tf.Tensor3D {
  if (rows.kind === 'perRun') return tf.matMul(rows.X, W1);
  if (rows.kind === 'active') {
    // X·W1 for one-hot X is the sum of the W1 rows of its active inputs
    const [R, inDim, H] = W1.shape;
    const [, Q, k] = rows.idx.shape;
    return tf.sum(tf.reshape(tf.gather(tf.reshape(W1, [R * inDim, H]), tf.reshape(rows.idx, [-1])), [R, Q, k, H]), 2);
  }
  const [R, inDim, H] = W1.shape;
  const X = rows.X!;
  const flat = tf.reshape(tf.transpose(W1, [1, 0, 2]), [inDim, R * H]);
  return tf.transpose(tf.reshape(tf.matMul(X, flat), [X.shape[0], R, H]), [1, 0, 2]);
}

function firstLayerGrad(rows: Rows, d: tf.Tensor3D): tf.Tensor3D {
  if (rows.kind === 'perRun') return tf.matMul(rows.X, d, true, false);
  if (rows.kind === 'active') throw new Error('active-input rows are for sampling only');
  const [R, Q, H] = d.shape;
  const X = rows.X!;
  const dFlat = tf.reshape(tf.transpose(d, [1, 0, 2]), [Q, R * H]);
  return tf.transpose(tf.reshape(tf.matMul(X, dFlat, true, false), [X.shape[1], R, H]), [1, 0, 2]);
}

/** Seeded Glorot-uniform weights (× initScale), zero biases, from the (seed, seed index) init stream. */
export function initialMlp(shape: MlpShape, seed: number, seedIndex: number, initScale: number): Float32Array[] {
  const rng = new Rng(streamKey(seed, seedIndex, Purpose.init));
  const out: Float32Array[] = [];
  for (let l = 0; l < shape.layers.length - 1; l++) {
    const fanIn = shape.layers[l];
    const fanOut = shape.layers[l + 1];
    const a = Math.sqrt(6 / (fanIn + fanOut)) * initScale;
    const w = new Float32Array(fanIn * fanOut);
    for (let i = 0; i < w.length; i++) w[i] = (2 * rng.uniform() - 1) * a;
    out.push(w);
    if (shape.bias) out.push(new Float32Array(fanOut));
  }
  return out;
}

/** Per-run parameter shapes (without the run axis). */
export function mlpParamShapes(shape: MlpShape): [number, number][] {
  const s: [number, number][] = [];
  for (let l = 0; l < shape.layers.length - 1; l++) {
    s.push([shape.layers[l], shape.layers[l + 1]]);
    if (shape.bias) s.push([1, shape.layers[l + 1]]);
  }
  return s;
}
