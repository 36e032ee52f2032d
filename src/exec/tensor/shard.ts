import { applyScheduled } from '../../core/run/changes';
import * as tf from '@tensorflow/tfjs-core';
import type { Experiment } from '../../core/config/resolve';
import type { AlgorithmRecord } from '../../core/algo/records';
import { evaluatePolicy, softmaxTable } from '../../core/env/exact';
import type { RunSpec } from '../../core/run/partition';
import { makeRunSeries, markDiverged, putUpdate, recordEvaluation, recordUpdate, type RunSeries } from '../../core/run/series';
import { buildProblem, type Problem } from '../host/problem';
import { makeScratch, type Scratch } from '../host/scratch';
import { makeRun, type RunState } from '../host/state';
import { disposeBatch, nodeLogProbs, updateRuns, uploadBatch, type DeviceRuns } from './device-iteration';
import { disposeDeviceRuns, makeDeviceRuns, refreshHyper, mlpShape } from './device-runs';
import { featureEncoder, inputSize, nodeInputs, oneHotNodeEncoder, oneHotNodeInputs } from './features';
import { makeHostBatch, prepareRun, visitKl, type HostBatch } from './host';
import type { Rows, TensorPolicy } from './policy';
/** Tests only: the MLP's input and bias (one-hot node inputs without bias make the MLP a table). */
export interface ShardOverrides {
  inputs?: 'features' | 'one-hot-node';
  bias?: boolean;
  /** Sampled MLP: the network's rows are every node, or each rollout position (default: whichever are fewer). */
  rows?: 'nodes' | 'rollouts';
  /** The stride at which metrics other than J are stored (series.ts); 1 by default. */
  every?: number;
}

/** Largest runs · nodes · V a shard holds (its host mirrors are two float64 tables per run). */
export const MAX_TABLE_ENTRIES = 2 ** 24;

/**
 * Runs of one experiment batched into the same tensors on the current tfjs backend. The
 * host keeps each run's policy as a log-probability table (read back once per iteration)
 * for sampling, advantages and exact evaluation with the CPU executor's float64 code.
 */
export class TensorShard {
  readonly pb: Problem;
  readonly runs: RunState[];
  readonly series: RunSeries[];
  readonly policy: TensorPolicy;
  iteration = 0;
  private readonly sc: Scratch;
  private readonly hb: HostBatch;
  private readonly dev: DeviceRuns;
  private readonly allRows: Rows;
  private mirror: Float64Array[];
  private spare: Float64Array[];

  constructor(
    readonly exp: Experiment,
    readonly specs: RunSpec[],
    overrides: ShardOverrides = {},
  ) {
    this.pb = buildProblem(exp);
    const { pb } = this;
    const R = specs.length;
    const V = pb.tree.V;
    if (R * pb.nodes * V > MAX_TABLE_ENTRIES)
      throw new Error(`runs·nodes·vocab = ${R}·${pb.nodes}·${V} exceeds the tensor executor's ${MAX_TABLE_ENTRIES.toLocaleString('en-US')} table entries: lower seeds or the environment size`);
    this.sc = makeScratch(pb);
    this.mirror = specs.map(() => new Float64Array(pb.params));
    this.spare = specs.map(() => new Float64Array(pb.params));
    this.runs = specs.map((s, r) => makeRun(pb, exp.algorithms[s.algoIndex], s.algoIndex, s.seedIndex, this.mirror[r]));
    this.series = specs.map((s) => makeRunSeries(exp, s.algoIndex, s.seedIndex, overrides.every ?? 1));
    const mlp = exp.policy.kind === 'mlp';
    const oneHot = overrides.inputs === 'one-hot-node';
    const perRollout = mlp && !pb.exact && (overrides.rows ?? (pb.nodes > pb.rollouts * pb.tree.N ? 'rollouts' : 'nodes')) === 'rollouts';
    const encoder = perRollout ? (oneHot ? oneHotNodeEncoder(pb.nodes) : featureEncoder(pb.tree, pb.env.contexts)) : null;
    this.hb = makeHostBatch(pb, R, encoder);
    if (mlp) {
      const width = oneHot ? pb.nodes : inputSize(pb.tree, pb.env.contexts);
      this.dev = makeDeviceRuns(exp, specs, { shape: mlpShape(exp, width, overrides.bias ?? true) });
      this.allRows = { kind: 'shared', X: tf.tensor2d(oneHot ? oneHotNodeInputs(pb.nodes) : nodeInputs(pb.tree, pb.env.contexts), [pb.nodes, width]) };
    } else {
      this.dev = makeDeviceRuns(exp, specs, { table: this.runs.map((r) => r.theta), nodes: pb.nodes, turnOfNode: pb.turnOfNode });
      this.allRows = { kind: 'shared', X: null };
    }
    this.policy = this.dev.policy;
  }

  /** Reads the initial policies and records iteration 0; call once before step(). */
  async init(): Promise<void> {
    const data = await this.readTables([]);
    const sums = this.runs.length * this.pb.params;
    this.runs.forEach((run, r) => {
      this.mirror[r].set(data.subarray(r * this.pb.params, (r + 1) * this.pb.params));
      if (!Number.isFinite(data[sums + r])) markDiverged(this.series[r], run, 0);
      else this.record(r, 0);
    });
  }

