import * as tf from '@tensorflow/tfjs-core';
import type { MlpShape } from '../host/mlp';

// Policies of docs/math.md "Policies" for R runs at once. Every parameter tensor has the runs on
// axis 0, so one op serves every run, and nothing ever sums across runs.

/** Where the logits are evaluated: every node (rows shared by all runs) or per-run rows. */
export type Rows =
  | { kind: 'shared'; X: tf.Tensor2D | null }
  | { kind: 'perRun'; X: tf.Tensor3D }
  /** One-hot rows given by their active inputs [R, rows, k] (indices into the run's W1 rows, offset by r·in); forward only. */
  | { kind: 'active'; idx: tf.Tensor3D };

export { initialMlp, type MlpShape } from '../host/mlp';

export interface TensorPolicy {
  readonly kind: 'tabular' | 'mlp';
  /** Logits [R, Q, V] at the rows, and what backward() needs. */
  forward(params: tf.Tensor[], rows: Rows): { logits: tf.Tensor3D; acts: tf.Tensor3D[] };
  /** Gradients (same shapes as params) of Σ dLogits·logits. */
  backward(params: tf.Tensor[], rows: Rows, acts: tf.Tensor3D[], dLogits: tf.Tensor3D): tf.Tensor[];
  /** Frees the policy's own constants. */
  dispose(): void;
}

/** Tabular: one [R, nodes, V] logits table; its rows are the nodes themselves. */
export const tabularPolicy: TensorPolicy = {
  kind: 'tabular',
  forward: (params) => ({ logits: params[0] as tf.Tensor3D, acts: [] }),
  backward: (_params, _rows, _acts, dLogits) => [dLogits],
  dispose: () => {},
};

/**
 * Shared MLP: params [W1ᵀ, b1, W2, b2, …]: the first layer's weights transposed, [R, out, in];
 * the others [R, in, out]; biases [R, out, 1] below the output layer, [R, 1, V] at it (absent
 * without bias; with one layer only, that layer's bias is [R, V, 1]). The hidden activations are
 * kept transposed, [R, units, rows], so that the first layer over rows shared by every run is one
 * plain matMul [R·out, in]·[in, rows] (one batched matMul of R small ones costs far more), and its
 * gradient another, [R·out, rows]·[rows, in].
 */
export function mlpPolicy(shape: MlpShape): TensorPolicy {
  const nLayers = shape.layers.length - 1;
  const W = (p: tf.Tensor[], l: number) => p[shape.bias ? 2 * l : l] as tf.Tensor3D;
  const B = (p: tf.Tensor[], l: number) => p[2 * l + 1] as tf.Tensor3D;
  // wasm's tanh is scalar code, about 15× slower than its sigmoid: tanh(z) = 2σ(2z) − 1 there
  const wasm = tf.getBackend() === 'wasm';
  const viaSigmoid = shape.activation === 'tanh' && wasm;
  const one = shape.activation === 'tanh' ? tf.scalar(1) : null;
  // the cpu backend broadcasts a non-scalar operand slowly: biases are spread by matMul with ones there
  const spreadByMatMul = tf.getBackend() === 'cpu';
  const ones = new Map<string, tf.Tensor2D>();
  const onesOf = (r: number, c: number) => {
    const key = `${r}x${c}`;
    let t = ones.get(key);
    if (!t) ones.set(key, (t = tf.keep(tf.ones([r, c]))));
    return t;
  };
  /** x [R, out, Q] + b [R, out, 1], or x [R, Q, V] + b [R, 1, V]. */
  const addBias = (x: tf.Tensor3D, b: tf.Tensor3D): tf.Tensor3D => {
    if (!spreadByMatMul) return tf.add(x, b);
    const full = b.shape[2] === 1 ? tf.matMul(b, onesOf(1, x.shape[2])) : tf.matMul(onesOf(x.shape[1], 1), b);
    return tf.add(x, full);
  };
  const act = (z: tf.Tensor3D): tf.Tensor3D => {
    if (shape.activation === 'relu') return tf.relu(z);
    if (!viaSigmoid) return tf.tanh(z);
    const s = tf.sigmoid(tf.add(z, z));
    return tf.sub(tf.add(s, s), one!) as tf.Tensor3D;
  };
  /** dL/dz from dL/dh and h = act(z). */
  const actGrad = (dh: tf.Tensor3D, h: tf.Tensor3D): tf.Tensor3D =>
    shape.activation === 'tanh' ? tf.mul(dh, tf.sub(one!, tf.square(h))) : tf.mul(dh, tf.step(h));
  return {
    kind: 'mlp',
    forward(params, rows) {
      if (rows.kind === 'active') return { logits: forwardActive(params, rows.idx), acts: [] };
      const acts: tf.Tensor3D[] = [];
      let hT: tf.Tensor3D = firstLayerT(rows, W(params, 0)); // [R, out, Q]
      if (shape.bias) hT = addBias(hT, B(params, 0));
      if (nLayers === 1) return { logits: tf.transpose(hT, [0, 2, 1]) as tf.Tensor3D, acts };
      for (let l = 1; l < nLayers; l++) {
        hT = act(hT);
        acts.push(hT);
        if (l === nLayers - 1) {
          // [R, Q, V]; on wasm as (W_Lᵀ·hT)ᵀ, transposing the two small tensors rather than hT
          let logits: tf.Tensor3D = wasm ? swapLast(tf.matMul(swapLast(W(params, l)), hT)) : tf.matMul(hT, W(params, l), true, false);
          if (shape.bias) logits = addBias(logits, B(params, l));
          return { logits, acts };
        }
        hT = mm(W(params, l), hT, true, false);
        if (shape.bias) hT = addBias(hT, B(params, l));
      }
      throw new Error('unreachable');
    },
    backward(params, rows, acts, dLogits) {
      const grads: tf.Tensor[] = new Array(params.length);
      const bias = (l: number, dT: tf.Tensor3D) => {
        if (shape.bias) grads[2 * l + 1] = tf.sum(dT, 2, true);
      };
      let dT: tf.Tensor3D; // dL/dz of the layer below, transposed [R, units, Q]
      if (nLayers === 1) dT = tf.transpose(dLogits, [0, 2, 1]);
      else {
        const l = nLayers - 1;
        const hT = acts[l - 1];
        if (shape.bias) grads[2 * l + 1] = tf.sum(dLogits, 1, true);
        grads[shape.bias ? 2 * l : l] = tf.matMul(hT, dLogits);
        dT = actGrad(mm(W(params, l), dLogits, false, true), hT);
        for (let m = l - 1; m >= 1; m--) {
          const hPrevT = acts[m - 1];
          bias(m, dT);
          grads[shape.bias ? 2 * m : m] = mm(hPrevT, dT, false, true);
          dT = actGrad(tf.matMul(W(params, m), dT), hPrevT);
        }
      }
      bias(0, dT);
      grads[0] = firstLayerGradT(rows, dT);
      return grads;
    },
    dispose: () => {
      one?.dispose();
      tf.dispose([...ones.values()]);
      ones.clear();
    },
  };

  /** Forward at one-hot rows given by their active inputs (sampling), row-major. */
  function forwardActive(params: tf.Tensor[], idx: tf.Tensor3D): tf.Tensor3D {
    const W1T = W(params, 0);
    const [R, H, inDim] = W1T.shape;
    const [, Q, k] = idx.shape;
    // X·W1 for one-hot X is the sum of the W1 rows of its active inputs
    const rowsOfW1 = tf.reshape(tf.transpose(W1T, [0, 2, 1]), [R * inDim, H]);
    let h = tf.sum(tf.reshape(tf.gather(rowsOfW1, tf.reshape(idx, [-1])), [R, Q, k, H]), 2) as tf.Tensor3D;
    for (let l = 0; l < nLayers; l++) {
      if (l > 0) h = tf.matMul(h, W(params, l));
      if (shape.bias) h = tf.add(h, l < nLayers - 1 || l === 0 ? tf.reshape(B(params, l), [R, 1, -1]) : B(params, l));
      if (l < nLayers - 1) h = act(h);
    }
    return h;
  }
}

