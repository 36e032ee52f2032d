import { applyScheduled } from '../../core/run/changes';
import { buildProblem, type Problem } from '../host/problem';
import { makeScratch, type Scratch } from '../host/scratch';
import { makeRun, type RunState } from '../host/state';
import { evaluateRun, iterate, type StepMetrics } from './iterate';
import { EvalCache, ExactEvalCache } from './eval-cache';
import { watchedRuns } from '../host/tree-watch';
import type { Experiment } from '../../core/config/resolve';
import { makeRunSeries, putUpdate, recordEvaluation, recordUpdate, type RunSeries } from '../../core/run/series';
import type { RunSpec } from '../../core/run/partition';
import type { TurnRecord } from '../../core/run/turns';
import { fedAdvantage, makePrefixValues, optimalPathIds, policyTreeView, type PolicyTreeView, type PrefixValues } from '../../core/env/policy-tree';
import { softmaxTable } from '../../core/env/exact';
import { nowMs } from '../host/clock';
import { fixedShapeCopy, syncHotFields } from './algo-copy';
import { attachExactKernel } from './exact-kernel';

export type { RunSpec };


/**
 * Many runs of one experiment laid out together: one Float64Array holds every run's logits,
 * one set of scratch buffers serves them all, and step() advances every run by one iteration.
 */
export class CpuShard {
  readonly pb: Problem;
  readonly runs: RunState[];
  readonly series: RunSeries[];
  readonly theta: Float64Array;
  readonly sc: Scratch;
  /** Each run's table kept between evaluations (eval-cache.ts), or null: every evaluation from the whole table. */
  private readonly evals: EvalCache | null;
  /** Exact mode: each run's tables from its latest evaluation, which its next iteration weighs by (eval-cache.ts). */
  private readonly exactEvals: ExactEvalCache | null;
  private readonly m: StepMetrics = { kl: 0, clipFraction: 0, zeroVarianceGroups: 0, gradNorm: 0, finite: true };
  iteration = 0;
  /** Run positions whose policy tree the page draws (watchedRuns, host/tree-watch.ts), and the context shown. */
  private watched: number[] = [];
  private watchContext = 0;
  private treeScratch: { probs: Float64Array; logZ: Float64Array; values: PrefixValues; fed: Float64Array } | null = null;

  /** `every`: the stride at which metrics other than J are stored (series.ts). */
  constructor(
    exp: Experiment,
    readonly specs: RunSpec[],
    every = 1,
  ) {
    if (exp.policy.kind !== 'tabular') throw new Error('the CPU executor runs tabular policies only; MLP policies need the tensor executor');
    this.pb = buildProblem(exp);
    this.sc = makeScratch(this.pb);
    const P = this.pb.params;
    // exact mode: θ, and the scratch's log-normalizers, π_old and node stamps, in the memory of the PPU step's kernel (exact-kernel.ts)
    this.theta = (this.pb.exact ? attachExactKernel(this.pb, this.sc, specs.length) : null) ?? new Float64Array(P * specs.length);
    this.runs = specs.map((s, r) => makeRun(this.pb, fixedShapeCopy(exp.algorithms[s.algoIndex]), s.streamIndex ?? s.algoIndex, s.seedIndex, this.theta.subarray(r * P, (r + 1) * P)));
    this.series = specs.map((s) => makeRunSeries(exp, s.algoIndex, s.seedIndex, every));
    this.evals = EvalCache.applies(this.pb, specs.length) ? new EvalCache(this.pb, specs.length) : null;
    this.exactEvals = ExactEvalCache.applies(this.pb, specs.length) ? new ExactEvalCache(this.pb, specs.length) : null;
    this.runs.forEach((run, r) => this.record(r, 0));
  }

  get done(): boolean {
    return this.iteration >= this.pb.exp.iterations;
  }

