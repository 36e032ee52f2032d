import type { Tree } from './tree';

// The bandit of one context drawn as its tree (docs/math.md, "The decision tree"): every prefix
// of tokens is a node, from the empty prefix (the context) down to the full sequences, whose
// return R is paid at the leaves. A prefix of p tokens with lexicographic index q has the id
// offset[p] + q for p < N (its local decision-node id, tree.ts) and nodesPerContext + q for the
// full sequences (p = N), so one array indexes every prefix.
//
// Values are on the total return: V^π(prefix) = E_π[R | prefix], so Q^π(prefix, a) is the
// value of the child prefix·a, the advantage A^π(prefix, a) = Q^π(prefix, a) − V^π(prefix), and
// V*(prefix) = the best return of any completion (backward induction, exact.ts).

/** Number of prefixes of one context: decision nodes and full sequences. */
export const prefixCount = (tree: Tree): number => tree.nodesPerContext + tree.sequences;

/** Tokens in prefix `id` (0 for the context itself). */
export function prefixLength(tree: Tree, id: number): number {
  if (id >= tree.nodesPerContext) return tree.N;
  return tree.positionOf[id];
}

/** Lexicographic index of prefix `id` among the prefixes of its length. */
function prefixIndex(tree: Tree, id: number): number {
  return id >= tree.nodesPerContext ? id - tree.nodesPerContext : id - tree.offset[tree.positionOf[id]];
}

/** The tokens of prefix `id`, first token first. */
export function prefixTokens(tree: Tree, id: number): number[] {
  const p = prefixLength(tree, id);
  let q = prefixIndex(tree, id);
  const out = new Array<number>(p);
  for (let k = p - 1; k >= 0; k--) {
    out[k] = q % tree.V;
    q = Math.floor(q / tree.V);
  }
  return out;
}

/** The id of the prefix `tokens` (each in [0, V)). */
export function prefixId(tree: Tree, tokens: readonly number[]): number {
  let q = 0;
  for (const a of tokens) q = q * tree.V + a;
  return tokens.length === tree.N ? tree.nodesPerContext + q : tree.offset[tokens.length] + q;
}

/** The id of child prefix·a of decision node `id`. */
export function childId(tree: Tree, id: number, a: number): number {
  const p = tree.positionOf[id];
  const c = (id - tree.offset[p]) * tree.V + a;
  return p + 1 === tree.N ? tree.nodesPerContext + c : tree.offset[p + 1] + c;
}

/** 1-based turn of the last token of a prefix of `length` tokens (0: the context). */
export const turnOfLength = (tree: Tree, length: number): number => (length === 0 ? 0 : Math.floor((length - 1) / tree.L) + 1);

export interface PrefixValues {
  /** P_π(prefix | x): the probability that the policy writes this prefix. */
  reach: Float64Array;
  /** V^π(prefix) = E_π[R | prefix]. */
  value: Float64Array;
  /** V*(prefix): the best return of any completion. */
  best: Float64Array;
  /** The worst return of any completion (best = worst: nothing below the prefix matters). */
  worst: Float64Array;
}

export function makePrefixValues(tree: Tree): PrefixValues {
  const n = prefixCount(tree);
  return { reach: new Float64Array(n), value: new Float64Array(n), best: new Float64Array(n), worst: new Float64Array(n) };
}

/**
 * Every prefix's reach, V^π, V* and worst completion for one context: `returns` are that
 * context's R per sequence, `probs` the policy's table (π(a | node) at probs[base + node·V + a]).
 */
