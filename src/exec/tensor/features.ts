import type { Tree } from '../../core/env/tree';

export { activeInputs } from '../host/mlp'; // the 1s of encodeInput's row, as indices (a gather-sum first layer)

// The shared MLP's input (docs/math.md "Policies"): one-hot context ⊕ one-hot turn ⊕ one-hot
// position in the turn ⊕ the earlier tokens as one-hots over V + 1 symbols (V = "not yet
// emitted") for all T·L − 1 earlier positions.

export function inputSize(tree: Tree, contexts: number): number {
  return contexts + tree.T + tree.L + (tree.N - 1) * (tree.V + 1);
}

/** Writes the input of position p after `tokens[0..p)` in context x into out[o ..). */
export function encodeInput(tree: Tree, contexts: number, x: number, p: number, tokens: ArrayLike<number>, tokOffset: number, out: Float32Array, o: number): void {
  const { T, L, N, V } = tree;
  const width = inputSize(tree, contexts);
  out.fill(0, o, o + width);
  out[o + x] = 1;
  out[o + contexts + Math.floor(p / L)] = 1;
  out[o + contexts + T + (p % L)] = 1;
  const base = o + contexts + T + L;
  for (let q = 0; q < N - 1; q++) out[base + q * (V + 1) + (q < p ? tokens[tokOffset + q] : V)] = 1;
}

/** Inputs of every decision node (global ids, x · nodesPerContext + local), row per node. */
export function nodeInputs(tree: Tree, contexts: number): Float32Array {
  const width = inputSize(tree, contexts);
  const out = new Float32Array(contexts * tree.nodesPerContext * width);
  const prefix = new Int32Array(tree.N);
  for (let x = 0; x < contexts; x++) {
    for (let local = 0; local < tree.nodesPerContext; local++) {
      const p = tree.positionOf[local];
      let q = local - tree.offset[p];
      for (let k = p - 1; k >= 0; k--) {
        prefix[k] = q % tree.V;
        q = Math.floor(q / tree.V);
      }
      encodeInput(tree, contexts, x, p, prefix, 0, out, (x * tree.nodesPerContext + local) * width);
    }
  }
  return out;
}

/** One-hot node identity as the input: with no hidden layer and no bias, the MLP is a table. */
export function oneHotNodeInputs(nodes: number): Float32Array {
  const out = new Float32Array(nodes * nodes);
  for (let n = 0; n < nodes; n++) out[n * nodes + n] = 1;
  return out;
}

/** Writes one input row for position p of a rollout (context x, its tokens, the node it is at). */
export interface RowEncoder {
  width: number;
  encode(x: number, p: number, tokens: ArrayLike<number>, tokOffset: number, node: number, out: Float32Array, o: number): void;
}

export function featureEncoder(tree: Tree, contexts: number): RowEncoder {
  return { width: inputSize(tree, contexts), encode: (x, p, tokens, tokOffset, _node, out, o) => encodeInput(tree, contexts, x, p, tokens, tokOffset, out, o) };
}

export function oneHotNodeEncoder(nodes: number): RowEncoder {
  return {
    width: nodes,
    encode: (_x, _p, _tokens, _tokOffset, node, out, o) => {
      out.fill(0, o, o + nodes);
      out[o + node] = 1;
    },
  };
}
