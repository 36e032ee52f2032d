import { NODE_EXIT, NODE_FOLDED, NODE_OPTIMAL, prefixTokens, turnOfLength, type PolicyTreeView } from '../../core/env/policy-tree';
import type { Tree } from '../../core/env/tree';

// Where the policy tree's nodes go: depth (tokens so far) left to right, one row per shown leaf
// in token order, a parent midway between its first and last child (a tidy tree).

export interface LaidNode {
  /** Index into the view's arrays. */
  i: number;
  tokens: number[];
  /** "0-1-0" ("" for the context). */
  prefix: string;
  depth: number;
  /** 1-based turn of the last token (0: the context). */
  turn: number;
  row: number;
  parent: number | null;
  optimal: boolean;
  exit: boolean;
  folded: boolean;
  /** Prefixes below a folded node (its whole subtree). */
  below: number;
}

export function layoutTree(tree: Tree, view: PolicyTreeView): { nodes: LaidNode[]; rows: number } {
  const byPrefix = new Map<string, number>();
  const nodes: LaidNode[] = view.ids.map((id, i) => {
    const tokens = prefixTokens(tree, id);
    const prefix = tokens.join('-');
    byPrefix.set(prefix, i);
    const depth = tokens.length;
    let below = 0;
    for (let d = 1, w = tree.V; d <= tree.N - depth; d++, w *= tree.V) below += w;
    const f = view.flags[i];
    return { i, tokens, prefix, depth, turn: turnOfLength(tree, depth), row: 0, parent: null, optimal: (f & NODE_OPTIMAL) !== 0, exit: (f & NODE_EXIT) !== 0, folded: (f & NODE_FOLDED) !== 0, below };
  });
  const children = nodes.map(() => [] as number[]);
  for (const n of nodes) {
    if (n.depth === 0) continue;
    const p = byPrefix.get(n.tokens.slice(0, -1).join('-'));
    if (p === undefined) continue;
    n.parent = p;
    children[p].push(n.i);
  }
  for (const c of children) c.sort((a, b) => nodes[a].tokens[nodes[a].depth - 1] - nodes[b].tokens[nodes[b].depth - 1]);
  let rows = 0;
  const place = (i: number): number => {
    const kids = children[i];
    if (kids.length === 0) return (nodes[i].row = rows++);
    const ys = kids.map(place);
    return (nodes[i].row = (ys[0] + ys[ys.length - 1]) / 2);
  };
  const root = byPrefix.get('');
  if (root !== undefined) place(root);
  return { nodes, rows };
}
