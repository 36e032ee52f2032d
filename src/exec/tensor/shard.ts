import * as tf from '@tensorflow/tfjs-core';
import type { Experiment } from '../../core/config/resolve';
import { evaluatePolicy, softmaxTable } from '../../core/env/exact';
import type { RunSpec } from '../../core/run/partition';
import { makeRunSeries, type RunSeries } from '../../core/run/series';
import { buildProblem, type Problem } from '../cpu/problem';
import { makeScratch, type Scratch } from '../cpu/scratch';
import { makeRun, type RunState } from '../cpu/state';
import { featureEncoder, inputSize, nodeInputs, oneHotNodeEncoder, oneHotNodeInputs } from './features';
import { makeHostBatch, prepareRun, visitKl, type HostBatch } from './host';
import { initialMlp, mlpParamShapes, mlpPolicy, tabularPolicy, type MlpShape, type Rows, type TensorPolicy } from './policy';
import { stepArrays } from './step-arrays';
import { gradient, logProbs, normPerRun, step, type Consts, type DeviceBatch, type OptState, type StepState } from './update';

/** Tests only: the MLP's input and bias (one-hot node inputs without bias make the MLP a table). */
export interface ShardOverrides {
  inputs?: 'features' | 'one-hot-node';
  bias?: boolean;
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
  private params: tf.Tensor[];
  private opt: OptState;
  private readonly consts: Consts;
  private readonly allRows: Rows;
  private exactIndex: tf.Tensor2D | null = null;
  private mirror: Float64Array[];
  private spare: Float64Array[];
  private readonly adamCounts: Int32Array[] | null;
  private readonly perTurnAdam: boolean;

  constructor(
    readonly exp: Experiment,
    readonly specs: RunSpec[],
    overrides: ShardOverrides = {},
  ) {
    this.pb = buildProblem(exp);
    const { pb } = this;
    const R = specs.length;
    const { V, T } = pb.tree;
    if (R * pb.nodes * V > MAX_TABLE_ENTRIES)
      throw new Error(`runs·nodes·vocab = ${R}·${pb.nodes}·${V} exceeds the tensor executor's ${MAX_TABLE_ENTRIES.toLocaleString('en-US')} table entries: lower seeds or the environment size`);
    this.sc = makeScratch(pb);
    this.mirror = specs.map(() => new Float64Array(pb.params));
    this.spare = specs.map(() => new Float64Array(pb.params));
    this.runs = specs.map((s, r) => makeRun(pb, exp.algorithms[s.algoIndex], s.algoIndex, s.seedIndex, this.mirror[r]));
    this.series = specs.map((s) => makeRunSeries(exp, s.algoIndex, s.seedIndex));
    const mlp = exp.policy.kind === 'mlp';
    const oneHot = overrides.inputs === 'one-hot-node';
    const encoder = mlp && !pb.exact ? (oneHot ? oneHotNodeEncoder(pb.nodes) : featureEncoder(pb.tree, pb.env.contexts)) : null;
    this.hb = makeHostBatch(pb, R, encoder);
    this.perTurnAdam = !mlp;
    this.adamCounts = exp.optimizer.kind === 'adam' ? specs.map(() => new Int32Array(mlp ? 1 : T)) : null;
    const perRun = (f: (a: RunState['algo']) => number) => specs.map((s) => f(exp.algorithms[s.algoIndex]));
    const eps = perRun((a) => (a.rule === 'reinforce' ? 1e30 : a.clip));
    const mClip = perRun((a) => a.mClip ?? Infinity);
    this.consts = {
      lo: tf.tensor3d(eps.map((e) => 1 - e), [R, 1, 1]),
      hi: tf.tensor3d(eps.map((e) => 1 + e), [R, 1, 1]),
      eps: tf.tensor3d(eps, [R, 1, 1]),
      mLo: tf.tensor2d(mClip.map((c) => (Number.isFinite(c) ? 1 - c : 0)), [R, 1]),
      mHi: tf.tensor2d(mClip.map((c) => (Number.isFinite(c) ? 1 + c : 3.4e38)), [R, 1]),
      turnOfNode: mlp ? null : tf.tensor1d(pb.turnOfNode, 'int32'),
      T,
    };
    if (exp.policy.kind === 'mlp') {
      const width = oneHot ? pb.nodes : inputSize(pb.tree, pb.env.contexts);
      const shape: MlpShape = { layers: [width, ...exp.policy.hidden, V], activation: exp.policy.activation, bias: overrides.bias ?? true };
      this.policy = mlpPolicy(shape);
      this.allRows = { kind: 'shared', X: tf.tensor2d(oneHot ? oneHotNodeInputs(pb.nodes) : nodeInputs(pb.tree, pb.env.contexts), [pb.nodes, width]) };
      const perSeed = specs.map((s) => initialMlp(shape, exp.seed, s.seedIndex, (exp.policy as { initScale: number }).initScale));
      this.params = mlpParamShapes(shape).map(([a, b], i) => {
        const flat = new Float32Array(R * a * b);
        perSeed.forEach((w, r) => flat.set(w[i], r * a * b));
        return tf.tensor3d(flat, [R, a, b]);
      });
    } else {
      this.policy = tabularPolicy;
      this.allRows = { kind: 'shared', X: null };
      const flat = new Float32Array(R * pb.params);
      this.runs.forEach((run, r) => flat.set(run.theta, r * pb.params));
      this.params = [tf.tensor3d(flat, [R, pb.nodes, V])];
    }
    const zeros = () => this.params.map((p) => tf.zerosLike(p));
    this.opt = { kind: exp.optimizer.kind, lr: exp.optimizer.lr, m: this.adamCounts ? zeros() : [], v: this.adamCounts ? zeros() : [] };
  }

