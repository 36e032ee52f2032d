// A tabular softmax policy written the plain way: one `number[]` of V logits per decision node,
// a node numbered as in src/core/env/tree.ts (context · nodesPerContext + offset[position] + prefix).

import type { Tree } from '../../src/core/env/tree';
import type { Prng } from './prng';

export interface TabularPolicy {
  tree: Tree;
  contexts: number;
  logits: number[][];
}

export function makePolicy(tree: Tree, contexts: number, initScale: number, rng: Prng): TabularPolicy {
  const logits: number[][] = [];
  for (let n = 0; n < contexts * tree.nodesPerContext; n++) {
    const row: number[] = [];
    for (let a = 0; a < tree.V; a++) row.push(initScale === 0 ? 0 : initScale * rng.normal());
    logits.push(row);
  }
  return { tree, contexts, logits };
}

export function clonePolicy(p: TabularPolicy): TabularPolicy {
  return { tree: p.tree, contexts: p.contexts, logits: p.logits.map((row) => row.slice()) };
}

export function softmax(row: number[]): number[] {
  let m = -Infinity;
  for (const v of row) if (v > m) m = v;
  const e: number[] = [];
  let s = 0;
  for (const v of row) {
    const x = Math.exp(v - m);
    e.push(x);
    s += x;
  }
  for (let a = 0; a < e.length; a++) e[a] /= s;
  return e;
}

/** log Σ_a exp(row[a]), shifted by the maximum. */
export function logNormalizer(row: number[]): number {
  let m = -Infinity;
  for (const v of row) if (v > m) m = v;
  let s = 0;
  for (const v of row) s += Math.exp(v - m);
  return m + Math.log(s);
}

export function logProb(row: number[], a: number): number {
  return row[a] - logNormalizer(row);
}

/** [0, 1, …, n − 1]. */
export function range(n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(i);
  return out;
}

/** Node id of (context, token position, prefix index) and the turn (0-based) of a node. */
export function nodeId(tree: Tree, x: number, position: number, prefix: number): number {
  return x * tree.nodesPerContext + tree.offset[position] + prefix;
}

export function turnOfNode(tree: Tree, node: number): number {
  return Math.floor(tree.positionOf[node % tree.nodesPerContext] / tree.L);
}

export function zerosLike(p: TabularPolicy): number[][] {
  return p.logits.map((row) => row.map(() => 0));
}

/** grad[node] += c · ∇log π(a | node) = c · (e_a − π(· | node)). */
export function addGradLogProb(p: TabularPolicy, grad: number[][], node: number, a: number, c: number): void {
  const probs = softmax(p.logits[node]);
  for (let b = 0; b < probs.length; b++) grad[node][b] += c * ((b === a ? 1 : 0) - probs[b]);
}

export function gradNorm(grad: number[][]): number {
  let s = 0;
  for (const row of grad) for (const g of row) s += g * g;
  return Math.sqrt(s);
}

/** KL(old ‖ new) at one node. */
export function nodeKl(oldRow: number[], newRow: number[]): number {
  const lzOld = logNormalizer(oldRow);
  const lzNew = logNormalizer(newRow);
  let kl = 0;
  for (let a = 0; a < oldRow.length; a++) {
    const lp = oldRow[a] - lzOld;
    if (lp > -Infinity) kl += Math.exp(lp) * (lp - (newRow[a] - lzNew));
  }
  return kl;
}