export function prefixValues(tree: Tree, returns: Float64Array, probs: Float64Array, base: number, out: PrefixValues = makePrefixValues(tree)): PrefixValues {
  const { V, N, nodesPerContext: nodes, offset } = tree;
  const { reach, value, best, worst } = out;
  for (let s = 0; s < tree.sequences; s++) {
    value[nodes + s] = best[nodes + s] = worst[nodes + s] = returns[s];
  }
  for (let p = N - 1; p >= 0; p--) {
    const c0 = p + 1 === N ? nodes : offset[p + 1];
    for (let n = offset[p]; n < offset[p + 1]; n++) {
      const c = c0 + (n - offset[p]) * V;
      let v = 0, hi = -Infinity, lo = Infinity;
      for (let a = 0; a < V; a++) {
        v += probs[base + n * V + a] * value[c + a];
        if (best[c + a] > hi) hi = best[c + a];
        if (worst[c + a] < lo) lo = worst[c + a];
      }
      value[n] = v;
      best[n] = hi;
      worst[n] = lo;
    }
  }
  reach[0] = 1;
  for (let p = 0; p < N; p++) {
    const c0 = p + 1 === N ? nodes : offset[p + 1];
    for (let n = offset[p]; n < offset[p + 1]; n++) {
      const c = c0 + (n - offset[p]) * V;
      for (let a = 0; a < V; a++) reach[c + a] = reach[n] * probs[base + n * V + a];
    }
  }
  return out;
}

/** Every return below the prefix is the same (to rounding): its choices change nothing. */
export const isConstant = (v: PrefixValues, id: number): boolean => v.best[id] - v.worst[id] <= 1e-12 * Math.max(1, Math.abs(v.best[id]));

export interface CollapseOptions {
  /** A prefix that the policy reaches with at least this probability shows its choices (when they matter). */
  minReach: number;
  /** At most this many prefixes are shown (the optimal path's always are). */
  maxShown: number;
}

export const DEFAULT_COLLAPSE: CollapseOptions = { minReach: 0.02, maxShown: 160 };

/**
 * Which prefixes to draw. The context and the optimal path (`path`: the prefix ids from the
 * context to the optimal leaf) always show their children; any other decision node shows all
 * its children when the policy reaches it with probability ≥ minReach and its completions do
 * not all return the same (a constant subtree is one node: "whatever follows, R"). Nodes are
 * opened most-reached first while the total stays within maxShown. Returns the shown ids in the
 * order they were opened (a parent before its children) and the number of prefixes hidden.
 */
export function collapseTree(tree: Tree, v: PrefixValues, path: readonly number[], opts: CollapseOptions = DEFAULT_COLLAPSE): { shown: number[]; hidden: number } {
  const { V, nodesPerContext: nodes } = tree;
  const onPath = new Set(path);
  const shown: number[] = [0];
  const open = (n: number) => {
    for (let a = 0; a < V; a++) {
      const c = childId(tree, n, a);
      shown.push(c);
      if (c < nodes && !onPath.has(c)) candidates.push(c);
    }
  };
  const candidates: number[] = [];
  // the optimal path first, so that the budget never cuts it
  for (const n of path) if (n < nodes) open(n);
  if (!onPath.has(0)) open(0);
  for (;;) {
    let pick = -1;
    for (let i = 0; i < candidates.length; i++) {
      const c = candidates[i];
      if (v.reach[c] < opts.minReach || isConstant(v, c)) continue;
      if (pick < 0 || v.reach[c] > v.reach[candidates[pick]]) pick = i;
    }
    if (pick < 0 || shown.length + V > opts.maxShown) break;
    const n = candidates[pick];
    candidates.splice(pick, 1);
    open(n);
  }
  return { shown, hidden: prefixCount(tree) - shown.length };
}

/** The prefix ids along the first optimal path of a context (exact.ts's Optimum.path, then its leaf). */
export function optimalPathIds(tree: Tree, pathNodes: Int32Array, optimal: Uint8Array, contextBase: number): number[] {
  const ids = Array.from(pathNodes);
  const last = pathNodes[pathNodes.length - 1];
  let a = 0;
  while (a < tree.V - 1 && !optimal[(contextBase + last) * tree.V + a]) a++;
  ids.push(childId(tree, last, a));
  return ids;
}

/**
 * The advantage the algorithm fed each (node, token) of one context this iteration: the
 * weighted mean of the per-token advantages of the batch's rollouts that took that token there
 * (exact mode: E_old[Â | edge]; sampled: over the sampled rollouts). NaN where none did.
 * `node` holds global node ids (x·nodesPerContext + local), rollout i's token k at i·N + k.
 */