  /** Reads the initial policies and records iteration 0; call once before step(). */
  async init(): Promise<void> {
    const data = await this.readTables([]);
    this.runs.forEach((_, r) => {
      this.mirror[r].set(data.subarray(r * this.pb.params, (r + 1) * this.pb.params));
      this.record(r, 0);
    });
  }

  get done(): boolean {
    return this.iteration >= this.exp.iterations;
  }

  /** Advance every run by one iteration. */
  async step(): Promise<void> {
    if (this.done) return;
    const t0 = performance.now();
    const { pb, hb } = this;
    const k = this.iteration;
    const R = this.runs.length;
    this.runs.forEach((run, r) => {
      run.theta = this.mirror[r];
      prepareRun(pb, run, this.sc, hb, r);
    });
    const b = this.upload();
    const { logpOld, gradNorm } = tf.tidy(() => {
      const { logp, logSm, acts } = logProbs(this.policy, this.params, b);
      const c = tf.mul(tf.expandDims(b.weight, 2), b.advTok) as tf.Tensor3D;
      return { logpOld: logp, gradNorm: normPerRun(gradient(this.policy, this.params, b, logSm, acts, c)) };
    });
    let st: StepState = { params: this.params, opt: this.opt, M: tf.ones([R, hb.S]), clipNum: tf.zeros([R]), clipDen: tf.zeros([R]) };
    const K = Math.max(0, ...hb.plans.map((p) => p.length));
    for (let s = 0; s < K; s++) {
      const next = step(this.policy, b, logpOld, this.consts, st, stepArrays(hb, s, this.adamCounts, this.perTurnAdam, this.consts.T));
      disposeReplaced(st, next);
      st = next;
    }
    this.params = st.params;
    this.opt = st.opt;
    const data = await this.readTables([gradNorm, st.clipNum, st.clipDen]);
    tf.dispose([logpOld, gradNorm, st.M, st.clipNum, st.clipDen, b.advTok, b.weight]);
    if (b.index !== this.exactIndex) b.index.dispose();
    if (b.rows.kind === 'perRun') b.rows.X.dispose();
    const P = pb.params;
    const extra = R * P;
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
      s.kl[k] = visitKl(pb, hb, r, old, cur);
      s.gradNorm[k] = data[extra + r];
      const den = data[extra + 2 * R + r];
      s.clipFraction[k] = den > 0 ? data[extra + R + r] / den : 0;
      s.zeroVarianceGroups[k] = hb.zeroVar[r];
      this.record(r, k + 1);
    }
    const ms = (performance.now() - t0) / R;
    for (const s of this.series) s.wallMs[k] = ms;
    this.iteration = k + 1;
  }

  /** The parameter tensors' values, run-major (for tests and finite differences). */
  async readParameters(): Promise<Float32Array[]> {
    return Promise.all(this.params.map(async (p) => (await p.data()) as Float32Array));
  }

  /** Replace the parameters (same shapes as readParameters) without touching optimizer state. */
  writeParameters(values: Float32Array[]): void {
    const next = this.params.map((p, i) => tf.tensor(values[i], p.shape));
    tf.dispose(this.params);
    this.params = next;
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
  dispose(): void {
    tf.dispose([...this.params, ...this.opt.m, ...this.opt.v, this.consts.lo, this.consts.hi, this.consts.eps, this.consts.mLo, this.consts.mHi]);
    if (this.consts.turnOfNode) this.consts.turnOfNode.dispose();
    if (this.allRows.kind === 'shared' && this.allRows.X) this.allRows.X.dispose();
    this.exactIndex?.dispose();
  }

  private upload(): DeviceBatch {
    const { hb, pb } = this;
    const { R, S, P, Q } = hb;
    let index: tf.Tensor2D;
    if (pb.exact) index = this.exactIndex ??= tf.tensor2d(hb.index, [R * S * P, 1], 'int32');
    else index = tf.tensor2d(hb.index, [R * S * P, 1], 'int32');
    const rows: Rows = hb.X ? { kind: 'perRun', X: tf.tensor3d(hb.X, [R, S * P, hb.encoder!.width]) } : this.allRows;
    return {
      rows,
      index,
      advTok: tf.tensor3d(hb.advTok, [R, S, P]),
      weight: tf.tensor2d(hb.weight, [R, S]),
      R,
      S,
      P,
      Q,
      V: pb.tree.V,
    };
  }

  /** Every run's log-probability table [R, nodes, V] followed by `extra`, in one read. */
  private async readTables(extra: tf.Tensor[]): Promise<Float32Array> {
    const all = tf.tidy(() => {
      const { logits } = this.policy.forward(this.params, this.allRows);
      return tf.concat([tf.reshape(tf.logSoftmax(logits), [-1]), ...extra.map((e) => tf.reshape(e, [-1]))]);
    });
    const data = (await all.data()) as Float32Array;
    all.dispose();
    return data;
  }

  private record(r: number, k: number): void {
    const run = this.runs[r];
    const s = this.series[r];
    const { pb, sc } = this;
    softmaxTable(this.mirror[r], pb.tree.V, sc.probs, sc.evalLogZ);
    const v = evaluatePolicy(pb.env, pb.tree, pb.opt, sc.probs, sc.evalScratch, sc.value);
    if (!Number.isFinite(v.J)) {
      run.diverged = k;
      s.diverged = k;
      return;
    }
    s.J[k] = v.J;
    s.entropy[k] = v.entropy;
    for (let t = 0; t < v.optimalProb.length; t++) s.optimalTokenProb[t][k] = v.optimalProb[t];
  }
}

/** Dispose the tensors of `old` that `next` no longer holds. */
function disposeReplaced(old: StepState, next: StepState): void {
  const kept = new Set<tf.Tensor>([...next.params, ...next.opt.m, ...next.opt.v, next.M, next.clipNum, next.clipDen]);
  tf.dispose([...old.params, ...old.opt.m, ...old.opt.v, old.M, old.clipNum, old.clipDen].filter((t) => !kept.has(t)));
}
