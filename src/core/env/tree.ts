import type { Env } from './types';

/**
 * The decision tree of one context. A node is (position p, prefix of p tokens); its index
 * within a context is offset[p] + prefixIndex, prefixes in lexicographic order, so the
 * children of (p, q) are (p + 1, q·V + a) and the leaves of the last position are the
 * V^N token sequences themselves. Global node id = x · nodesPerContext + local id.
 */
export interface Tree {
  V: number;
  L: number;
  T: number;
  N: number; // tokens per episode, T·L
  sequences: number; // V^N per context
  nodesPerContext: number;
  offset: Int32Array; // offset[p], p = 0..N (offset[N] = nodesPerContext)
  positionOf: Int32Array; // local node id -> position p
}

export function buildTree(env: Pick<Env, 'vocab' | 'tokensPerTurn' | 'turns'>): Tree {
  const V = env.vocab;
  const L = env.tokensPerTurn;
  const T = env.turns;
  const N = T * L;
  const offset = new Int32Array(N + 1);
  let width = 1;
  for (let p = 0; p < N; p++) {
    offset[p + 1] = offset[p] + width;
    width *= V;
  }
  const nodesPerContext = offset[N];
  const positionOf = new Int32Array(nodesPerContext);
  for (let p = 0; p < N; p++) positionOf.fill(p, offset[p], offset[p + 1]);
  return { V, L, T, N, sequences: width, nodesPerContext, offset, positionOf };
}

export function sequenceCount(env: Pick<Env, 'vocab' | 'tokensPerTurn' | 'turns'>): number {
  return Math.pow(env.vocab, env.turns * env.tokensPerTurn);
}

/** Tokens of sequence s, first token most significant. */
export function decodeSequence(tree: Tree, s: number, out: Int32Array = new Int32Array(tree.N)): Int32Array {
  for (let k = tree.N - 1; k >= 0; k--) {
    out[k] = s % tree.V;
    s = Math.floor(s / tree.V);
  }
  return out;
}

/** Turn (0-based) of token position k. */
export function turnOf(tree: Tree, k: number): number {
  return Math.floor(k / tree.L);
}

/**
 * Discount between position k and k + 1: γ when k is the last token of a turn, else 1
 * (docs/math.md "Advantages", GAE's γ_step).
 */
export function stepDiscount(tree: Tree, gamma: number, k: number): number {
  return (k + 1) % tree.L === 0 ? gamma : 1;
}
