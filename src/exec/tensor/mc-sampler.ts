import * as tf from '@tensorflow/tfjs-core';
import type { Tree } from '../../core/env/tree';
import { activeInputs } from './features';
import type { TensorPolicy } from './policy';

/**
 * Token-by-token sampling of `count` rollouts per run from the MLP, for environments too large
 * to tabulate: one forward per position over every run's rollouts, then inverse-CDF draws on
 * the host with the given uniforms (u[(r·count + i)·P + p], drawn in the CPU executor's order).
 * Returns the tokens [R·count·P] and adds each run's summed per-token entropy to `entropy`.
 */
export async function sampleTokens(
  policy: TensorPolicy,
  params: tf.Tensor[],
  tree: Tree,
  contexts: number,
  inputWidth: number,
  R: number,
  count: number,
  ctx: Int32Array,
  u: Float64Array,
  entropy: Float64Array | null,
): Promise<Int32Array> {
  const { N: P, V } = tree;
  const K = P + 2;
  const tokens = new Int32Array(R * count * P);
  const idx = new Int32Array(R * count * K);
  for (let p = 0; p < P; p++) {
    for (let r = 0; r < R; r++)
      for (let i = 0; i < count; i++) {
        const j = r * count + i;
        activeInputs(tree, contexts, ctx[j], p, tokens, j * P, idx, j * K, r * inputWidth);
      }
    const probs = tf.tidy(() => tf.softmax(policy.forward(params, { kind: 'active', idx: tf.tensor3d(idx, [R, count, K], 'int32') }).logits));
    const pr = (await probs.data()) as Float32Array;
    probs.dispose();
    for (let j = 0; j < R * count; j++) {
      const o = j * V;
      const uj = u[j * P + p];
      let a = 0;
      let cum = pr[o];
      while (uj >= cum && a < V - 1) cum += pr[o + ++a];
      tokens[j * P + p] = a;
      if (entropy) {
        let h = 0;
        // q ≠ 0 rather than q > 0: a NaN probability (non-finite logits) makes the entropy NaN, and the run diverged
        for (let b = 0; b < V; b++) if (pr[o + b] !== 0) h -= pr[o + b] * Math.log(pr[o + b]);
        entropy[Math.floor(j / count)] += h;
      }
    }
  }
  return tokens;
}

/** Index of a token sequence among the V^N of its context (first token most significant). */
export function sequenceIndex(tokens: Int32Array, o: number, P: number, V: number): number {
  let s = 0;
  for (let k = 0; k < P; k++) s = s * V + tokens[o + k];
  return s;
}
