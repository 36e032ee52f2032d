import type { Experiment } from '../../core/config/resolve';
import { sharesContexts } from '../../core/config/experiment';
import { computeOptimum, type Optimum } from '../../core/env/exact';
import { rewardsToGo, turnRewardsAlong } from '../../core/env/returns';
import { buildTree, decodeSequence, type Tree } from '../../core/env/tree';
import type { Env } from '../../core/env/types';

/**
 * What every run of an experiment shares and never writes: the environment, its tree, the
 * optimum, and (exact mode) the enumeration of every token sequence as a fixed batch.
 */
export interface Problem {
  exp: Experiment;
  env: Env;
  tree: Tree;
  opt: Optimum;
  /**
   * One table for every context (policy.shareContexts): parameter node ids carry no context
   * (x · nodesPerContext + local becomes local), while rewards, groups and the critic stay per context.
   */
  shared: boolean;
  nodes: number; // parameter nodes: decision nodes over all contexts, or of one context when shared
  /** Decision nodes over all contexts (x · nodesPerContext + local): what a critic or a value per context is indexed by. */
  contextNodes: number;
  params: number; // tabular logits: nodes · V
  /** γ^(T−1−t): the discount of turn t's advantage (docs/math.md "Advantages"). */
  turnDiscount: Float64Array;
  /** Turn (0-based) of each parameter node. */
  turnOfNode: Int32Array;
  /** Rollouts per iteration and their capacity. */
  rollouts: number;
  exact: boolean;
  /** Exact mode: the fixed enumeration of every sequence (see Enumeration). */
  enumeration: Enumeration | null;
}

/** Exact mode's fixed batch: every token sequence of every context, i = x·sequences + s. */
export interface Enumeration {
  ctx: Int32Array;
  tok: Int32Array; // [i·N + k]
  node: Int32Array; // [i·N + k], parameter node ids
  /** Context node ids x · nodesPerContext + local, [i·N + k]; the same array as `node` unless shared. */
  contextNode: Int32Array;
  /** The undiscounted total mean return R̄ (env.returns: terminal plus every turn's reward). */
  reward: Float64Array;
  /** The terminal mean reward r̄_T (env.rewards); the same array as `reward` without turnRewards. */
  terminal: Float64Array;
  /** With turnRewards: the mean rewards by turn, r_1..r_T, at [i·T + t]; else empty. */
  turnReward: Float64Array;
  /** With turnRewards: the discounted rewards-to-go G_t at [i·T + t] (§1); else empty. */
  togo: Float64Array;
}

export function buildProblem(exp: Experiment): Problem {
  const env = exp.env;
  const tree = buildTree(env);
  const shared = sharesContexts(exp.policy);
  const contextNodes = env.contexts * tree.nodesPerContext;
  const nodes = shared ? tree.nodesPerContext : contextNodes;
  const turnOfNode = new Int32Array(nodes);
  for (let g = 0; g < nodes; g++) turnOfNode[g] = Math.floor(tree.positionOf[g % tree.nodesPerContext] / tree.L);
  const exact = exp.mode === 'exact';
  const rollouts = exact ? env.contexts * tree.sequences : env.contextsPerBatch * exp.groupSize;
  let enumeration: Problem['enumeration'] = null;
  if (exact) {
    const N = tree.N;
    const ctx = new Int32Array(rollouts);
    const tok = new Int32Array(rollouts * N);
    const node = new Int32Array(rollouts * N);
    const contextNode = shared ? new Int32Array(rollouts * N) : node;
    const reward = new Float64Array(rollouts);
    const T = tree.T;
    const perTurn = env.turnRewards !== null;
    const terminal = perTurn ? new Float64Array(rollouts) : reward;
    const turnReward = new Float64Array(perTurn ? rollouts * T : 0);
    const togo = new Float64Array(perTurn ? rollouts * T : 0);
    const along = new Float64Array(T);
    const seq = new Int32Array(N);
    for (let x = 0; x < env.contexts; x++) {
      for (let s = 0; s < tree.sequences; s++) {
        const i = x * tree.sequences + s;
        ctx[i] = x;
        reward[i] = env.returns[x][s]; // = env.rewards[x][s] without turn rewards (the same arrays)
        if (perTurn) {
          terminal[i] = env.rewards[x][s];
          turnReward.set(turnRewardsAlong(env, x, s, along), i * T);
          rewardsToGo(along, 0, T, env.gamma, togo, i * T);
        }
        decodeSequence(tree, s, seq);
        let q = 0;
        for (let k = 0; k < N; k++) {
          contextNode[i * N + k] = x * tree.nodesPerContext + tree.offset[k] + q;
          node[i * N + k] = (shared ? 0 : x * tree.nodesPerContext) + tree.offset[k] + q;
          tok[i * N + k] = seq[k];
          q = q * tree.V + seq[k];
        }
      }
    }
    enumeration = { ctx, tok, node, contextNode, reward, terminal, turnReward, togo };
  }
  const turnDiscount = Float64Array.from({ length: tree.T }, (_, t) => Math.pow(env.gamma, tree.T - 1 - t));
  const opt = computeOptimum(env, tree, shared);
  return { exp, env, tree, opt, shared, nodes, contextNodes, params: nodes * tree.V, turnDiscount, turnOfNode, rollouts, exact, enumeration };
}

/** The context node id (x · nodesPerContext + local) of parameter node n visited in context x. */
export const contextNodeOf = (pb: Problem, x: number, n: number): number => (pb.shared ? x * pb.tree.nodesPerContext + n : n);

/** Index of sequence s's leaf given its last node's local id and last token. */
export function leafIndex(tree: Tree, lastLocalNode: number, token: number): number {
  return (lastLocalNode - tree.offset[tree.N - 1]) * tree.V + token;
}
