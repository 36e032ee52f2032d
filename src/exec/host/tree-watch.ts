import { softmaxTable } from '../../core/env/exact';
import { makePrefixValues, optimalPathIds, policyTreeView, type PolicyTreeView, type PrefixValues } from '../../core/env/policy-tree';
import type { RunSpec } from '../../core/run/partition';
import type { Problem } from './problem';

// The policy trees of the runs the page watches (docs/math.md, "The decision tree"), for an
// executor that holds each run's policy as a table on the host: the tensor executor's
// log-probabilities, read back every iteration (for an MLP, the network's log π(token | prefix)
// at every prefix), or the WebGPU executor's logits, read back with every dispatch. Softmax turns
// either into π. These executors keep no batch on the host, so no tree says what advantage the
// algorithm fed an edge (`noFed` says why).

/** The page draws at most this many runs' trees side by side. */
export const MAX_WATCHED = 2;

/**
 * The runs to draw, as indices into `specs` (at most MAX_WATCHED; runs not in `specs`, i.e. another
 * shard's, dropped), and the context to draw them in, clamped to the environment's.
 */
export function watchedRuns(
  specs: readonly RunSpec[],
  runs: readonly (readonly [number, number])[],
  contexts: number,
  context: number,
): { runs: number[]; context: number } {
  return {
    runs: runs
      .slice(0, MAX_WATCHED)
      .map(([a, s]) => specs.findIndex((x) => x.algoIndex === a && x.seedIndex === s))
      .filter((r) => r >= 0),
    context: Math.max(0, Math.min(contexts - 1, Math.floor(context) || 0)),
  };
}

export class TreeWatch {
  private watched: number[] = [];
  private context = 0;
  private scratch: { logits: Float64Array; probs: Float64Array; logZ: Float64Array; values: PrefixValues } | null = null;

  constructor(
    private readonly pb: Problem,
    private readonly specs: readonly RunSpec[],
    private readonly noFed: string,
  ) {}

  /** Draw these runs (algorithm index, seed index; those this executor's shard owns) in `context`. */
  watch(runs: readonly (readonly [number, number])[], context: number): void {
    ({ runs: this.watched, context: this.context } = watchedRuns(this.specs, runs, this.pb.env.contexts, context));
  }

  /** The watched runs' trees at `iteration`, from `table(r)`: run r's logits or log-probabilities (nodes · V). */
  trees(iteration: number, table: (r: number) => ArrayLike<number>): PolicyTreeView[] {
    return this.watched.map((r) => this.treeOf(r, iteration, table(r)));
  }

  private treeOf(r: number, iteration: number, table: ArrayLike<number>): PolicyTreeView {
    const { tree, env, opt, params, nodes, shared } = this.pb;
    const ts = (this.scratch ??= { logits: new Float64Array(params), probs: new Float64Array(params), logZ: new Float64Array(nodes), values: makePrefixValues(tree) });
    ts.logits.set(table);
    softmaxTable(ts.logits, tree.V, ts.probs, ts.logZ);
    const x = this.context;
    const path = optimalPathIds(tree, opt.path[x], opt.optimal, x * tree.nodesPerContext);
    const s = this.specs[r];
    // a table shared by every context (policy.shareContexts) holds one context's nodes
    const base = shared ? 0 : x * tree.nodesPerContext * tree.V;
    const view = policyTreeView({ tree, returns: env.returns[x], probs: ts.probs, base, path, fed: null }, { algoIndex: s.algoIndex, seedIndex: s.seedIndex, iteration, turn: null, context: x }, ts.values);
    view.noFed = this.noFed;
    return view;
  }
}