export function fedAdvantage(
  tree: Tree,
  context: number,
  batch: { n: number; node: Int32Array; tok: Int32Array; weight: Float64Array; advTok: Float64Array },
  out: Float64Array = new Float64Array(tree.nodesPerContext * tree.V),
): Float64Array {
  const { V, N, nodesPerContext: nodes } = tree;
  const wsum = new Float64Array(out.length);
  out.fill(0);
  const lo = context * nodes;
  for (let i = 0; i < batch.n; i++) {
    const w = batch.weight[i];
    if (!(w > 0)) continue;
    for (let k = 0; k < N; k++) {
      const g = batch.node[i * N + k] - lo;
      if (g < 0 || g >= nodes) break;
      const e = g * V + batch.tok[i * N + k];
      out[e] += w * batch.advTok[i * N + k];
      wsum[e] += w;
    }
  }
  for (let e = 0; e < out.length; e++) out[e] = wsum[e] > 0 ? out[e] / wsum[e] : NaN;
  return out;
}

/** Bits of PolicyTreeView.flags. */
export const NODE_OPTIMAL = 1;
export const NODE_EXIT = 2;
export const NODE_FOLDED = 4;

/**
 * One run's policy as its tree, as the page draws it (at most maxShown prefixes). Per shown
 * prefix: π(last token | parent) (`prob`; 1 for the context), reach, V^π, V*, the advantage the
 * algorithm fed its last token (null: none this iteration) and flags: on the optimal path; a
 * safe exit (a constant subtree off the optimal path paying more than the worst return); folded
 * (a decision node whose children are hidden).
 */
export interface PolicyTreeView {
  algoIndex: number;
  seedIndex: number;
  /** Iterations done when this was taken. */
  iteration: number;
  /** During Step one turn: the turn just updated (0-based; −1 all turns at once); else null. */
  turn: number | null;
  context: number;
  ids: number[];
  prob: number[];
  reach: number[];
  value: number[];
  best: number[];
  fed: (number | null)[];
  /** Set where the executor keeps no batch to read the advantages fed from (then `fed` is all null): why. */
  noFed?: string;
  flags: number[];
  hidden: number;
}

export interface TreeViewInput {
  tree: Tree;
  returns: Float64Array;
  probs: Float64Array;
  base: number;
  path: readonly number[];
  fed: Float64Array | null;
  opts?: CollapseOptions;
}

export function policyTreeView(inp: TreeViewInput, meta: Pick<PolicyTreeView, 'algoIndex' | 'seedIndex' | 'iteration' | 'turn' | 'context'>, scratch?: PrefixValues): PolicyTreeView {
  const { tree, probs, base } = inp;
  const v = prefixValues(tree, inp.returns, probs, base, scratch);
  const { shown, hidden } = collapseTree(tree, v, inp.path, inp.opts);
  const onPath = new Set(inp.path);
  const shownSet = new Set(shown);
  const view: PolicyTreeView = { ...meta, ids: shown, prob: [], reach: [], value: [], best: [], fed: [], flags: [], hidden };
  for (const id of shown) {
    const toks = prefixTokens(tree, id);
    let prob = 1, fed: number | null = null;
    if (toks.length > 0) {
      const parent = prefixId(tree, toks.slice(0, -1));
      const e = parent * tree.V + toks[toks.length - 1];
      prob = probs[base + e];
      const f = inp.fed ? inp.fed[e] : NaN;
      fed = Number.isFinite(f) ? f : null;
    }
    let flags = onPath.has(id) ? NODE_OPTIMAL : 0;
    if (!onPath.has(id) && id !== 0 && isConstant(v, id) && v.best[id] > v.worst[0] + 1e-12) flags |= NODE_EXIT;
    if (id < tree.nodesPerContext && !shownSet.has(childId(tree, id, 0))) flags |= NODE_FOLDED;
    view.prob.push(prob);
    view.reach.push(v.reach[id]);
    view.value.push(v.value[id]);
    view.best.push(v.best[id]);
    view.fed.push(fed);
    view.flags.push(flags);
  }
  return view;
}
