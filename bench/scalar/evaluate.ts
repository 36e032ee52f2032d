// Exact J, entropy and optimal-token probabilities of a plain-array tabular policy, written the
// straightforward way: a recursive walk down each context's tree with the probability of
// reaching each node, softmax rows as fresh arrays (docs/math.md: J is the mean over contexts of
// Σ_sequences P(sequence | x) · R̄(x, sequence)).
import type { Env } from '../../src/core/env/types';
import type { Tree } from '../../src/core/env/tree';
import type { Optimum } from '../../src/core/env/exact';
import { softmax, type TabularPolicy } from '../baseline/policy';

export interface ScalarValue {
  J: number;
  entropy: number; // mean per-token entropy along the policy's trajectories (nats)
  optimalProb: number[]; // per turn: probability of an optimal response along the optimal path
}

export function scalarEvaluate(env: Env, tree: Tree, opt: Optimum, policy: TabularPolicy): ScalarValue {
  let J = 0;
  let H = 0;
  const optimalProb: number[] = new Array(tree.T).fill(0);
  for (let x = 0; x < env.contexts; x++) {
    const R = env.returns[x];
    let jx = 0;
    let hx = 0;
    const walk = (p: number, q: number, reach: number) => {
      const node = x * tree.nodesPerContext + tree.offset[p] + q;
      const probs = softmax(policy.logits[node]);
      for (const pa of probs) if (pa > 0) hx -= reach * pa * Math.log(pa);
      for (let a = 0; a < tree.V; a++) {
        if (p === tree.N - 1) jx += reach * probs[a] * R[q * tree.V + a];
        else walk(p + 1, q * tree.V + a, reach * probs[a]);
      }
    };
    walk(0, 0, 1);
    J += jx / env.contexts;
    H += hx / (tree.N * env.contexts);
    for (let t = 0; t < tree.T; t++) {
      let prod = 1;
      for (let p = t * tree.L; p < (t + 1) * tree.L; p++) {
        const local = opt.path[x][p];
        const probs = softmax(policy.logits[x * tree.nodesPerContext + local]);
        let mass = 0;
        for (let a = 0; a < tree.V; a++) if (opt.optimal[(x * tree.nodesPerContext + local) * tree.V + a]) mass += probs[a];
        prod *= mass;
      }
      optimalProb[t] += prod / env.contexts;
    }
  }
  return { J, entropy: H, optimalProb };
}