  get Jstar(): number {
    return this.pb.opt.Jstar;
  }

  get done(): boolean {
    return this.iteration >= this.exp.iterations;
  }

  /** Advance every run by one iteration. */
  async step(): Promise<void> {
    if (this.done) return;
    if (applyScheduled(this.exp, this.iteration)) this.refreshHyper();
    const t0 = performance.now();
    const { pb, hb } = this;
    const k = this.iteration;
    const R = this.runs.length;
    this.runs.forEach((run, r) => {
      run.theta = this.mirror[r];
      run.algo = this.exp.algorithms[this.specs[r].algoIndex];
      // a non-finite advantage, statistic or critic value: diverged at k + 1, and left out of the update
      if (!prepareRun(pb, run, this.sc, hb, r)) markDiverged(this.series[r], run, k + 1);
    });
    const b = uploadBatch(this.dev, hb, this.allRows, pb.exact);
    const stats = updateRuns(this.dev, hb, b, false);
    const data = await this.readTables(stats);
    tf.dispose(stats);
    disposeBatch(this.dev, b);
    const P = pb.params;
    const sums = R * P; // Σ log π over each run's table (readTables)
    const extra = sums + R; // gradNorm, clipNum, clipDen, health (updateRuns)
    for (let r = 0; r < R; r++) {
      const run = this.runs[r];
      const s = this.series[r];
      if (run.diverged !== null) continue;
      const old = this.mirror[r];
      const cur = this.spare[r];
      cur.set(data.subarray(r * P, (r + 1) * P));
      this.spare[r] = old;
      this.mirror[r] = cur;
      run.theta = cur;
      const den = data[extra + 2 * R + r];
      const update = {
        kl: visitKl(pb, hb, r, old, cur),
        gradNorm: data[extra + r],
        clipFraction: den > 0 ? data[extra + R + r] / den : 0,
        zeroVarianceGroups: hb.zeroVar[r],
      };
      // the device's numbers no metric shows: parameters, Adam's moments and M (health), every logit (Σ log π)
      const deviceFinite = Number.isFinite(data[extra + 3 * R + r]) && Number.isFinite(data[sums + r]) && Number.isFinite(den) && Number.isFinite(data[extra + R + r]);
      if (recordUpdate(s, run, k, update, deviceFinite)) this.record(r, k + 1);
    }
    const ms = (performance.now() - t0) / R;
    this.runs.forEach((run, r) => run.diverged === null && putUpdate(this.series[r], 'wallMs', k, ms));
    this.iteration = k + 1;
  }

  /** The parameter tensors' values, run-major (for tests and finite differences). */
  async readParameters(): Promise<Float32Array[]> {
    return Promise.all(this.dev.params.map(async (p) => (await p.data()) as Float32Array));
  }

  /** Replace the parameters (same shapes as readParameters) without touching optimizer state. */
  writeParameters(values: Float32Array[]): void {
    const next = this.dev.params.map((p, i) => tf.tensor(values[i], p.shape));
    tf.dispose(this.dev.params);
    this.dev.params = next;
  }

  /** Exact J of every run at the current parameters. */
  async evaluateJ(): Promise<number[]> {
    const data = await this.readTables([]);
    const { pb, sc } = this;
    return this.runs.map((_, r) => {
      softmaxTable(Float64Array.from(data.subarray(r * pb.params, (r + 1) * pb.params)), pb.tree.V, sc.probs, sc.evalLogZ);
      return evaluatePolicy(pb.env, pb.tree, pb.opt, sc.probs, sc.evalScratch, sc.value).J;
    });
  }

  /** Frees every tensor the shard holds. */
  /** Apply a learning rate or clips changed in `exp` while the experiment runs. */
  refreshHyper(): void {
    refreshHyper(this.dev, this.exp, this.specs);
  }

  dispose(): void {
    disposeDeviceRuns(this.dev);
    if (this.allRows.kind === 'shared' && this.allRows.X) this.allRows.X.dispose();
  }

  /**
   * Every run's log-probability table [R, nodes, V], then each run's Σ log π over its table [R],
   * then `extra`, in one read. The sum is not finite when a logit is not (a log-softmax is NaN or
   * −∞ there), or when log-probabilities below −3.4e38 (logits that far apart) overflow it: a
   * blow-up either way. MLP logits are computed here at every node, so this covers them all.
   */
  private async readTables(extra: tf.Tensor[]): Promise<Float32Array> {
    const logSm = nodeLogProbs(this.dev, this.allRows); // kept by the shard as the next iteration's θ_old
    const all = tf.tidy(() => tf.concat([tf.reshape(logSm, [-1]), tf.sum(logSm, [1, 2]), ...extra.map((e) => tf.reshape(e, [-1]))]));
    const data = (await all.data()) as Float32Array;
    all.dispose();
    return data;
  }

  private record(r: number, k: number): void {
    const { pb, sc } = this;
    const run = this.runs[r];
    const s = this.series[r];
    softmaxTable(this.mirror[r], pb.tree.V, sc.probs, sc.evalLogZ);
    recordEvaluation(s, run, k, evaluatePolicy(pb.env, pb.tree, pb.opt, sc.probs, sc.evalScratch, sc.value));
  }
}