  /**
   * Advance every run by one iteration. With `turns`, also evaluate each run after every
   * turn's update (sequential rules) and return what each run did turn by turn.
   */
  step(turns = false): TurnRecord[] | null {
    if (this.done) return null;
    const k = this.iteration;
    applyScheduled(this.pb.exp, k);
    // the runs read copies of their algorithm records (algo-copy.ts): a clip changed since the last step, by a scheduled change or live, into them
    const algos = this.pb.exp.algorithms;
    for (let r = 0; r < this.runs.length; r++) syncHotFields(this.runs[r].algo, algos[this.specs[r].algoIndex]);
    // the turn-by-turn records only when asked for: nothing is allocated per run otherwise
    const records: TurnRecord[] | null = turns ? [] : null;
    // one clock read per run: a run's iteration starts where the previous one's ended (a read costs
    // about as much as 1–2% of a run-iteration of the default experiment)
    let t0 = nowMs();
    for (let r = 0; r < this.runs.length; r++) {
      const run = this.runs[r];
      const s = this.series[r];
      if (records) records.push({ turns: [], J: [], optimalProb: [] });
      if (run.diverged !== null) continue;
      const rec = records ? records[r] : null;
      if (rec) t0 = nowMs(); // the previous run's turn records are not this run's time
      const watching = this.watched.length > 0 && this.watched.includes(r); // no builtin call per run while nothing is watched
      const watched = turns && watching;
      if (watched) rec!.trees = [];
      const onTurn = turns
        ? (t: number) => {
            const v = evaluateRun(this.pb, run, this.sc);
            rec!.turns.push(t);
            rec!.J.push(v.J);
            rec!.optimalProb.push(Array.from(v.optimalProb));
            if (watched) rec!.trees!.push(this.treeOf(r, k + 1, t, true));
          }
        : undefined;
      iterate(this.pb, run, this.sc, this.m, onTurn, this.evals ? this.evals.tables[r] : this.exactEvals ? this.exactEvals.tables[r] : null);
      if (watching) this.fedOf(r);
      // any non-finite number of the update or of the evaluation marks the run diverged at k + 1 (iterate.ts)
      const v = recordUpdate(s, run, k, this.m, this.m.finite !== false) ? this.record(r, k + 1) : null;
      const t1 = nowMs();
      if (run.diverged === null) putUpdate(s, 'wallMs', k, t1 - t0);
      t0 = t1;
      if (rec && rec.turns.length === 0) {
        rec.turns.push(-1);
        const ok = run.diverged === null;
        rec.J.push(ok ? v!.J : NaN);
        rec.optimalProb.push(Array.from({ length: this.pb.tree.T }, (_, t) => (ok ? v!.optimalProb[t] : NaN)));
        if (watched) rec.trees!.push(this.treeOf(r, k + 1, -1));
      }
    }
    this.iteration = k + 1;
    return records;
  }

  /** Draw the trees of these runs (algorithm index, seed index; those this shard owns) in `context`. */
  watch(runs: readonly (readonly [number, number])[], context: number): void {
    ({ runs: this.watched, context: this.watchContext } = watchedRuns(this.specs, runs, this.pb.env.contexts, context));
    this.fed.clear();
  }

  /** The watched runs' trees as they stand. */
  trees(): PolicyTreeView[] {
    return this.watched.map((r) => this.treeOf(r, this.iteration, null));
  }

  /** The advantages each watched run was fed in its latest iteration, per edge of the context shown (read from the batch iterate just filled). */
  private readonly fed = new Map<number, Float64Array>();
  private fedOf(r: number): Float64Array {
    const out = this.fed.get(r) ?? new Float64Array(this.pb.tree.nodesPerContext * this.pb.tree.V);
    this.fed.set(r, fedAdvantage(this.pb.tree, this.watchContext, this.sc.batch, out));
    return out;
  }

  private treeOf(r: number, iteration: number, turn: number | null, midIteration = false): PolicyTreeView {
    const { tree, env, opt } = this.pb;
    const ts = (this.treeScratch ??= {
      probs: new Float64Array(this.pb.params),
      logZ: new Float64Array(this.pb.nodes),
      values: makePrefixValues(tree),
      fed: new Float64Array(tree.nodesPerContext * tree.V),
    });
    const x = this.watchContext;
    softmaxTable(this.runs[r].theta, tree.V, ts.probs, ts.logZ);
    // mid-iteration (a turn step) the batch still holds this run's rollouts: what it was fed now
    const fed = midIteration ? fedAdvantage(tree, x, this.sc.batch, ts.fed) : (this.fed.get(r) ?? null);
    const path = optimalPathIds(tree, opt.path[x], opt.optimal, x * tree.nodesPerContext);
    const s = this.specs[r];
    return policyTreeView(
      { tree, returns: env.returns[x], probs: ts.probs, base: x * tree.nodesPerContext * tree.V, path, fed },
      { algoIndex: s.algoIndex, seedIndex: s.seedIndex, iteration, turn, context: x },
      ts.values,
    );
  }

  /**
   * The runs' θ were set from outside (a WebGPU run the CPU executor takes over: worker/webgpu-session.ts):
   * the tables kept from each run's last evaluation (eval-cache.ts) are computed again from them; nothing is recorded.
   */
  thetaSet(): void {
    this.runs.forEach((run, r) => {
      if (this.exactEvals) this.exactEvals.full(this.pb, r, run.theta, this.sc);
      else if (this.evals) this.evals.full(this.pb, r, run.theta, this.sc);
    });
  }

  /** Evaluate run r at iteration k (k > 0: right after its iteration k − 1 → k) and store it. */
  private record(r: number, k: number) {
    const run = this.runs[r];
    const v = this.exactEvals
      ? this.exactEvals.evaluate(this.pb, r, run.theta, this.sc)
      : !this.evals
        ? evaluateRun(this.pb, run, this.sc)
        : k === 0
          ? this.evals.full(this.pb, r, run.theta, this.sc)
          : this.evals.afterIteration(this.pb, r, run.theta, this.sc);
    recordEvaluation(this.series[r], run, k, v);
    return v;
  }
}