/** Swap the last two axes. */
function swapLast<T extends tf.Tensor>(x: T): T {
  return tf.transpose(x, x.rank === 2 ? [1, 0] : [0, 2, 1]) as T;
}

/**
 * matMul with transposed operands. On wasm a matMul asked to transpose an operand falls back to
 * plain loops (several times slower than its matMul of untransposed operands), so the operand
 * is transposed first there.
 */
function mm<T extends tf.Tensor>(a: T, b: tf.Tensor, ta: boolean, tb: boolean): T {
  if ((!ta && !tb) || tf.getBackend() !== 'wasm') return tf.matMul(a, b, ta, tb) as unknown as T;
  return tf.matMul(ta ? swapLast(a) : a, tb ? swapLast(b) : b) as unknown as T;
}

/** (X·W1)ᵀ [R, out, Q] from W1ᵀ [R, out, in]: one matMul for rows shared by every run, else batched. */
function firstLayerT(rows: Rows, W1T: tf.Tensor3D): tf.Tensor3D {
  if (rows.kind === 'perRun') return mm(W1T, rows.X, false, true);
  if (rows.kind === 'active') throw new Error('active-input rows are for sampling only');
  const [R, H, inDim] = W1T.shape;
  const X = rows.X!;
  return tf.reshape(mm(tf.reshape(W1T, [R * H, inDim]), X, false, true), [R, H, X.shape[0]]);
}

/** Gradient of W1ᵀ [R, out, in] from dL/dz transposed [R, out, Q]. */
function firstLayerGradT(rows: Rows, dT: tf.Tensor3D): tf.Tensor3D {
  if (rows.kind === 'perRun') return tf.matMul(dT, rows.X);
  if (rows.kind === 'active') throw new Error('active-input rows are for sampling only');
  const [R, H, Q] = dT.shape;
  const X = rows.X!;
  return tf.reshape(tf.matMul(tf.reshape(dT, [R * H, Q]), X), [R, H, X.shape[1]]);
}

/** Per-run parameter shapes (without the run axis); the first layer's weights transposed [out, in], biases below the output layer [out, 1]. */
export function mlpParamShapes(shape: MlpShape): [number, number][] {
  const s: [number, number][] = [];
  for (let l = 0; l < shape.layers.length - 1; l++) {
    s.push(l === 0 ? [shape.layers[1], shape.layers[0]] : [shape.layers[l], shape.layers[l + 1]]);
    if (shape.bias) s.push(l < shape.layers.length - 2 || l === 0 ? [shape.layers[l + 1], 1] : [1, shape.layers[l + 1]]);
  }
  return s;
}
