import type { Problem } from './problem';

/**
 * One iteration's rollouts, laid out flat: rollout i's token k lives at i·N + k. In exact
 * mode the rollouts are every token sequence of every context, weighted by p(x)·P_old(τ|x)
 * (docs/math.md "Exact mode"); in sampled mode each of the B·G rollouts weighs 1/(B·G).
 * Allocated once per shard and refilled every iteration.
 */
export interface Batch {
  n: number;
  N: number;
  ctx: Int32Array;
  group: Int32Array;
  tok: Int32Array;
  node: Int32Array; // parameter node ids
  /** The token's logit, node·V + tok: what the update loops index θ, gradients and ratios by (rules.ts). */
  param: Int32Array;
  /** Context node ids (x · nodesPerContext + local), what the critic is indexed by; the same array as `node` unless the table is shared. */
  contextNode: Int32Array;
  reward: Float64Array; // the undiscounted total return R = Σ_t r_t; sampled: with noise; exact: R̄
  /** The terminal reward r_T (sampled: with its noise; exact: its mean): the same array as `reward` without env.turnRewards. */
  terminal: Float64Array;
  /** With env.turnRewards: the rewards by turn, r_1..r_T at [i·T + t] (r_T = terminal); else empty. */
  turnReward: Float64Array;
  /** With env.turnRewards: the discounted rewards-to-go G_t at [i·T + t] (docs/math.md "Advantages"); else empty. */
  togo: Float64Array;
  weight: Float64Array; // the rollout's weight in a full-batch mean
  adv: Float64Array; // Â_i after normalization (per rollout)
  advTok: Float64Array; // the advantage fed to each token (turn discount, or GAE)
  target: Float64Array; // GAE: the critic's λ-return per token
  logpOld: Float64Array;
  M: Float64Array; // sequential: the running product of updated turns' ratios
  /** Visited nodes, grouped by turn: nodes[turnStart[t] .. turnStart[t+1]). */
  nodes: Int32Array;
  turnStart: Int32Array;
  nNodes: number;
  groups: number;
  /** Scratch for collectNodes. */
  sortTmp: Int32Array;
  sortFill: Int32Array;
}

export function makeBatch(pb: Problem): Batch {
  const n = pb.rollouts;
  const N = pb.tree.N;
  const b: Batch = {
    n,
    N,
    ctx: new Int32Array(n),
    group: new Int32Array(n),
    tok: new Int32Array(n * N),
    node: new Int32Array(n * N),
    param: new Int32Array(n * N),
    contextNode: new Int32Array(0),
    reward: new Float64Array(n),
    terminal: new Float64Array(0),
    turnReward: new Float64Array(pb.env.turnRewards ? n * pb.tree.T : 0),
    togo: new Float64Array(pb.env.turnRewards ? n * pb.tree.T : 0),
    weight: new Float64Array(n),
    adv: new Float64Array(n),
    advTok: new Float64Array(n * N),
    target: new Float64Array(n * N),
    logpOld: new Float64Array(n * N),
    M: new Float64Array(n),
    nodes: new Int32Array(pb.exact ? pb.nodes : Math.min(pb.nodes, n * N)),
    turnStart: new Int32Array(pb.tree.T + 1),
    nNodes: 0,
    groups: pb.exact ? pb.env.contexts : pb.env.contextsPerBatch,
    sortTmp: new Int32Array(0),
    sortFill: new Int32Array(pb.tree.T),
  };
  b.sortTmp = new Int32Array(b.nodes.length);
  b.contextNode = pb.shared ? new Int32Array(n * N) : b.node;
  b.terminal = pb.env.turnRewards ? new Float64Array(n) : b.reward;
  if (pb.enumeration) {
    b.ctx.set(pb.enumeration.ctx);
    b.group.set(pb.enumeration.ctx);
    b.tok.set(pb.enumeration.tok);
    b.node.set(pb.enumeration.node);
    for (let j = 0; j < n * N; j++) b.param[j] = b.node[j] * pb.tree.V + b.tok[j];
    if (b.contextNode !== b.node) b.contextNode.set(pb.enumeration.contextNode);
    b.reward.set(pb.enumeration.reward);
    if (b.terminal !== b.reward) b.terminal.set(pb.enumeration.terminal);
    b.turnReward.set(pb.enumeration.turnReward);
    b.togo.set(pb.enumeration.togo);
    collectNodes(pb, b, new Int32Array(pb.nodes), 1);
  }
  return b;
}

/**
 * Gather the distinct nodes the batch visits, grouped by turn (a counting sort), using
 * `stamp` (one entry per node) to deduplicate without allocating.
 */
export function collectNodes(pb: Problem, b: Batch, stamp: Int32Array, mark: number): void {
  const T = pb.tree.T;
  const counts = b.turnStart;
  for (let t = 0; t <= T; t++) counts[t] = 0; // not fill(): a call into the runtime per iteration
  const seen = b.nodes; // first pass: distinct nodes in visit order
  let m = 0;
  for (let j = 0; j < b.n * b.N; j++) {
    const g = b.node[j];
    if (stamp[g] !== mark) {
      stamp[g] = mark;
      seen[m++] = g;
      counts[pb.turnOfNode[g] + 1]++;
    }
  }
  for (let t = 0; t < T; t++) counts[t + 1] += counts[t];
  // stable placement by turn through a copy of the visit-order list
  const tmp = b.sortTmp;
  for (let j = 0; j < m; j++) tmp[j] = seen[j]; // a loop: set(subarray()) allocates a view per iteration
  const fill = b.sortFill;
  for (let t = 0; t < T; t++) fill[t] = counts[t];
  for (let j = 0; j < m; j++) {
    const g = tmp[j];
    seen[fill[pb.turnOfNode[g]]++] = g;
  }
  b.nNodes = m;
}
