import type { Tree } from '../../core/env/tree';
import { Purpose, Rng, streamKey } from '../../core/rng';

// The shared MLP of docs/math.md "Policies" as host code both the tensor and the WebGPU executor use: its
// shape, its seeded initial weights (so iteration 0 is the same on either), the active inputs of
// every decision node, and a float64 forward pass over the nodes (the WebGPU executor evaluates
// iteration 0 with it).

export interface MlpShape {
  layers: number[]; // [input, ...hidden, V]
  activation: 'tanh' | 'relu';
  bias: boolean;
}

/** Seeded Glorot-uniform weights (× initScale), zero biases, from the (seed, seed index) init stream; every W [in, out], row-major. */
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

/**
 * The N + 2 inputs that are 1 in the input row of position p after `tokens[0..p)` in context x,
 * as indices (plus `shift`): the context, C + turn, C + T + position in the turn, then for each of
 * the N − 1 earlier positions q the slot C + T + L + q·(V + 1) + (its token, or V: "not yet emitted").
 */
export function activeInputs(tree: Tree, contexts: number, x: number, p: number, tokens: ArrayLike<number>, tokOffset: number, out: Int32Array | Uint32Array, o: number, shift: number): void {
  const { T, L, N, V } = tree;
  out[o] = shift + x;
  out[o + 1] = shift + contexts + Math.floor(p / L);
  out[o + 2] = shift + contexts + T + (p % L);
  const base = shift + contexts + T + L;
  for (let q = 0; q < N - 1; q++) out[o + 3 + q] = base + q * (V + 1) + (q < p ? tokens[tokOffset + q]! : V);
}

/** The active inputs of every decision node (global id x·nodesPerContext + local), N + 2 per node. */
export function nodeActiveInputs(tree: Tree, contexts: number): Uint32Array {
  const { N, V } = tree;
  const out = new Uint32Array(contexts * tree.nodesPerContext * (N + 2));
  const prefix = new Int32Array(N);
  for (let x = 0; x < contexts; x++)
    for (let local = 0; local < tree.nodesPerContext; local++) {
      const p = tree.positionOf[local]!;
      let q = local - tree.offset[p]!;
      for (let k = p - 1; k >= 0; k--) {
        prefix[k] = q % V;
        q = Math.floor(q / V);
      }
      activeInputs(tree, contexts, x, p, prefix, 0, out, (x * tree.nodesPerContext + local) * (N + 2), 0);
    }
  return out;
}

/** Logits of every node (float64), from weights as initialMlp lays them out and the nodes' active inputs. */
export function mlpNodeLogits(shape: MlpShape, weights: Float32Array[], active: Uint32Array, nodes: number, out: Float64Array): Float64Array {
  const K = active.length / nodes;
  const nL = shape.layers.length - 1;
  const W = (l: number) => weights[shape.bias ? 2 * l : l]!;
  const b = (l: number) => (shape.bias ? weights[2 * l + 1]! : null);
  const act = (z: number) => (shape.activation === 'tanh' ? Math.tanh(z) : Math.max(0, z));
  for (let g = 0; g < nodes; g++) {
    // the first layer: the sum of the W1 rows of the active inputs (the input is one-hot)
    const n0 = shape.layers[1]!;
    let h = new Float64Array(n0);
    for (let o = 0; o < n0; o++) {
      let z = b(0)?.[o] ?? 0;
      for (let j = 0; j < K; j++) z += W(0)[active[g * K + j]! * n0 + o]!;
      h[o] = nL === 1 ? z : act(z);
    }
    for (let l = 1; l < nL; l++) {
      const nIn = shape.layers[l]!;
      const nOut = shape.layers[l + 1]!;
      const next = new Float64Array(nOut);
      for (let o = 0; o < nOut; o++) {
        let z = b(l)?.[o] ?? 0;
        for (let i = 0; i < nIn; i++) z += h[i]! * W(l)[i * nOut + o]!;
        next[o] = l === nL - 1 ? z : act(z);
      }
      h = next;
    }
    out.set(h, g * shape.layers[nL]!);
  }
  return out;
}
